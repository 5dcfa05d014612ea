#include "views/accuracy_tab.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>

#include "charts/chart_view.h"
#include "charts/split_or_tabs.h"
#include "form/optimizer_editor.h"
#include "optim/update_count.h"
#include "run/run_data.h"
#include "tuning/honest_selection.h"
#include "views/clip_chart.h"
#include "views/shown_refresh.h"
#include "views/winner_highlight.h"

namespace dplab::ui {

namespace {

constexpr int kLeastCurvesHeight = 350;  // px of the curves chart (and the C_t chart beside it)

QString optimizerName(const tuning::SearchResults& r, int index) {
  return OptimizerEditor::displayName(r.config.optimizers.at(static_cast<std::size_t>(index)));
}
}  // namespace

AccuracyTab::AccuracyTab(RunData* data, QWidget* parent) : QWidget(parent), data_(data) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  show_candidates_ = new QCheckBox(tr("show every candidate's curve (faint)"), this);
  show_candidates_->setToolTip(
      tr("Draw each job's validation-accuracy curve behind the max/median "
         "lines."));
  x_unit_ = new QComboBox(this);
  x_unit_->addItem(tr("x: T in noisy-gradient queries (privacy cost)"));
  x_unit_->addItem(tr("x: T in optimizer steps (updates)"));
  x_unit_->setToolTip(
      tr("dplab's T counts noisy-gradient queries, which is what ε composes. ADADP makes 2 "
         "queries per update, so at equal T it makes half the updates of the other optimizers; "
         "the second choice draws every curve against its optimizer's update count."));
  auto* options = new QHBoxLayout;
  options->addWidget(show_candidates_);
  options->addStretch(1);
  options->addWidget(x_unit_);
  layout->addLayout(options);
  curves_ =
      new ChartView(tr("Validation accuracy over candidates: max (solid) and median (dashed)"),
                    QStringLiteral("accuracy_curves"), this);
  protocol_ = new ChartView(tr("Best of k random candidates (section 5.2): mean and 95% CI"),
                            QStringLiteral("accuracy_best_of_k"), this);
  clip_ = new ChartView(tr("Live clipping threshold C_t (and ρ_t)"),
                        QStringLiteral("clip_threshold_curves"), this);
  // Beside the accuracy curves, so C_t and accuracy read against the same iterations.
  auto* top = new QSplitter(Qt::Horizontal, this);
  top->addWidget(curves_);
  top->addWidget(clip_);
  top->setStretchFactor(0, 3);
  top->setStretchFactor(1, 2);
  // The curves are the main chart: at least kLeastCurvesHeight (half the window on a
  // 1024 × 700 screen) and three quarters of the rest; the best-of-k chart below gets a readable
  // plot or, on a short window, a tab of its own (it was 36 px of plot at 1024 × 700).
  auto* split = new SplitOrTabs(Qt::Vertical, this);
  split->addPanel(top, tr("Curves over iterations"), kLeastCurvesHeight, 3);
  split->addPanel(protocol_, tr("Best of k (section 5.2)"), kLeastChartHeight, 1);
  layout->addWidget(split, 1);
  for (ChartView* c : charts()) connect(c, &ChartView::message, this, &AccuracyTab::message);
  connect(show_candidates_, &QCheckBox::toggled, this, [this] { refresh(true); });
  connect(x_unit_, &QComboBox::currentIndexChanged, this, [this] { refresh(true); });
  // Redraws only while shown; a hidden tab catches up when shown (issue #25 item 13).
  new ShownRefresh(this, data_, [this](bool structural) { refresh(structural); });
  refresh(true);
}

QList<ChartView*> AccuracyTab::charts() const {
  return {curves_, protocol_, clip_};
}

void AccuracyTab::refresh(bool structural) {
  if (structural) protocol_finished_ = -1;
  structural_ = structural;
  drawCurves();
  drawProtocol();
  const bool was_hidden = clip_->isHidden();
  clip_->setVisible(data_->hasRun() && hasAdaptiveClipping(data_->results()));
  if (!clip_->isHidden()) drawClipCurves(clip_, data_->results(), structural_ || was_hidden);
  structural_ = false;
}

