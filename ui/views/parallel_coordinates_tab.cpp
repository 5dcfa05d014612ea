#include "views/parallel_coordinates_tab.h"

#include <qcustomplot.h>
#include <QVBoxLayout>
#include <cmath>

#include "charts/chart_export.h"
#include "charts/chart_hover.h"
#include "charts/chart_view.h"
#include "form/optimizer_editor.h"
#include "run/run_data.h"
#include "views/shown_refresh.h"

namespace dplab::ui {

namespace {

QString axisTitle(const tuning::ParallelAxis& axis) {
  const std::string& n = axis.name;
  const QString symbol = n == "learning_rate" ? QStringLiteral("α")
                         : n == "clip"        ? QStringLiteral("C")
                         : n == "beta1"       ? QStringLiteral("β1")
                         : n == "beta2"       ? QStringLiteral("β2")
                         : n == "momentum"    ? QStringLiteral("m")
                                              : QString::fromStdString(n);
  return axis.log ? symbol + QObject::tr(" (log)") : symbol;
}

QString value(double v, int digits = 6) {
  return std::isfinite(v) ? QString::number(v, 'g', digits) : QObject::tr("n/a");
}

int finishedJobs(const tuning::SearchResults& r) {
  int n = 0;
  for (const auto& job : r.jobs) n += job.status == tuning::JobStatus::kFinished;
  return n;
}

}  // namespace

ParallelCoordinatesTab::ParallelCoordinatesTab(RunData* data, QWidget* parent)
    : QWidget(parent),
      data_(data),
      task_(
          this, [](const tuning::SearchResults& r) { return tuning::parallel_coordinates(r); },
          [this](int sequence, const tuning::ParallelCoordinates& pc) {
            delivered_ = sequence;
            if (sequence == latest_) draw(pc, QString());
          },
          [this](int sequence, const QString& error) {
            delivered_ = sequence;
            if (sequence == latest_) draw({}, error);
          }) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  chart_ = new ChartView(tr("Candidates in parallel coordinates (colour: score; thick: winner)"),
                         QStringLiteral("parallel_coordinates"), this);
  layout->addWidget(chart_, 1);
  connect(chart_, &ChartView::message, this, &ParallelCoordinatesTab::message);
  chart_->hover()->setFormatter(
      [this](QCPAbstractPlottable* p, int, double, double) { return tooltip(p); });
  chart_->setCsvProvider([this] {
    CsvTable table;
    table.header << QStringLiteral("candidate") << QStringLiteral("optimizer")
                 << QStringLiteral("winner");
    for (const auto& axis : shown_.axes) table.header << QString::fromStdString(axis.name);
    for (std::size_t row = 0; row < shown_.candidates.size(); ++row) {
      QStringList cells{QString::number(shown_.candidates[row]),
                        optimizer_names_.value(shown_.optimizer_index[row]),
                        shown_.winner[row] ? QStringLiteral("1") : QStringLiteral("0")};
      for (const auto& axis : shown_.axes) cells << formatNumber(axis.values[row]);
      table.rows.append(cells);
    }
    return table;
  });
  QCustomPlot* plot = chart_->plot();
  plot->yAxis->setTicks(false);
  plot->yAxis->setTickLabels(false);
  plot->yAxis->grid()->setVisible(false);
  plot->xAxis->grid()->setVisible(false);
  // Redraws only while shown; a hidden tab catches up when shown (issue #25 item 13).
  chart_->setPendingQuery([this] { return delivered_ != latest_; });  // a report waits for it
  new ShownRefresh(this, data_, [this](bool structural) { refresh(structural); });
  refresh(true);
}

QCPAbstractPlottable* ParallelCoordinatesTab::lineOf(int row) const {
  for (const auto& [plottable, r] : rows_) {
    if (r == row) return const_cast<QCPAbstractPlottable*>(plottable);
  }
  return nullptr;
}

void ParallelCoordinatesTab::refresh(bool structural) {
  if (!data_->hasRun()) {
    shown_ = {};
    rows_.clear();
    chart_->plot()->clearPlottables();
    chart_->plot()->clearItems();
    chart_->plot()->replot(QCustomPlot::rpQueuedReplot);
    finished_seen_ = -1;
    return;
  }
  const tuning::SearchResults& results = data_->viewResults();
  const int finished = finishedJobs(results);
  if (!structural && finished == finished_seen_) return;
  finished_seen_ = finished;
  optimizer_names_.clear();
  for (const auto& o : results.config.optimizers)
    optimizer_names_ << OptimizerEditor::displayName(o);
  latest_ = task_.submit(results);
}

