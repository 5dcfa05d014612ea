#include "views/heatmap_tab.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>
#include <sstream>

#include "charts/chart_export.h"
#include "charts/chart_view.h"
#include "form/optimizer_editor.h"
#include "release/search_tables.h"
#include "run/run_data.h"
#include "tuning/alpha_clip_fit.h"
#include "views/shown_refresh.h"

namespace dplab::ui {

namespace {
constexpr double kWinnerFramePen = 2.5;

tuning::GridMetric metricAt(int index) {
  return index == 0   ? tuning::GridMetric::kFinalTrainLoss
         : index == 1 ? tuning::GridMetric::kFinalAccuracy
                      : tuning::GridMetric::kTimesBest;
}

// Cell edges around ascending grid values: geometric midpoints; the outer edges mirror them.
std::vector<double> cellEdges(const std::vector<double>& values) {
  std::vector<double> edges(values.size() + 1);
  if (values.size() == 1) {
    edges = {values[0] / 2, values[0] * 2};
    return edges;
  }
  for (std::size_t i = 1; i < values.size(); ++i) edges[i] = std::sqrt(values[i - 1] * values[i]);
  edges.front() = values.front() * values.front() / edges[1];
  edges.back() = values.back() * values.back() / edges[values.size() - 1];
  return edges;
}

QCPColorGradient viridis() {
  return viridisGradient();
}

}  // namespace

HeatmapTab::HeatmapTab(RunData* data, QWidget* parent) : QWidget(parent), data_(data) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* bar = new QHBoxLayout;
  optimizer_ = new QComboBox(this);
  optimizer_->setToolTip(tr("Which optimizer's α–C grid to show."));
  metric_ = new QComboBox(this);
  metric_->addItems({tr("final training loss (Figure 2)"), tr("final validation accuracy"),
                     tr("times best (Figure 7)")});
  metric_->setToolTip(
      tr("Colour of each (α, C) cell: the final training loss (log colour scale, "
         "lower is better; un-noised on the private training set: not covered by ε), the "
         "final validation accuracy, or how many evaluation points it was the best candidate "
         "at. Dark = best."));
  overlay_ = new QCheckBox(tr("overlay α ∝ 1/C (Theorem 2)"), this);
  overlay_->setChecked(true);
  overlay_->setToolTip(
      tr("The line α·C = k, k fitted to the best 10% of the cells: Theorem 2 "
         "predicts good (α, C) pairs lie along it while clipping is active."));
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
  setLogAxis(plot->xAxis);
  setLogAxis(plot->yAxis);
  scale_ = new QCPColorScale(plot);
  // The axes and their colour scale share one cell of the chart's layout, so the title above and
  // the legend below span the whole width (beside the scale they had three quarters of it: a
  // 3.5 in figure's title took five lines and its legend entry was cut).
  auto* axes_and_scale = new QCPLayoutGrid;
  QCPAxisRect* axes = plot->axisRect();
  plot->plotLayout()->take(axes);
  plot->plotLayout()->addElement(1, 0, axes_and_scale);
  axes_and_scale->addElement(0, 0, axes);
  axes_and_scale->addElement(0, 1, scale_);
  scale_->setType(QCPAxis::atRight);
  scale_->setGradient(viridis());
  auto* group = new QCPMarginGroup(plot);
  plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
  scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
  plot->setMouseTracking(true);
  chart_->setCsvProvider([this] {
    const tuning::OptimizerAggregates* agg = shownAggregates();
    if (!agg) return CsvTable{};
    CsvTable table = fromEngineTable(release::alpha_clip_grid_table({*agg}));
    table.constantColumns.push_back(
        {QStringLiteral("times_best_note"),
         QStringLiteral("times_best: at how many evaluation points this cell's candidate had the "
                        "best validation accuracy (regression: lowest validation MSE) of its "
                        "optimizer; the column sums to the evaluation points (paper appendix G, "
                        "Figure 7)")});
    return table;
  });
  connect(plot, &QCustomPlot::mouseMove, this, &HeatmapTab::onMouseMove);
  connect(chart_, &ChartView::message, this, &HeatmapTab::message);
  // Redraws only while shown; a hidden tab catches up when shown (issue #25 item 13).
  new ShownRefresh(this, data_, [this](bool structural) { refresh(structural); });
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
        optimizer_->addItem(OptimizerEditor::displayName(opts[i]), static_cast<int>(i));
      }
      // Default: the first optimizer with a real α grid (DPSGD in the paper's figures).
      int pick = std::max(0, optimizer_->findText(previous));
      if (previous.isEmpty()) {
        for (int i = 0; i < optimizer_->count(); ++i) {
          const auto& spec = opts[static_cast<std::size_t>(i)].grid[0];
          if (spec &&
              (spec->kind != experiment::ParamSpec::Kind::kValues || spec->values.size() > 1)) {
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

const tuning::OptimizerAggregates* HeatmapTab::shownAggregates() const {
  const int o = optimizer_->currentData().toInt();
  for (const auto& a : data_->aggregates()) {
    if (a.optimizer_index == o && !a.grid.learning_rates.empty() && !a.grid.clips.empty())
      return &a;
  }
  return nullptr;
}

void HeatmapTab::draw() {
  QCustomPlot* plot = chart_->plot();
  plot->clearItems();
  plot->clearGraphs();
  cells_ = 0;
  winner_frame_ = nullptr;
  winner_text_.clear();
  overlay_product_ = 0;
  const tuning::GridMetric metric = metricAt(metric_->currentIndex());
  const QString label =
      metric == tuning::GridMetric::kFinalTrainLoss  ? tr("final training loss (not covered by ε)")
      : metric == tuning::GridMetric::kFinalAccuracy ? tr("final validation accuracy")
                                                     : tr("times best (evaluation points)");
  scale_->axis()->setLabel(label);
  chart_->setTitle(tr("α–C grid of %1: %2").arg(optimizer_->currentText(), label));
  plot->xAxis->setLabel(tr("clipping norm C"));
  plot->yAxis->setLabel(tr("learning rate α"));
  plot->legend->setVisible(false);
  const tuning::OptimizerAggregates* agg = shownAggregates();
  if (!agg) {
    plot->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  const auto& g = agg->grid;
  const bool lower_better = tuning::lower_is_better(metric);
  const bool log_colour = metric == tuning::GridMetric::kFinalTrainLoss;
  double lo = 1e300, hi = -1e300;
  for (std::size_t l = 0; l < g.learning_rates.size(); ++l) {
    for (std::size_t c = 0; c < g.clips.size(); ++c) {
      const double v = tuning::grid_value(g, g.cell(l, c), metric);
      if (!std::isfinite(v) || (log_colour && !(v > 0))) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  // Dark = best (paper Figure 2): viridis runs dark -> yellow, so flip it when higher is better.
  QCPColorGradient gradient = viridis();
  if (!lower_better) gradient = gradient.inverted();
  scale_->setGradient(gradient);
  scale_->setDataScaleType(log_colour ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (log_colour) {
    setLogAxis(scale_->axis());
  } else {
    setLinearAxis(scale_->axis());
  }
  const QCPRange range = hi > lo ? QCPRange(lo, hi) : QCPRange(lo - 0.5, lo + 0.5);
  scale_->setDataRange(range);
  const std::vector<double> c_edges = cellEdges(g.clips), a_edges = cellEdges(g.learning_rates);
  for (std::size_t l = 0; l < g.learning_rates.size(); ++l) {
    for (std::size_t c = 0; c < g.clips.size(); ++c) {
      const double v = tuning::grid_value(g, g.cell(l, c), metric);
      auto* rect = new QCPItemRect(plot);
      rect->topLeft->setCoords(c_edges[c], a_edges[l + 1]);
      rect->bottomRight->setCoords(c_edges[c + 1], a_edges[l]);
      rect->setSelectable(false);
      if (std::isfinite(v) && (!log_colour || v > 0)) {
        const QColor colour = QColor::fromRgb(gradient.color(v, range, log_colour));
        rect->setPen(QPen(colour, 0));
        rect->setBrush(colour);
      } else {  // no finished candidate here
        rect->setPen(QPen(QColor(200, 200, 200), 0));
        rect->setBrush(QBrush(QColor(170, 170, 170), Qt::BDiagPattern));
        if (g.diverged[g.cell(l, c)] > 0) {  // a cell whose runs diverged says so
          auto* label = new QCPItemText(plot);
          label->position->setCoords(std::sqrt(c_edges[c] * c_edges[c + 1]),
                                     std::sqrt(a_edges[l] * a_edges[l + 1]));
          label->setText(tr("diverged"));
          label->setColor(QColor(200, 0, 0));
        }
      }
      ++cells_;
    }
  }
  plot->xAxis->setRange(c_edges.front(), c_edges.back());
  plot->yAxis->setRange(a_edges.front(), a_edges.back());
  // A tick at every grid value, in plain numbers ("0.1", "2", "0.25"), so that every cell is
  // named on its axis (a log ticker left C = 0.1 and α = 2 without one).
  auto grid_ticks = [](QCPAxis* axis, const std::vector<double>& values) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (double v : values) ticker->addTick(v, formatTick(v));
    ticker->setSubTickCount(0);
    axis->setTicker(ticker);
  };
  grid_ticks(plot->xAxis, g.clips);
  grid_ticks(plot->yAxis, g.learning_rates);
  // The framed cell is the Results tab's winner (the engine's tuning/winners.h rule, one
  // implementation for every view): best mean final validation accuracy (regression: lowest
  // final training loss), not the best colour of the metric shown.
  const int winner = agg->winner;
  const auto& candidates = data_->results().candidates;
  if (winner >= 0 && static_cast<std::size_t>(winner) < candidates.size()) {
    const experiment::Candidate& w = candidates[static_cast<std::size_t>(winner)];
    auto index_of = [](const std::vector<double>& values, double v) {
      std::size_t best_i = 0;
      for (std::size_t i = 1; i < values.size(); ++i)
        if (std::abs(values[i] - v) < std::abs(values[best_i] - v)) best_i = i;
      return best_i;
    };
    const std::size_t wl = index_of(g.learning_rates, w.optimizer.learning_rate);
    const std::size_t wc = index_of(g.clips, w.clip);
    // An invisible rectangle on the cell; the frame is inset from it by half its pen, so that a
    // cell at the edge of the grid is framed whole inside the plot (it was cut by the axes).
    auto* cell = new QCPItemRect(plot);
    cell->topLeft->setCoords(c_edges[wc], a_edges[wl + 1]);
    cell->bottomRight->setCoords(c_edges[wc + 1], a_edges[wl]);
    cell->setPen(Qt::NoPen);
    cell->setSelectable(false);
    // (+1 px: QCustomPlot maps a vertical axis's upper end one pixel above the axis rect.)
    const double inset = kWinnerFramePen / 2 + 1;
    winner_frame_ = new QCPItemRect(plot);
    winner_frame_->topLeft->setType(QCPItemPosition::ptAbsolute);
    winner_frame_->topLeft->setParentAnchor(cell->topLeft);
    winner_frame_->topLeft->setCoords(inset, inset);
    winner_frame_->bottomRight->setType(QCPItemPosition::ptAbsolute);
    winner_frame_->bottomRight->setParentAnchor(cell->bottomRight);
    winner_frame_->bottomRight->setCoords(-inset, -inset);
    winner_frame_->setPen(QPen(QColor(0xe4, 0x1a, 0x1c), kWinnerFramePen));
    winner_frame_->setSelectable(false);
    // Said in the title (whole, wrapped to the chart's width), not over the cells.
    winner_text_ = data_->results().is_regression
                       ? tr("red frame: Results winner #%1 (lowest final validation MSE), α = %2, "
                            "C = %3")
                       : tr("red frame: Results winner #%1 (best mean final validation "
                            "accuracy), α = %2, C = %3");
    winner_text_ = winner_text_.arg(winner).arg(formatReadable(g.learning_rates[wl]),
                                                formatReadable(g.clips[wc]));
    if (data_->live()) winner_text_ += tr(" (provisional)");
    chart_->setTitle(
        tr("α–C grid of %1: %2; %3").arg(optimizer_->currentText(), label, winner_text_));
  }
  if (overlay_->isChecked()) {
    const tuning::InverseClipFit fit = tuning::fit_inverse_clip_line(g, metric);
    if (fit.product > 0) {
      overlay_product_ = fit.product;
      QCPGraph* line = plot->addGraph();
      line->setName(tr("α = %1 / C (fitted to the best %2 cells)")
                        .arg(formatReadable(fit.product))
                        .arg(fit.cells_used));
      line->setPen(QPen(Qt::white, 2.2, Qt::DashLine));
      const double cmin = std::log10(c_edges.front()), cmax = std::log10(c_edges.back());
      for (int i = 0; i <= 60; ++i) {
        const double c = std::pow(10.0, cmin + (cmax - cmin) * i / 60.0);
        const double a = fit.product / c;
        if (a < a_edges.front() || a > a_edges.back()) continue;
        line->addData(c, a);
      }
      plot->legend->setVisible(line->dataCount() > 0);
    }
  }
  plot->replot(QCustomPlot::rpQueuedReplot);
}

QString HeatmapTab::hoverText(double clip, double learning_rate) const {
  const tuning::OptimizerAggregates* agg = shownAggregates();
  if (!agg || !(clip > 0) || !(learning_rate > 0)) return QString();
  const auto& g = agg->grid;
  const std::vector<double> c_edges = cellEdges(g.clips), a_edges = cellEdges(g.learning_rates);
  auto find = [](const std::vector<double>& edges, double v) -> int {
    for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
      if (v >= edges[i] && v < edges[i + 1]) return static_cast<int>(i);
    }
    return -1;
  };
  const int c = find(c_edges, clip), l = find(a_edges, learning_rate);
  if (c < 0 || l < 0) return QString();
  const std::size_t cell = g.cell(static_cast<std::size_t>(l), static_cast<std::size_t>(c));
  auto value = [](double v) {
    return std::isfinite(v) ? formatReadable(v, 4) : QStringLiteral("–");
  };
  return tr("α = %1, C = %2\nfinal training loss %3\nfinal validation accuracy %4\ntimes best %5")
      .arg(formatReadable(g.learning_rates[static_cast<std::size_t>(l)], 4),
           formatReadable(g.clips[static_cast<std::size_t>(c)], 4), value(g.final_train_loss[cell]),
           value(g.final_accuracy[cell]))
      .arg(g.times_best[cell]);
}

void HeatmapTab::onMouseMove(QMouseEvent* event) {
  QCustomPlot* plot = chart_->plot();
  const QPointF pos = event->position();
  const QString text =
      plot->axisRect()->rect().contains(pos.toPoint())
          ? hoverText(plot->xAxis->pixelToCoord(pos.x()), plot->yAxis->pixelToCoord(pos.y()))
          : QString();
  if (text.isEmpty()) {
    QToolTip::hideText();
  } else {
    QToolTip::showText(event->globalPosition().toPoint(), text, plot);
  }
}

}  // namespace dplab::ui
