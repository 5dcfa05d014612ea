#include "views/privacy_utility_tab.h"

#include <qcustomplot.h>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

#include "charts/chart_export.h"
#include "charts/chart_hover.h"
#include "charts/chart_view.h"
#include "charts/theme.h"
#include "form/optimizer_editor.h"
#include "privacy/accounting/epsilon_display.h"
#include "run/run_data.h"
#include "views/shown_refresh.h"

namespace dplab::ui {

namespace {

// Marker per release mode, in the engine's order per optimizer: explore, ma, lt, ps.
constexpr QCPScatterStyle::ScatterShape kShapes[] = {
    QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
    QCPScatterStyle::ssDiamond};
// Marker size per mode. MA's plan over the same runs shares the explore point's ε: its square is
// drawn larger, as a frame around the disc, so both stay visible.
constexpr double kSizes[] = {11, 17, 10, 10};
constexpr int kModes = 4;

int finishedJobs(const tuning::SearchResults& r) {
  int n = 0;
  for (const auto& job : r.jobs) n += job.status == tuning::JobStatus::kFinished;
  return n;
}

}  // namespace

PrivacyUtilityTab::PrivacyUtilityTab(RunData* data, QWidget* parent)
    : QWidget(parent),
      data_(data),
      task_(
          this, [](const tuning::SearchResults& r) { return tuning::privacy_utility(r); },
          [this](int sequence, const tuning::PrivacyUtility& pu) {
            delivered_ = sequence;
            if (sequence == latest_) draw(pu, pending_names_, QString());
          },
          [this](int sequence, const QString& error) {
            delivered_ = sequence;
            if (sequence == latest_) draw({}, pending_names_, error);
          }) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  note_ = new QLabel(this);
  note_->setWordWrap(true);
  note_->setText(
      tr("Filled: what this search did — explore releases every run trained (★ the whole "
         "search). Hollow and dashed: <b>plans</b> — the ε IF you selected privately among the "
         "same candidates (■ MA, ▲ Liu–Talwar γ = 1/K, ◆ Papernot–Steinke Poisson; dashed: LT "
         "with γ varied) and the expected accuracy of the released winner, from this search's "
         "candidate scores. Hover a point for its exact numbers."));
  layout->addWidget(note_);
  chart_ = new ChartView(tr("Privacy–utility: accuracy released vs ε of the search"),
                         QStringLiteral("privacy_utility"), this);
  layout->addWidget(chart_, 1);
  connect(chart_, &ChartView::message, this, &PrivacyUtilityTab::message);
  setLogAxis(chart_->plot()->xAxis);
  chart_->hover()->setFormatter(
      [this](QCPAbstractPlottable* p, int index, double, double) { return tooltip(p, index); });
  chart_->setCsvProvider([this] {
    CsvTable table;
    table.header = {
        QStringLiteral("optimizer"),     QStringLiteral("mode"),   QStringLiteral("plan"),
        QStringLiteral("epsilon"),       QStringLiteral("delta"),  QStringLiteral("gamma"),
        QStringLiteral("expected_runs"), QStringLiteral("metric"), QStringLiteral("covers")};
    auto add = [&](const tuning::PrivacyUtilityPoint& p, const QString& mode_suffix) {
      table.rows.append(QStringList{
          p.optimizer_index < 0 ? QStringLiteral("all")
                                : names_.value(p.optimizer_index, QStringLiteral("?")),
          QString::fromStdString(p.mode) + mode_suffix,
          p.plan ? QStringLiteral("plan") : QStringLiteral("ran"), formatNumber(p.epsilon),
          formatNumber(p.delta), formatNumber(p.gamma), formatNumber(p.expected_runs),
          formatNumber(p.metric), QString::fromStdString(p.label)});
    };
    for (const auto& p : shown_.points) add(p, QString());
    for (const auto& p : shown_.lt_sweep) add(p, QStringLiteral(" (gamma sweep)"));
    return table;
  });
  // Redraws only while shown; a hidden tab catches up when shown (issue #25 item 13).
  chart_->setPendingQuery([this] { return delivered_ != latest_; });  // a report waits for it
  new ShownRefresh(this, data_, [this](bool structural) { refresh(structural); });
  refresh(true);
}

QString PrivacyUtilityTab::noteText() const {
  return note_->text();
}

void PrivacyUtilityTab::refresh(bool structural) {
  if (!data_->hasRun()) {
    shown_ = {};
    drawn_.clear();
    chart_->plot()->clearPlottables();
    chart_->plot()->replot(QCustomPlot::rpQueuedReplot);
    finished_seen_ = -1;
    return;
  }
  const tuning::SearchResults& results = data_->viewResults();
  const int finished = finishedJobs(results);
  if (!structural && finished == finished_seen_) return;  // nothing new to place
  finished_seen_ = finished;
  QStringList names;
  for (const auto& o : results.config.optimizers) names << OptimizerEditor::displayName(o);
  pending_names_ = names;
  latest_ = task_.submit(results);
}

