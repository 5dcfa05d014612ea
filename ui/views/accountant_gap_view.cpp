#include "views/accountant_gap_view.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "async/latest_only_task.h"
#include "charts/chart_view.h"
#include "charts/side_column.h"
#include "charts/split_or_tabs.h"

namespace dplab::ui {
namespace {

constexpr int kPoints = 10;

QString fmt(double v) {
  return QString::number(v, 'g', 4);
}

}  // namespace

AccountantGapView::AccountantGapView(QWidget* parent)
    : QWidget(parent), run_fields_(this, 1.1, 10'000) {
  kmax_ = new QSpinBox(this);
  kmax_->setRange(1, 200);
  kmax_->setValue(40);
  std::vector<QWidget*> fields = run_fields_.widgets();
  fields.push_back(kmax_);
  for (QWidget* w : fields) w->setMinimumWidth(110);
  auto* form = new QFormLayout;
  run_fields_.addRows(form, tr("sampling rate q = L/n"));
  form->addRow(tr("candidates K max"), kmax_);

  headline_ = new QLabel(this);
  headline_->setWordWrap(true);
  auto* note = new QLabel(
      tr("Both curves are valid upper bounds on ε for the same mechanism (Poisson-subsampled "
         "Gaussian, add/remove adjacency). RDP (accountant: rdp) converts Rényi bounds; PLD "
         "(accountant: pld) composes privacy loss distributions numerically and is tight up to its "
         "stated error. The shaded gap is what RDP's looseness costs."),
      this);
  note->setWordWrap(true);

  steps_chart_ = new ChartView(tr("Accountants disagree: ε vs steps T (one run)"),
                               "accountants_vs_steps", this);
  candidates_chart_ =
      new ChartView(tr("Accountants disagree: ε vs candidates K (MA, K runs composed)"),
                    "accountants_vs_candidates", this);
  connect(steps_chart_, &ChartView::message, this, &AccountantGapView::message);
  connect(candidates_chart_, &ChartView::message, this, &AccountantGapView::message);

  // The starting values are an example (MNIST-like), not the user's experiment: said so, with a
  // button that takes the experiment's σ, q, T and δ from the form.
  source_ =
      new QLabel(tr("<i>Example settings (σ 1.1, q = 256/60000, T = 10,000 — MNIST-like), not your "
                    "experiment.</i>"),
                 this);
  source_->setWordWrap(true);
  use_experiment_ = new QPushButton(tr("Use my experiment's settings"), this);
  use_experiment_->setToolTip(
      tr("Take σ, q = L/n, T and δ from the experiment in the form on the left."));
  connect(use_experiment_, &QPushButton::clicked, this,
          &AccountantGapView::experimentSettingsRequested);
  auto* left_column = new QWidget;
  auto* left = new QVBoxLayout(left_column);
  left->setContentsMargins(0, 0, 0, 0);
  left->addWidget(source_);
  left->addWidget(use_experiment_);
  left->addLayout(form);
  left->addWidget(headline_);
  left->addWidget(note);
  left->addStretch(1);
  // The settings and notes scroll in a column that leaves the charts their width (at 1024 px the
  // wrapped notes took the whole page: the charts were -25 px wide).
  QScrollArea* left_scroll = sideScrollArea(left_column, this);
  // The two charts one above the other where both keep a readable plot, else as two tabs.
  auto* charts = new SplitOrTabs(Qt::Vertical, this);
  charts->addPanel(steps_chart_, tr("ε vs steps T"), kLeastChartHeight);
  charts->addPanel(candidates_chart_, tr("ε vs candidates K"), kLeastChartHeight);
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(left_scroll, 0);
  layout->addWidget(charts, 1);
  fitSideColumn(this, left_scroll, kSideColumnWidth, kLeastSideColumnWidth, kLeastChartColumnWidth);

  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(150);
  connect(debounce_, &QTimer::timeout, this, &AccountantGapView::recompute);
  auto schedule = [this] { debounce_->start(); };
  run_fields_.onChanged(this, schedule);
  connect(kmax_, &QSpinBox::valueChanged, this, schedule);
  task_ = std::make_unique<LatestOnlyTask<Request, Series>>(
      this,
      [](const Request& request) {
        Series s{request,
                 privacy::accountant_gap_vs_steps(request.run, request.delta, 1, request.run.steps,
                                                  kPoints),
                 privacy::accountant_gap_vs_candidates(request.run, request.delta,
                                                       request.max_candidates, kPoints)};
        return s;
      },
      [this](int sequence, const Series& series) { onComputed(sequence, series); },
      [this](int sequence, const QString& error) {
        drawn_sequence_ = std::max(drawn_sequence_, sequence);
        headline_->setText(tr("error: %1").arg(error));
        emit message(tr("accountants view: %1").arg(error), true);
      });
}

AccountantGapView::~AccountantGapView() = default;  // the task joins its thread

bool AccountantGapView::busy() const {
  return task_->busy() || drawn_sequence_ < requested_sequence_;
}

void AccountantGapView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (completed_ == 0 && !busy()) debounce_->start();
}