void ParallelCoordinatesTab::draw(const tuning::ParallelCoordinates& pc, const QString& error) {
  QCustomPlot* plot = chart_->plot();
  plot->clearPlottables();
  plot->clearItems();
  rows_.clear();
  shown_ = pc;
  if (!error.isEmpty()) {
    emit message(tr("parallel coordinates: %1").arg(error), true);
    plot->replot(QCustomPlot::rpQueuedReplot);
    emit computed();
    return;
  }
  const int axes = static_cast<int>(pc.axes.size());
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  for (int a = 0; a < axes; ++a)
    ticker->addTick(a, axisTitle(pc.axes[static_cast<std::size_t>(a)]));
  plot->xAxis->setTicker(ticker);
  plot->xAxis->setLabel(QString());
  plot->yAxis->setLabel(QString());
  // The axes: a vertical line each, its low and high value (and the middle on log axes).
  for (int a = 0; a < axes; ++a) {
    const tuning::ParallelAxis& axis = pc.axes[static_cast<std::size_t>(a)];
    auto* line = new QCPItemLine(plot);
    line->start->setCoords(a, 0);
    line->end->setCoords(a, 1);
    line->setPen(QPen(QColor(90, 90, 90), 1.5));
    auto label = [&](double y, const QString& text, Qt::Alignment align) {
      auto* t = new QCPItemText(plot);
      t->position->setCoords(a, y);
      t->setPositionAlignment(align);
      t->setText(text);
      t->setFont(QFont(font().family(), std::max(7, font().pointSize() - 1)));
      t->setPadding(QMargins(3, 1, 3, 1));
      t->setBrush(QBrush(QColor(255, 255, 255, 200)));
    };
    label(1.0, value(axis.high, 4), Qt::AlignHCenter | Qt::AlignBottom);
    label(0.0, value(axis.low, 4), Qt::AlignHCenter | Qt::AlignTop);
    if (axis.log && axis.high > axis.low)
      label(0.5, value(std::sqrt(axis.low * axis.high), 3), Qt::AlignLeft | Qt::AlignVCenter);
    bool missing = false;
    for (double v : axis.values) missing = missing || !std::isfinite(v);
    if (missing) label(kNotApplicable, tr("n/a"), Qt::AlignHCenter | Qt::AlignVCenter);
  }
  QCPColorGradient gradient = viridisGradient();  // color() is not const
  const tuning::ParallelAxis* score = axes > 0 ? &pc.axes.back() : nullptr;
  auto add_row = [&](std::size_t row) {
    QCPGraph* g = plot->addGraph();
    const bool winner = pc.winner[row];
    const QString optimizer = optimizer_names_.value(pc.optimizer_index[row]);
    for (int a = 0; a < axes; ++a) {
      const double f = tuning::axis_fraction(pc.axes[static_cast<std::size_t>(a)],
                                             pc.axes[static_cast<std::size_t>(a)].values[row]);
      g->addData(a, std::isfinite(f) ? f : kNotApplicable);
    }
    const double s = score ? tuning::axis_fraction(*score, score->values[row]) : 0.5;
    if (winner) {
      g->setPen(QPen(optimizerColor(optimizer), 3.5));
      g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
      g->setName(tr("%1 winner: #%2").arg(optimizer).arg(pc.candidates[row]));
    } else {
      // Low score = dark; with "higher is better" (accuracy) yellow is best, for loss dark is.
      const double t = pc.regression ? 1.0 - s : s;
      QColor c = QColor::fromRgb(gradient.color(std::isfinite(t) ? t : 0.0, QCPRange(0, 1)));
      c.setAlpha(170);
      g->setPen(QPen(c, 1.2));
      g->setName(tr("candidate #%1").arg(pc.candidates[row]));
      g->removeFromLegend();
    }
    rows_[g] = static_cast<int>(row);
  };
  for (std::size_t row = 0; row < pc.candidates.size(); ++row)
    if (!pc.winner[row]) add_row(row);
  for (std::size_t row = 0; row < pc.candidates.size(); ++row)  // winners on top
    if (pc.winner[row]) add_row(row);
  plot->legend->setVisible(true);
  plot->xAxis->setRange(-0.3, std::max(1, axes - 1) + 0.3);
  plot->yAxis->setRange(kNotApplicable - 0.12, 1.22);  // room for the labels above y = 1
  plot->replot(QCustomPlot::rpQueuedReplot);
  emit computed();
}

QString ParallelCoordinatesTab::tooltip(QCPAbstractPlottable* plottable) const {
  const auto it = rows_.find(plottable);
  if (it == rows_.end()) return QString();
  const auto row = static_cast<std::size_t>(it->second);
  QString text = tr("candidate #%1 · %2%3")
                     .arg(shown_.candidates[row])
                     .arg(optimizer_names_.value(shown_.optimizer_index[row]),
                          shown_.winner[row] ? tr(" · WINNER of its optimizer") : QString());
  for (const auto& axis : shown_.axes) {
    text += QStringLiteral("\n%1 = %2").arg(axisTitle(axis), value(axis.values[row]));
  }
  return text;
}

}  // namespace dplab::ui