void PrivacyUtilityTab::draw(const tuning::PrivacyUtility& pu, const QStringList& names,
                             const QString& error) {
  QCustomPlot* plot = chart_->plot();
  plot->clearPlottables();
  drawn_.clear();
  shown_ = pu;
  names_ = names;
  if (!error.isEmpty()) {
    chart_->setTitle(tr("Privacy–utility: %1").arg(error));
    plot->replot(QCustomPlot::rpQueuedReplot);
    emit computed();
    return;
  }
  chart_->setTitle(tr("Privacy–utility: %1 released vs ε of the search")
                       .arg(pu.regression ? tr("final validation MSE") : tr("accuracy")));
  plot->xAxis->setLabel(tr("ε (δ = %1; log scale)")
                            .arg(pu.points.empty() ? 0.0 : pu.points.front().delta, 0, 'g', 3));
  plot->yAxis->setLabel(pu.regression ? tr("final validation MSE of the release (expected)")
                                      : tr("validation accuracy of the release (expected)"));
  auto add_graph = [&](const QString& name, const QPen& pen, const QCPScatterStyle& scatter,
                       const std::vector<tuning::PrivacyUtilityPoint>& points, bool legend) {
    QCPGraph* g = plot->addGraph();
    g->setName(name);
    g->setPen(pen);
    g->setScatterStyle(scatter);
    g->setLineStyle(pen.style() == Qt::NoPen ? QCPGraph::lsNone : QCPGraph::lsLine);
    for (const auto& p : points) {
      if (std::isfinite(p.epsilon) && std::isfinite(p.metric) && p.epsilon > 0)
        g->addData(p.epsilon, p.metric);
    }
    if (!legend) g->removeFromLegend();
    drawn_[g] = points;
    return g;
  };
  for (int o = 0; o < names.size(); ++o) {
    const QColor colour = optimizerColor(names[o]);
    const QString group = QStringLiteral("opt:%1").arg(o);
    std::vector<tuning::PrivacyUtilityPoint> sweep, modes[kModes];
    for (const auto& p : pu.lt_sweep)
      if (p.optimizer_index == o) sweep.push_back(p);
    int m = 0;
    for (const auto& p : pu.points)
      if (p.optimizer_index == o && m < kModes) modes[m++].push_back(p);
    if (m == 0) continue;
    QCPGraph* line =
        add_graph(names[o], QPen(colour, 1.5, Qt::DashLine),
                  QCPScatterStyle(QCPScatterStyle::ssCircle, colour, Qt::white, 4), sweep, true);
    line->setProperty("dplabGroup", group);
    for (int i : {1, 2, 3, 0}) {  // what ran on top of the plans it may coincide with
      const bool plan = !modes[i].empty() && modes[i].front().plan;
      QCPGraph* g = add_graph(names[o], QPen(Qt::NoPen),
                              QCPScatterStyle(kShapes[i], QPen(colour, 2),
                                              plan ? QBrush(Qt::white) : QBrush(colour), kSizes[i]),
                              modes[i], false);
      g->setProperty("dplabGroup", group);
      g->setProperty("dplabMode", QStringLiteral("mode:%1").arg(i));
    }
  }
  std::vector<tuning::PrivacyUtilityPoint> whole;
  for (const auto& p : pu.points)
    if (p.optimizer_index < 0) whole.push_back(p);
  add_graph(tr("this search"), QPen(Qt::NoPen),
            QCPScatterStyle(QCPScatterStyle::ssStar, QPen(chartInk(plot), 2), chartInk(plot), 14),
            whole, true);
  // Legend keys for the marker shapes; clicking one hides that mode for every optimizer.
  const QString mode_names[kModes] = {
      tr("explore: runs trained (ran)"), tr("plan: MA, best of K runs"),
      tr("plan: Liu–Talwar, γ = 1/K"), tr("plan: Papernot–Steinke, Poisson")};
  for (int i = 0; i < kModes; ++i) {
    QCPGraph* key = add_graph(mode_names[i], QPen(Qt::NoPen),
                              QCPScatterStyle(kShapes[i], QPen(Qt::darkGray, 2),
                                              i == 0 ? QBrush(Qt::darkGray) : QBrush(Qt::white), 9),
                              {}, true);
    key->setProperty("dplabGroup", QStringLiteral("mode:%1").arg(i));
  }
  plot->legend->setVisible(true);
  chart_->layoutLegend(chart_->width());  // entries changed: re-flow the columns
  plot->rescaleAxes(true);
  if (pu.regression) chart_->setLogY(true);
  chart_->fitValueRange();
  // Room around the x range on the log axis.
  const QCPRange x = plot->xAxis->range();
  if (x.lower > 0 && x.upper > 0) plot->xAxis->setRange(x.lower / 1.3, x.upper * 1.3);
  plot->replot(QCustomPlot::rpQueuedReplot);
  emit computed();
}

QString PrivacyUtilityTab::tooltip(QCPAbstractPlottable* plottable, int index) const {
  const auto it = drawn_.find(plottable);
  if (it == drawn_.end()) return QString();
  // The graph holds only the finite points: find the index-th of them.
  int seen = -1;
  for (const auto& p : it->second) {
    if (!(std::isfinite(p.epsilon) && std::isfinite(p.metric) && p.epsilon > 0)) continue;
    if (++seen != index) continue;
    const QString who =
        p.optimizer_index < 0 ? tr("whole search") : names_.value(p.optimizer_index);
    QString text =
        tr("%1 · %2%3\nε ≤ %4 at δ = %5")
            .arg(who, QString::fromStdString(p.mode), p.plan ? tr(" — PLAN (not run)") : QString(),
                 QString::fromStdString(privacy::format_epsilon_up(p.epsilon)))
            .arg(p.delta, 0, 'g', 3);
    if (p.gamma > 0) text += tr(", γ = %1").arg(p.gamma, 0, 'g', 4);
    text += tr("\n%1%2 = %3\nruns: %4")
                .arg(p.plan ? tr("expected ") : QString(),
                     shown_.regression ? tr("validation MSE") : tr("accuracy"))
                .arg(p.metric, 0, 'g', 6)
                .arg(p.expected_runs, 0, 'g', 4);
    return text + QLatin1Char('\n') + QString::fromStdString(p.label);
  }
  return QString();
}

}  // namespace dplab::ui
