#include "views/accuracy_tab.h"

#include <QCheckBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

#include "charts/chart_view.h"
#include "form/optimizer_editor.h"
#include "run/run_data.h"
#include "tuning/honest_selection.h"

namespace dplab::ui {

namespace {
constexpr int kProtocolTrials = 100;  // paper section 5.2: 100 repetitions
constexpr std::uint64_t kProtocolSeed = 52;

QString optimizerName(const tuning::SearchResults& r, int index) {
  return OptimizerEditor::displayName(r.config.optimizers.at(static_cast<std::size_t>(index)).kind);
}
}  // namespace

AccuracyTab::AccuracyTab(RunData* data, QWidget* parent) : QWidget(parent), data_(data) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  show_candidates_ = new QCheckBox(tr("show every candidate's curve (faint)"), this);
  show_candidates_->setToolTip(tr("Draw each job's validation-accuracy curve behind the max/median "
                                  "lines."));
  layout->addWidget(show_candidates_);
  auto* split = new QSplitter(Qt::Vertical, this);
  curves_ = new ChartView(tr("Validation accuracy over candidates: max (solid) and median (dashed)"),
                          QStringLiteral("accuracy_curves"), split);
  protocol_ = new ChartView(tr("Best of k random candidates (section 5.2): mean and 95% CI"),
                            QStringLiteral("accuracy_best_of_k"), split);
  split->addWidget(curves_);
  split->addWidget(protocol_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addWidget(split, 1);
  for (ChartView* c : charts()) connect(c, &ChartView::message, this, &AccuracyTab::message);
  connect(show_candidates_, &QCheckBox::toggled, this, [this] { refresh(true); });
  connect(data_, &RunData::changed, this, &AccuracyTab::refresh);
  refresh(true);
}

QList<ChartView*> AccuracyTab::charts() const { return {curves_, protocol_}; }

void AccuracyTab::refresh(bool structural) {
  if (structural) protocol_finished_ = -1;
  drawCurves();
  drawProtocol();
}

void AccuracyTab::drawCurves() {
  QCustomPlot* plot = curves_->plot();
  plot->clearGraphs();
  const tuning::SearchResults& r = data_->results();
  const bool regression = r.is_regression;
  plot->xAxis->setLabel(tr("iteration (noisy-gradient queries)"));
  plot->yAxis->setLabel(regression ? tr("training loss") : tr("validation accuracy"));
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
        g->addData(static_cast<double>(p.iteration), regression ? p.train_loss : p.val_accuracy);
      }
    }
  }
  for (const auto& agg : data_->aggregates()) {
    const QString name = optimizerName(r, agg.optimizer_index);
    const QColor color = optimizerColor(name);
    QCPGraph* best = plot->addGraph();
    best->setName(name + (regression ? tr(" min") : tr(" max")));
    best->setPen(QPen(color, 2.4));
    QCPGraph* median = plot->addGraph();
    median->setName(name + tr(" median"));
    median->setPen(QPen(color, 1.6, Qt::DashLine));
    const auto& c = agg.curves;
    for (std::size_t i = 0; i < c.iterations.size(); ++i) {
      const double x = static_cast<double>(c.iterations[i]);
      best->addData(x, c.best[i]);
      median->addData(x, c.median[i]);
      xmax = std::max(xmax, x);
      if (i > 0 || c.iterations.size() == 1) {  // the first point (near chance) would squash the view
        track(c.best[i]);
        track(c.median[i]);
      }
    }
  }
  plot->xAxis->setRange(0, std::max<double>(xmax, static_cast<double>(r.config.privacy.steps)) * 1.02);
  if (hi >= lo) {
    const double pad = std::max(0.01, 0.08 * (hi - lo));
    double y0 = lo - pad, y1 = hi + pad;
    if (!regression) {
      y0 = std::max(0.0, y0);
      y1 = std::min(1.0, y1);
    }
    plot->yAxis->setRange(y0, y1);
  } else {
    plot->yAxis->setRange(0, 1);
  }
  plot->legend->setVisible(plot->graphCount() > 0);
  plot->axisRect()->insetLayout()->setInsetAlignment(
      0, regression ? (Qt::AlignRight | Qt::AlignTop) : (Qt::AlignRight | Qt::AlignBottom));
  plot->replot(QCustomPlot::rpQueuedReplot);
}

void AccuracyTab::drawProtocol() {
  const tuning::SearchResults& r = data_->results();
  int finished = 0;
  for (const auto& job : r.jobs) finished += job.status == tuning::JobStatus::kFinished ? 1 : 0;
  if (finished == protocol_finished_) return;  // nothing new: keep the chart as is
  protocol_finished_ = finished;
  QCustomPlot* plot = protocol_->plot();
  plot->clearGraphs();
  plot->xAxis->setLabel(tr("k, candidates drawn at random (best one kept)"));
  plot->yAxis->setLabel(r.is_regression ? tr("final train loss (chosen)")
                                        : tr("final val. accuracy (chosen)"));
  double lo = 1e300, hi = -1e300;
  int kmax = 1;
  if (data_->hasRun() && finished > 0) {
    for (int o = 0; o < static_cast<int>(r.config.optimizers.size()); ++o) {
      const std::vector<int> pool = experiment::candidates_of(r.candidates, o);
      std::vector<tuning::ProtocolRow> rows;
      try {
        rows = tuning::random_subset_protocol(r, pool, kProtocolTrials, kProtocolSeed);
      } catch (const std::exception& e) {
        emit message(tr("best-of-k protocol: %1").arg(QString::fromStdString(e.what())), true);
        continue;
      }
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
        lower->addData(row.k, row.ci_low);
        mean->addData(row.k, row.mean);
        lo = std::min(lo, row.ci_low);
        hi = std::max(hi, row.ci_high);
        kmax = std::max(kmax, row.k);
      }
    }
  }
  plot->xAxis->setRange(0.5, kmax + 0.5);
  if (hi >= lo) {
    const double pad = std::max(0.005, 0.1 * (hi - lo));
    plot->yAxis->setRange(lo - pad, hi + pad);
  } else {
    plot->yAxis->setRange(0, 1);
  }
  plot->legend->setVisible(plot->graphCount() > 0);
  plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignRight | Qt::AlignBottom);
  plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace dplab::ui
