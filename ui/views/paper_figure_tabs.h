// The reproduction views of the seed papers that run their own experiments (not a `tune`
// search): objective perturbation's Figure 2, sparse DP's Figure 1 (loss curves) and its canary
// audit (Figure 2 / Table 2), the one-run audit "How private is it really?" (issue #29), the OSO
// paper's tuning protocol (Figure 4 / Table 3). One call adds them to the main window's tabs and
// routes their messages, so the main window needs only this hook.
#pragma once

#include <QString>
#include <functional>

class QTabWidget;

namespace dplab::ui {

class CanaryAuditView;
class ObjpertFigure2View;
class OneRunAuditView;
class OsoProtocolView;
class SparseLossView;

struct PaperFigureTabs {
  ObjpertFigure2View* objpert = nullptr;
  SparseLossView* sparse_loss = nullptr;
  CanaryAuditView* canary = nullptr;
  OneRunAuditView* audit = nullptr;
  OsoProtocolView* oso = nullptr;
};

PaperFigureTabs addPaperFigureTabs(QTabWidget* tabs,
                                   const std::function<void(const QString&, bool)>& to_status);

}  // namespace dplab::ui
