#include "views/paper_figure_tabs.h"

#include <QTabWidget>

#include "views/canary_audit_view.h"
#include "views/objpert_figure2_view.h"
#include "views/one_run_audit_view.h"
#include "views/oso_protocol_view.h"
#include "views/sparse_loss_view.h"

namespace dplab::ui {

PaperFigureTabs addPaperFigureTabs(QTabWidget* tabs,
                                   const std::function<void(const QString&, bool)>& to_status) {
  PaperFigureTabs views;
  views.objpert = new ObjpertFigure2View(tabs);
  views.objpert->setObjectName(QStringLiteral("objpertFigure2View"));
  views.sparse_loss = new SparseLossView(tabs);
  views.sparse_loss->setObjectName(QStringLiteral("sparseLossView"));
  views.canary = new CanaryAuditView(tabs);
  views.canary->setObjectName(QStringLiteral("canaryAuditView"));
  views.audit = new OneRunAuditView(tabs);
  views.audit->setObjectName(QStringLiteral("oneRunAuditView"));
  views.oso = new OsoProtocolView(tabs);
  views.oso->setObjectName(QStringLiteral("osoProtocolView"));
  tabs->addTab(views.objpert, QObject::tr("Objective perturbation vs DP-SGD"));
  tabs->addTab(views.sparse_loss, QObject::tr("Sparse DP loss"));
  tabs->addTab(views.canary, QObject::tr("Canary audit"));
  tabs->addTab(views.audit, QObject::tr("How private is it really?"));
  tabs->addTab(views.oso, QObject::tr("OSO protocol (Figure 4)"));
  QObject::connect(views.objpert, &ObjpertFigure2View::message, tabs, to_status);
  QObject::connect(views.sparse_loss, &SparseLossView::message, tabs, to_status);
  QObject::connect(views.canary, &CanaryAuditView::message, tabs, to_status);
  QObject::connect(views.audit, &OneRunAuditView::message, tabs, to_status);
  QObject::connect(views.oso, &OsoProtocolView::message, tabs, to_status);
  return views;
}

}  // namespace dplab::ui