void AccountantGapView::setSettings(double sigma, double sampling_rate, int steps, double delta,
                                    int max_candidates) {
  const QSignalBlocker blocker(kmax_);
  run_fields_.set(sigma, sampling_rate, steps, delta);
  kmax_->setValue(max_candidates);
  debounce_->start();
}

void AccountantGapView::setExperimentSettings(double sigma, double sampling_rate, int steps,
                                              double delta, int max_candidates) {
  setSettings(sigma, sampling_rate, steps, delta, max_candidates);
  source_->setText(tr("<b>Your experiment's settings</b> (from the form; edit them freely)."));
}

AccountantGapView::Request AccountantGapView::currentRequest() const {
  return {run_fields_.run(), run_fields_.delta(), kmax_->value()};
}

void AccountantGapView::recompute() {
  headline_->setText(tr("computing RDP and PLD curves …"));
  requested_sequence_ = task_->submit(currentRequest());
}

void AccountantGapView::onComputed(int sequence, const Series& series) {
  drawn_sequence_ = std::max(drawn_sequence_, sequence);
  steps_points_ = series.vs_steps;
  candidates_points_ = series.vs_candidates;
  draw(steps_chart_, steps_points_, tr("steps T"), true, series.request.delta);
  draw(candidates_chart_, candidates_points_,
       tr("candidates K (each a run of T = %1 steps)").arg(series.request.run.steps), false,
       series.request.delta);
  headline_->setText(sequence < requested_sequence_ ? tr("computing RDP and PLD curves …")
                                                    : headline());
  ++completed_;
  emit computed();
}

QString AccountantGapView::sourceText() const {
  return source_->text();
}

QString AccountantGapView::headline() const {
  if (steps_points_.empty() || candidates_points_.empty()) return {};
  const auto& t = steps_points_.back();
  const auto& k = candidates_points_.back();
  auto above = [](const privacy::AccountantGapPoint& p) {
    return p.epsilon_pld > 0 ? 100.0 * (p.epsilon_rdp / p.epsilon_pld - 1.0) : 0.0;
  };
  return tr("One run of T = %1: ε = %2 (accountant: rdp) vs %3 (accountant: pld, estimated error ≈ "
            "%4 (Richardson)); RDP "
            "is "
            "%5% above.\nMA over K = %6: ε = %7 (rdp) vs %8 (pld); RDP is %9% above.")
      .arg(t.x)
      .arg(fmt(t.epsilon_rdp))
      .arg(fmt(t.epsilon_pld))
      .arg(fmt(t.pld_error_bound))
      .arg(above(t), 0, 'f', 1)
      .arg(k.x)
      .arg(fmt(k.epsilon_rdp))
      .arg(fmt(k.epsilon_pld))
      .arg(above(k), 0, 'f', 1);
}

void AccountantGapView::draw(ChartView* chart,
                             const std::vector<privacy::AccountantGapPoint>& points,
                             const QString& x_label, bool log_x, double delta) {
  QCustomPlot* plot = chart->plot();
  plot->clearGraphs();
  QCPGraph* pld = plot->addGraph();
  pld->setName(tr("PLD (accountant: pld)"));
  pld->setPen(QPen(QColor(0x1f, 0x77, 0xb4), 2.0));
  QCPGraph* rdp = plot->addGraph();
  rdp->setName(tr("RDP (accountant: rdp)"));
  rdp->setPen(QPen(QColor(0xff, 0x7f, 0x0e), 2.0));
  rdp->setBrush(QColor(0xff, 0x7f, 0x0e, 60));  // the gap, shaded down to the PLD curve
  rdp->setChannelFillGraph(pld);
  double ymax = 0;
  for (const auto& p : points) {
    pld->addData(static_cast<double>(p.x), p.epsilon_pld);
    rdp->addData(static_cast<double>(p.x), p.epsilon_rdp);
    ymax = std::max(ymax, p.epsilon_rdp);
  }
  if (log_x) {
    setLogAxis(plot->xAxis);
  } else {
    setLinearAxis(plot->xAxis);
  }
  plot->xAxis->setLabel(x_label);
  plot->yAxis->setLabel(tr("ε at δ = %1").arg(delta, 0, 'g', 2));
  if (!points.empty()) {
    const double x0 = static_cast<double>(points.front().x),
                 x1 = static_cast<double>(points.back().x);
    plot->xAxis->setRange(log_x ? x0 : x0 - 0.5, log_x ? std::max(x1, x0 * 10) : x1 + 0.5);
  }
  plot->yAxis->setRange(0, ymax > 0 ? ymax * 1.1 : 1.0);
  plot->legend->setVisible(true);
  plot->replot();
}

}  // namespace dplab::ui
