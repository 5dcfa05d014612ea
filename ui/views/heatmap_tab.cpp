#include "views/heatmap_tab.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

#include "charts/chart_export.h"
#include "charts/chart_view.h"
#include "form/optimizer_editor.h"
#include "run/run_data.h"

namespace dplab::ui {

namespace {
enum Metric { kLogLoss = 0, kAccuracy = 1, kTimesBest = 2 };

// Fractional index of log10(v) along ascending grid values (piecewise linear in log space).
double fractionalIndex(const std::vector<double>& grid, double v) {
  if (grid.size() < 2) return 0;
  const double lv = std::log10(v);
  for (std::size_t i = 0; i + 1 < grid.size(); ++i) {
    const double a = std::log10(grid[i]), b = std::log10(grid[i + 1]);
    if (lv <= b || i + 2 == grid.size()) return static_cast<double>(i) + (lv - a) / (b - a);
  }
  return 0;
}

QSharedPointer<QCPAxisTickerText> valueTicker(const std::vector<double>& values) {
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  for (std::size_t i = 0; i < values.size(); ++i) {
    ticker->addTick(static_cast<double>(i), QString::number(values[i], 'g', 3));
  }
  return ticker;
}
}  // namespace

HeatmapTab::HeatmapTab(RunData* data, QWidget* parent) : QWidget(parent), data_(data) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* bar = new QHBoxLayout;
  optimizer_ = new QComboBox(this);
  optimizer_->setToolTip(tr("Which optimizer's α–C grid to show."));
  metric_ = new QComboBox(this);
  metric_->addItems({tr("log10 final training loss (Figure 2)"), tr("final validation accuracy"),
                     tr("times best (Figure 7)")});
  metric_->setToolTip(tr("Colour of each (α, C) cell: the final training loss (log10, lower is "
                         "better), the final validation accuracy, or how many evaluation points "
                         "it was the best candidate at."));
  overlay_ = new QCheckBox(tr("overlay α ∝ 1/C (Theorem 2)"), this);
  overlay_->setChecked(true);
  overlay_->setToolTip(tr("The line α·C = constant through the best cell: Theorem 2 predicts good "
                          "(α, C) pairs lie along it."));
  bar->addWidget(new QLabel(tr("Optimizer"), this));
  bar->addWidget(optimizer_);
  bar->addWidget(new QLabel(tr("Colour"), this));
  bar->addWidget(metric_);
  bar->addWidget(overlay_);
  bar->addStretch(1);
  layout->addLayout(bar);
  chart_ = new ChartView(tr("α–C grid"), QStringLiteral("alpha_clip_heatmap"), this);
  layout->addWidget(chart_, 1);
  QCustomPlot* plot = chart_->plot();
  map_ = new QCPColorMap(plot->xAxis, plot->yAxis);
  map_->setName(tr("α–C grid"));
  map_->setInterpolate(false);
  map_->removeFromLegend();
  scale_ = new QCPColorScale(plot);
  plot->plotLayout()->addElement(1, 1, scale_);
  scale_->setType(QCPAxis::atRight);
  map_->setColorScale(scale_);
  auto* group = new QCPMarginGroup(plot);
  plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
  scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
  connect(chart_, &ChartView::message, this, &HeatmapTab::message);
  connect(data_, &RunData::changed, this, &HeatmapTab::refresh);
  connect(optimizer_, &QComboBox::currentIndexChanged, this, &HeatmapTab::draw);
  connect(metric_, &QComboBox::currentIndexChanged, this, &HeatmapTab::draw);
  connect(overlay_, &QCheckBox::toggled, this, &HeatmapTab::draw);
  refresh(true);
}

void HeatmapTab::refresh(bool structural) {
  if (structural) {
    QSignalBlocker block(optimizer_);
    const QString previous = optimizer_->currentText();
    optimizer_->clear();
    if (data_->hasRun()) {
      const auto& opts = data_->results().config.optimizers;
      for (std::size_t i = 0; i < opts.size(); ++i) {
        optimizer_->addItem(OptimizerEditor::displayName(opts[i].kind), static_cast<int>(i));
      }
      // Default: the first optimizer with a real α grid (DPSGD in the paper's figures).
      int pick = std::max(0, optimizer_->findText(previous));
      if (previous.isEmpty()) {
        for (int i = 0; i < optimizer_->count(); ++i) {
          const auto& spec = opts[static_cast<std::size_t>(i)].grid[0];
          if (spec && (spec->kind != experiment::ParamSpec::Kind::kValues || spec->values.size() > 1)) {
            pick = i;
            break;
          }
        }
      }
      optimizer_->setCurrentIndex(pick);
    }
  }
  draw();
}

