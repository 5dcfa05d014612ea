#include "views/step_size_tab.h"

#include <qcustomplot.h>
#include <QVBoxLayout>
#include <cmath>

#include "charts/chart_view.h"
#include "optim/dp_adam_wosm.h"
#include "run/run_data.h"
#include "views/shown_refresh.h"

namespace dplab::ui {

namespace {
constexpr int kMaxCandidatesDrawn = 8;  // more lines would be unreadable
}

StepSizeTab::StepSizeTab(RunData* data, QWidget* parent) : QWidget(parent), data_(data) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  chart_ = new ChartView(tr("DPAdam effective step size vs its limit α/(σC/L + ξ) (Theorem 3)"),
                         QStringLiteral("dpadam_step_size"), this);
  layout->addWidget(chart_);
  QCustomPlot* plot = chart_->plot();
  setLogAxis(plot->yAxis);
  plot->xAxis->setLabel(tr("iteration (noisy-gradient queries)"));
  plot->yAxis->setLabel(tr("effective step size (mean over coordinates)"));
  connect(chart_, &ChartView::message, this, &StepSizeTab::message);
  // Redraws only while shown; a hidden tab catches up when shown (issue #25 item 13).
  new ShownRefresh(this, data_, [this](bool structural) { refresh(structural); });
  refresh(true);
}

void StepSizeTab::refresh(bool) {
  QCustomPlot* plot = chart_->plot();
  plot->clearGraphs();
  const tuning::SearchResults& r = data_->results();
  const double sigma = r.config.privacy.noise_multiplier;
  const double lot = r.config.privacy.lot_size;
  double lo = 1e300, hi = 0,
         xmax = std::max<double>(1.0, static_cast<double>(r.config.privacy.steps));
  int drawn = 0;
  const QColor palette[] = {QColor(0xd6, 0x27, 0x28), QColor(0x1f, 0x77, 0xb4),
                            QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                            QColor(0xff, 0x7f, 0x0e), QColor(0x8c, 0x56, 0x4b),
                            QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};
  for (const auto& cand : r.candidates) {
    if (cand.optimizer.kind != optim::OptimizerKind::kDpAdam || drawn >= kMaxCandidatesDrawn)
      continue;
    const auto& job = r.job(cand.index, 0);
    if (job.curve.empty()) continue;
    const QColor color = palette[drawn % 8];
    ++drawn;
    const QString label = QStringLiteral("α=%1, C=%2")
                              .arg(cand.optimizer.learning_rate, 0, 'g', 3)
                              .arg(cand.clip, 0, 'g', 3);
    QCPGraph* g = plot->addGraph();
    g->setName(tr("ESS, %1").arg(label));
    g->setPen(QPen(color, 2));
    for (const auto& p : job.curve) {
      if (!(p.step_size > 0) || !std::isfinite(p.step_size)) continue;
      g->addData(static_cast<double>(p.iteration), p.step_size);
      lo = std::min(lo, p.step_size);
      hi = std::max(hi, p.step_size);
    }
    const double limit = optim::theorem3_step_size_limit(cand.optimizer.learning_rate, sigma,
                                                         cand.clip, lot, cand.optimizer.epsilon);
    QCPGraph* l = plot->addGraph();
    l->setName(tr("limit α/(σC/L+ξ) = %1").arg(limit, 0, 'g', 3));
    l->setPen(QPen(color, 1.4, Qt::DashLine));
    l->addData(0, limit);
    l->addData(xmax, limit);
    lo = std::min(lo, limit);
    hi = std::max(hi, limit);
  }
  if (drawn == 0) {
    chart_->setTitle(tr("DPAdam effective step size — run an experiment with DPAdam to see it"));
    plot->yAxis->setRange(1e-4, 1);
  } else {
    chart_->setTitle(
        tr("DPAdam effective step size vs its limit α/(σC/L + ξ) (Theorem 3), σ = %1, L = %2")
            .arg(sigma)
            .arg(lot));
    plot->yAxis->setRange(lo / 8, hi * 2);  // room below the lines for the legend
  }
  plot->xAxis->setRange(0, xmax * 1.02);
  plot->legend->setVisible(drawn > 0);
  plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace dplab::ui