void AccuracyTab::drawCurves() {
  ChartView* chart = curves_;
  QCustomPlot* plot = chart->plot();
  plot->clearGraphs();
  const tuning::SearchResults& r = data_->results();
  const bool regression = r.is_regression;
  const bool in_updates = x_unit_->currentIndex() == 1;
  plot->xAxis->setLabel(in_updates ? tr("optimizer steps (updates; ADADP: 1 per 2 queries)")
                                   : tr("iteration (noisy-gradient queries)"));
  // x of a curve point: its query count, or the updates its optimizer made by then.
  auto x_of = [&](int optimizer_index, std::int64_t queries) {
    if (!in_updates) return static_cast<double>(queries);
    const auto kind = r.config.optimizers.at(static_cast<std::size_t>(optimizer_index)).kind;
    return static_cast<double>(optim::updates_for_queries(kind, queries));
  };
  plot->yAxis->setLabel(regression ? tr("validation MSE (lower is better)")
                                   : tr("validation accuracy"));
  curves_->setTitle(
      regression ? tr("Validation MSE over candidates: min (solid) and median (dashed)")
                 : tr("Validation accuracy over candidates: max (solid) and median (dashed)"));
  if (structural_) curves_->setLogY(regression);  // losses span orders of magnitude
  if (!data_->hasRun()) {
    plot->xAxis->setRange(0, 1000);
    plot->yAxis->setRange(0, 1);
    plot->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  double lo = 1e300, hi = -1e300, xmax = 1;
  auto track = [&](double v) {
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  };
  if (show_candidates_->isChecked()) {
    for (const auto& job : r.jobs) {
      if (job.curve.empty()) continue;
      const auto& cand = r.candidates.at(static_cast<std::size_t>(job.candidate));
      QColor c = optimizerColor(optimizerName(r, cand.optimizer_index));
      c.setAlpha(50);
      QCPGraph* g = plot->addGraph();
      g->removeFromLegend();
      g->setName(QString::fromStdString(cand.label()) + QStringLiteral(" r%1").arg(job.repeat));
      g->setPen(QPen(c, 1));
      for (const auto& p : job.curve) {
        g->addData(x_of(cand.optimizer_index, p.iteration),
                   regression ? p.val_mse : p.val_accuracy);
      }
    }
  }
  bool any_provisional = false;
  for (const auto& agg : data_->aggregates()) {
    const QString name = optimizerName(r, agg.optimizer_index);
    const QColor color = optimizerColor(name);
    const QString best_name = name + (regression ? tr(" min") : tr(" max"));
    QCPGraph* best = plot->addGraph();
    best->setName(best_name);
    best->setPen(QPen(color, 2.4));
    QCPGraph* median = plot->addGraph();
    median->setName(name + tr(" median"));
    median->setPen(QPen(color, 1.6, Qt::DashLine));
    // While the run goes on, beyond the iteration every candidate has reached the max and median
    // are over the candidates that got there first: drawn dotted and pale, named provisional.
    const std::int64_t settled = data_->settledIteration(agg.optimizer_index);
    QCPGraph* best_provisional = nullptr;
    QCPGraph* median_provisional = nullptr;
    const auto& c = agg.curves;
    for (std::size_t i = 0; i < c.iterations.size(); ++i) {
      const double x = x_of(agg.optimizer_index, c.iterations[i]);
      if (c.iterations[i] <= settled) {
        best->addData(x, c.best[i]);
        median->addData(x, c.median[i]);
      }
      if (c.iterations[i] > settled) {
        if (!best_provisional) {
          QColor pale = color;
          pale.setAlpha(120);
          best_provisional = plot->addGraph();
          best_provisional->setName(best_name + tr(" (provisional)"));
          best_provisional->setPen(QPen(pale, 2.0, Qt::DotLine));
          median_provisional = plot->addGraph();
          median_provisional->setName(name + tr(" median (provisional)"));
          // In the legend as the max's is: the hover names it (issue #44).
          median_provisional->setPen(QPen(pale, 1.2, Qt::DotLine));
          if (i > 0) {  // joined to the last settled point
            const double x0 = x_of(agg.optimizer_index, c.iterations[i - 1]);
            best_provisional->addData(x0, c.best[i - 1]);
            median_provisional->addData(x0, c.median[i - 1]);
          }
        }
        best_provisional->addData(x, c.best[i]);
        median_provisional->addData(x, c.median[i]);
      }
      xmax = std::max(xmax, x);
      track(c.best[i]);
      track(c.median[i]);
    }
    any_provisional = any_provisional || best_provisional;
    addWinnerCurve(plot, agg, name, color, data_->live());
  }
  if (!data_->live() && data_->hasPartialCurves()) {
    curves_->setTitle(curves_->title() +
                      tr(" · run cancelled: jobs cut short drawn as far as they got (dotted "
                         "where not every candidate got)"));
  } else if (any_provisional) {
    curves_->setTitle(curves_->title() +
                      tr(" · dotted: provisional, not every candidate has reached it yet"));
  }
  plot->xAxis->setRange(0,
                        std::max<double>(xmax, static_cast<double>(r.config.privacy.steps)) * 1.02);
  // Every point drawn (faint curves and the first point too) is inside the frame.
  if (hi >= lo) {
    curves_->fitValueRange();
  } else {
    plot->yAxis->setRange(0, 1);
  }
  plot->legend->setVisible(plot->graphCount() > 0);
  chart->layoutLegend(chart->width());  // entries changed: re-flow the columns
  plot->replot(QCustomPlot::rpQueuedReplot);
}

void AccuracyTab::drawProtocol() {
  const tuning::SearchResults& r = data_->results();
  int finished = 0;
  for (const auto& job : r.jobs) finished += job.status == tuning::JobStatus::kFinished ? 1 : 0;
  if (finished == protocol_finished_) return;  // nothing new: keep the chart as is
  protocol_finished_ = finished;
  ChartView* chart = protocol_;
  QCustomPlot* plot = chart->plot();
  plot->clearGraphs();
  plot->xAxis->setLabel(tr("k, candidates drawn at random (best one kept)"));
  plot->yAxis->setLabel(r.is_regression ? tr("final validation MSE (chosen)")
                                        : tr("final val. accuracy (chosen)"));
  double lo = 1e300, hi = -1e300;
  int kmax = 1;
  protocol_->setTitle(
      r.is_regression
          ? tr("Best of k random candidates (section 5.2): final validation MSE, mean and 95% CI")
          : tr("Best of k random candidates (section 5.2): mean and 95% CI"));
  if (structural_) protocol_->setLogY(r.is_regression);
  std::vector<tuning::SelectionReport> reports;
  if (data_->hasRun() && finished > 0) {
    try {
      // The engine's selection report: the same protocol, seed and numbers as `dplab-cli tune`.
      reports = tuning::honest_selection_per_optimizer(r);
    } catch (const std::exception& e) {
      emit message(tr("best-of-k protocol: %1").arg(QString::fromStdString(e.what())), true);
    }
  }
  for (const auto& report : reports) {
    {
      const int o = static_cast<int>(&report - reports.data());
      const std::vector<tuning::ProtocolRow>& rows = report.protocol;
      if (rows.empty()) continue;
      const QString name = optimizerName(r, o);
      const QColor color = optimizerColor(name);
      QCPGraph* upper = plot->addGraph();
      QCPGraph* lower = plot->addGraph();
      QCPGraph* mean = plot->addGraph();
      upper->setName(name + tr(" CI high"));
      lower->setName(name + tr(" CI low"));
      mean->setName(name + tr(" mean of best of k"));
      QColor band = color;
      band.setAlpha(45);
      upper->setPen(Qt::NoPen);
      lower->setPen(Qt::NoPen);
      upper->setBrush(band);
      upper->setChannelFillGraph(lower);
      upper->removeFromLegend();
      lower->removeFromLegend();
      mean->setPen(QPen(color, 2));
      mean->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
      for (const auto& row : rows) {
        upper->addData(row.k, row.ci_high);
        // A normal-approximation CI of a loss can reach below 0, which a log axis cannot draw:
        // that edge is left open (NaN) rather than moved.
        lower->addData(row.k, protocol_->logY() && !(row.ci_low > 0) ? std::nan("") : row.ci_low);
        mean->addData(row.k, row.mean);
        lo = std::min(lo, row.ci_low);
        hi = std::max(hi, row.ci_high);
        kmax = std::max(kmax, row.k);
      }
    }
  }
  plot->xAxis->setRange(0.5, kmax + 0.5);
  if (hi >= lo) {
    protocol_->fitValueRange();
  } else {
    plot->yAxis->setRange(0, 1);
  }
  plot->legend->setVisible(plot->graphCount() > 0);
  chart->layoutLegend(chart->width());  // entries changed: re-flow the columns
  plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace dplab::ui