void HeatmapTab::draw() {
  QCustomPlot* plot = chart_->plot();
  plot->clearItems();
  for (int i = plot->graphCount() - 1; i >= 0; --i) plot->removeGraph(i);
  const int o = optimizer_->currentData().toInt();
  const tuning::OptimizerAggregates* agg = nullptr;
  for (const auto& a : data_->aggregates()) {
    if (a.optimizer_index == o) agg = &a;
  }
  const Metric metric = static_cast<Metric>(metric_->currentIndex());
  const QString label = metric == kLogLoss ? tr("log10 final training loss")
                        : metric == kAccuracy ? tr("final validation accuracy")
                                              : tr("times best (evaluation points)");
  scale_->axis()->setLabel(label);
  chart_->setTitle(tr("α–C grid of %1: %2").arg(optimizer_->currentText(), label));
  plot->xAxis->setLabel(tr("clipping norm C"));
  plot->yAxis->setLabel(tr("learning rate α"));
  if (!agg || agg->grid.learning_rates.empty() || agg->grid.clips.empty()) {
    map_->data()->clear();
    plot->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  const auto& g = agg->grid;
  const int nc = static_cast<int>(g.clips.size()), nl = static_cast<int>(g.learning_rates.size());
  map_->data()->setSize(nc, nl);
  map_->data()->setRange(QCPRange(0, std::max(1, nc - 1)), QCPRange(0, std::max(1, nl - 1)));
  if (nc == 1) map_->data()->setKeyRange(QCPRange(-0.5, 0.5));
  if (nl == 1) map_->data()->setValueRange(QCPRange(-0.5, 0.5));
  double best = std::nan(""), lo = 1e300, hi = -1e300;
  int best_c = -1, best_l = -1;
  const bool lower_better = metric == kLogLoss;
  for (int l = 0; l < nl; ++l) {
    for (int c = 0; c < nc; ++c) {
      const std::size_t cell = g.cell(static_cast<std::size_t>(l), static_cast<std::size_t>(c));
      double v = metric == kLogLoss   ? std::log10(g.final_train_loss[cell])
                 : metric == kAccuracy ? g.final_accuracy[cell]
                                       : static_cast<double>(g.times_best[cell]);
      if (!std::isfinite(v)) v = std::nan("");
      map_->data()->setCell(c, l, v);
      if (g.diverged[cell] > 0 && std::isnan(v)) {  // a cell whose runs diverged says so
        auto* label = new QCPItemText(plot);
        label->position->setCoords(c, l);
        label->setText(tr("diverged"));
        label->setColor(QColor(200, 0, 0));
      }
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        if (std::isnan(best) || (lower_better ? v < best : v > best)) {
          best = v;
          best_c = c;
          best_l = l;
        }
      }
    }
  }
  // Paper Figure 2: dark = best. Loss: low = dark; accuracy / times best: high = dark.
  QCPColorGradient gradient(QCPColorGradient::gpThermal);
  if (!lower_better) gradient = gradient.inverted();
  gradient.setNanHandling(QCPColorGradient::nhTransparent);
  map_->setGradient(gradient);
  map_->setDataRange(hi > lo ? QCPRange(lo, hi) : QCPRange(lo - 0.5, lo + 0.5));
  plot->xAxis->setTicker(valueTicker(g.clips));
  plot->yAxis->setTicker(valueTicker(g.learning_rates));
  plot->xAxis->setRange(-0.5, nc - 0.5);
  plot->yAxis->setRange(-0.5, nl - 0.5);
  if (best_c >= 0) {
    auto* rect = new QCPItemRect(plot);
    rect->topLeft->setCoords(best_c - 0.5, best_l + 0.5);
    rect->bottomRight->setCoords(best_c + 0.5, best_l - 0.5);
    rect->setPen(QPen(QColor(0, 200, 255), 3));
    auto* text = new QCPItemText(plot);
    text->position->setCoords(best_c, best_l);
    text->setText(tr("best\n%1").arg(QString::number(best, 'g', 3)));
    text->setColor(QColor(0, 200, 255));
    QFont f = plot->font();
    f.setBold(true);
    text->setFont(f);
    if (overlay_->isChecked() && nc > 1 && nl > 1) {
      const double product = g.learning_rates[static_cast<std::size_t>(best_l)] * g.clips[static_cast<std::size_t>(best_c)];
      QCPGraph* line = plot->addGraph();
      line->setName(tr("α = %1 / C").arg(product, 0, 'g', 3));
      line->setPen(QPen(QColor(0, 200, 255), 2, Qt::DashLine));
      const double cmin = std::log10(g.clips.front()), cmax = std::log10(g.clips.back());
      for (int i = 0; i <= 40; ++i) {
        const double c = std::pow(10.0, cmin + (cmax - cmin) * i / 40.0);
        const double a = product / c;
        if (a < g.learning_rates.front() || a > g.learning_rates.back()) continue;
        line->addData(fractionalIndex(g.clips, c), fractionalIndex(g.learning_rates, a));
      }
      plot->legend->setVisible(true);
      plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignLeft | Qt::AlignBottom);
    }
  }
  plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace dplab::ui
