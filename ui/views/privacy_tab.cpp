#include "views/privacy_tab.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>

#include "async/latest_only_task.h"
#include "charts/chart_view.h"
#include "charts/side_column.h"
#include "charts/split_or_tabs.h"
#include "privacy/accounting/default_delta.h"

namespace dplab::ui {

using namespace privacy;

namespace {

constexpr int kSigmaSliderScale = 10;  // slider units per unit of σ (0.1 resolution)
constexpr int kFig1MinWidth = 300;     // px per Figure 1 panel side by side
// Figure 1's panels: a 150-px plot under two-line titles and legends of two or three rows.
constexpr int kFig1MinHeight = 330;

QCPGraph* addLine(QCustomPlot* plot, const QString& name, const QColor& color, Qt::PenStyle style,
                  double width = 2.0) {
  QCPGraph* g = plot->addGraph();
  g->setName(name);
  g->setPen(QPen(color, width, style));
  return g;
}

QString fmt(double v) {
  return formatReadable(v, 4);
}

}  // namespace

PrivacyTab::PrivacyTab(QWidget* parent) : QWidget(parent) {
  auto* outer = new QHBoxLayout(this);
  outer->setContentsMargins(4, 4, 4, 4);

  // Controls on the left.
  auto* controls = new QWidget(this);
  controls->setMaximumWidth(330);
  auto* form = new QFormLayout(controls);
  sigma_ = new QDoubleSpinBox(controls);
  sigma_->setRange(0.1, 50);
  sigma_->setDecimals(2);
  sigma_->setSingleStep(0.1);
  sigma_->setValue(4.0);
  sigma_->setToolTip(tr("σ, noise multiplier of every run (paper: 4)."));
  sigma_slider_ = new QSlider(Qt::Horizontal, controls);
  sigma_slider_->setRange(1, 200);
  sigma_slider_->setValue(40);
  sigma_slider_->setToolTip(sigma_->toolTip());
  form->addRow(tr("σ"), sigma_);
  form->addRow(QString(), sigma_slider_);
  lot_ = new QSpinBox(controls);
  lot_->setRange(1, 1000000);
  lot_->setValue(250);
  lot_->setToolTip(tr("L, expected lot size; q = L/n (paper: 250)."));
  form->addRow(tr("L"), lot_);
  steps_ = new QSpinBox(controls);
  steps_->setRange(1, 10000000);
  steps_->setSingleStep(1000);
  steps_->setValue(10000);
  steps_->setToolTip(tr("T, noisy-gradient queries per candidate (paper: 10,000)."));
  form->addRow(tr("T"), steps_);
  n_ = new QSpinBox(controls);
  n_->setRange(2, 100000000);
  n_->setSingleStep(5000);
  n_->setValue(60000);
  n_->setToolTip(
      tr("n, training-set size for Figure 6 (paper: 5,000 and 60,000). Figure 1 sweeps "
         "n and adds this value."));
  form->addRow(tr("n"), n_);
  delta_ = new QComboBox(controls);
  delta_->addItem(tr("1/n rounded down"), 0.0);
  for (int e = 3; e <= 10; ++e) delta_->addItem(QStringLiteral("1e-%1").arg(e), std::pow(10.0, -e));
  delta_->setToolTip(
      tr("δ_f, the δ of the whole selection (Figure 1 always uses 1/n rounded "
         "down, as the paper)."));
  form->addRow(tr("δ"), delta_);
  gamma_ = new QDoubleSpinBox(controls);
  gamma_->setRange(0.0, 1.0);
  gamma_->setDecimals(3);
  gamma_->setSingleStep(0.01);
  gamma_->setSpecialValueText(tr("1/K"));
  gamma_->setValue(0.0);
  gamma_->setToolTip(
      tr("γ, LT's stopping probability. \"1/K\" = the paper's Figure 6 choice "
         "(K candidates in expectation); a fixed γ gives a flat LT line."));
  form->addRow(tr("γ (LT)"), gamma_);
  kmax_ = new QSpinBox(controls);
  kmax_->setRange(2, 1000);
  kmax_->setValue(40);
  kmax_->setToolTip(tr("Largest number of candidates K on Figure 6's x-axis."));
  form->addRow(tr("K max"), kmax_);
  show_paper_ = new QCheckBox(tr("also the paper's accountant (dashed)"), controls);
  show_paper_->setToolTip(
      tr("Dashed lines: classic RDP→(ε,δ) conversion and log2 in Υ, as the "
         "paper's code; solid lines: dplab's tighter default."));
  form->addRow(show_paper_);
  headline_ = new QLabel(controls);
  headline_->setWordWrap(true);
  headline_->setTextFormat(Qt::RichText);
  form->addRow(headline_);
  comparison_ = new QTableWidget(5, 2, controls);
  comparison_->setHorizontalHeaderLabels({tr("tight"), tr("paper")});
  comparison_->setVerticalHeaderLabels({tr("ε one run"), tr("ε LT, γ = 1"), tr("ε LT, γ of K max"),
                                        tr("ε MA, K max"), tr("MA K at LT(γ=1) cost")});
  comparison_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  comparison_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  comparison_->setToolTip(
      tr("dplab's accountant (improved conversion, natural log in Υ) next to "
         "the paper-compatible one (classic conversion, log2 Υ)."));
  comparison_->setFixedHeight(comparison_->verticalHeader()->length() +
                              comparison_->horizontalHeader()->height() + 6);
  form->addRow(comparison_);
  // The controls scroll on small screens (1280 × 720) instead of forcing the window taller.
  QScrollArea* controls_scroll = sideScrollArea(controls, this);
  outer->addWidget(controls_scroll);
  fitSideColumn(this, controls_scroll, 350, 260, kLeastChartColumnWidth);

  // Charts on the right: Figure 6 on top, Figure 1's three panels below — or as tabs where the
  // height does not hold both (1024 × 700: Figure 1's plots were 57–95 px tall).
  charts_ = new SplitOrTabs(Qt::Vertical, this);
  figure6_ = new ChartView(tr("Privacy of tuning: ε vs number of candidates (Figure 6)"),
                           QStringLiteral("privacy_fig6_eps_vs_candidates"), this);
  // Figure 1's three panels side by side where each gets kFig1MinWidth, else as tabs of one
  // full-width panel (1024 × 700: side by side they were ~130 px wide, their titles ran under
  // the buttons, 1b's y label was cut and its legend was taller than its plot).
  fig1_ = new SplitOrTabs(Qt::Horizontal, this);
  fig1_blowup_ =
      new ChartView(tr("Fig. 1a: LT blow-up"), QStringLiteral("privacy_fig1_blowup"), this);
  fig1_gamma_ = new ChartView(tr("Fig. 1b: ε of LT per γ (δ = 10^-⌈log10 n⌉)"),
                              QStringLiteral("privacy_fig1_gamma"), this);
  fig1_ma_ = new ChartView(tr("Fig. 1c: MA candidates at LT's γ = 1 cost"),
                           QStringLiteral("privacy_fig1_ma_candidates"), this);
  fig1_->addPanel(fig1_blowup_, tr("1a blow-up"), kFig1MinWidth);
  fig1_->addPanel(fig1_gamma_, tr("1b ε of LT per γ"), kFig1MinWidth);
  fig1_->addPanel(fig1_ma_, tr("1c MA candidates"), kFig1MinWidth);
  charts_->addPanel(figure6_, tr("Figure 6"), kLeastChartHeight, 3);
  charts_->addPanel(fig1_, tr("Figure 1"), kFig1MinHeight, 2);
  outer->addWidget(charts_, 1);
  for (ChartView* c : this->charts()) connect(c, &ChartView::message, this, &PrivacyTab::message);

  // Every control change coalesces into one redraw on the next event-loop pass.
  redraw_timer_ = new QTimer(this);
  redraw_timer_->setSingleShot(true);
  redraw_timer_->setInterval(0);
  connect(redraw_timer_, &QTimer::timeout, this, &PrivacyTab::requestOverview);
  connect(sigma_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    QSignalBlocker block(sigma_slider_);
    sigma_slider_->setValue(static_cast<int>(std::lround(v * kSigmaSliderScale)));
    scheduleRedraw();
  });
  connect(sigma_slider_, &QSlider::valueChanged, this,
          [this](int v) { sigma_->setValue(static_cast<double>(v) / kSigmaSliderScale); });
  for (QSpinBox* s : {lot_, steps_, n_, kmax_}) {
    connect(s, &QSpinBox::valueChanged, this, &PrivacyTab::scheduleRedraw);
  }
  connect(gamma_, &QDoubleSpinBox::valueChanged, this, &PrivacyTab::scheduleRedraw);
  connect(delta_, &QComboBox::currentIndexChanged, this, &PrivacyTab::scheduleRedraw);
  connect(show_paper_, &QCheckBox::toggled, this, &PrivacyTab::scheduleRedraw);
  task_ = std::make_unique<LatestOnlyTask<TuningCostQuery, TuningCostOverview>>(
      this, [](const TuningCostQuery& q) { return tuning_cost_overview(q); },
      [this](int sequence, const TuningCostOverview& overview) { apply(sequence, overview); },
      [this](int sequence, const QString& error) {
        if (sequence < requested_sequence_) return;  // a newer query is on its way
        emit message(tr("privacy charts: %1").arg(error), true);
      });
  scheduleRedraw();
}

PrivacyTab::~PrivacyTab() = default;

bool PrivacyTab::figure1Tabbed() const {
  return fig1_->tabbed();
}

void PrivacyTab::showFigure1Panel(ChartView* panel) {
  charts_->showPanel(panel == figure6_ ? static_cast<QWidget*>(figure6_) : fig1_);
  fig1_->showPanel(panel);
}

QList<ChartView*> PrivacyTab::charts() const {
  return {figure6_, fig1_blowup_, fig1_gamma_, fig1_ma_};
}

void PrivacyTab::setSettings(double sigma, int lot_size, int steps, qint64 n,
                             double delta_or_zero) {
  sigma_->setValue(sigma);
  lot_->setValue(lot_size);
  steps_->setValue(steps);
  n_->setValue(static_cast<int>(std::min<qint64>(n, n_->maximum())));
  int index = 0;
  for (int i = 1; i < delta_->count(); ++i) {
    if (std::abs(delta_->itemData(i).toDouble() - delta_or_zero) <= 1e-3 * delta_or_zero) index = i;
  }
  delta_->setCurrentIndex(index);
}

double PrivacyTab::sigma() const {
  return sigma_->value();
}
int PrivacyTab::lotSize() const {
  return lot_->value();
}
int PrivacyTab::steps() const {
  return steps_->value();
}
qint64 PrivacyTab::datasetSize() const {
  return n_->value();
}
double PrivacyTab::gammaFixed() const {
  return gamma_->value();
}
int PrivacyTab::maxCandidates() const {
  return kmax_->value();
}

double PrivacyTab::delta() const {
  const double chosen = delta_->currentData().toDouble();
  return chosen > 0 ? chosen : default_delta(datasetSize());
}

void PrivacyTab::scheduleRedraw() {
  redraw_timer_->start();  // one query per event-loop pass, however many controls changed
}

TuningCostQuery PrivacyTab::query() const {
  TuningCostQuery q;
  q.noise_multiplier = sigma();
  q.lot_size = lotSize();
  q.steps = steps();
  q.dataset_size = datasetSize();
  q.delta = delta();
  q.fixed_gamma = gammaFixed();
  q.max_candidates = maxCandidates();
  q.paper_accountant = show_paper_->isChecked();
  return q;
}

bool PrivacyTab::upToDate() const {
  return !redraw_timer_->isActive() && drawn_sequence_ >= requested_sequence_;
}

std::thread::id PrivacyTab::computeThread() const {
  return task_->computeThread();
}

int PrivacyTab::computations() const {
  return task_->computations();
}

void PrivacyTab::requestOverview() {
  requested_sequence_ = task_->submit(query());
}

void PrivacyTab::redrawNow() {
  redraw_timer_->stop();
  const int sequence = task_->nextSequence();
  requested_sequence_ = sequence;
  try {
    apply(sequence, tuning_cost_overview(query()));
  } catch (const std::exception& e) {
    drawn_sequence_ = sequence;
    emit message(tr("privacy charts: %1").arg(QString::fromStdString(e.what())), true);
  }
}

void PrivacyTab::apply(int sequence, const TuningCostOverview& overview) {
  if (sequence <= drawn_sequence_) return;  // older than what is shown (a synchronous redraw)
  drawn_sequence_ = sequence;
  ++redraws_;
  drawFigure6(overview);
  fillComparison(overview);
  drawFigure1(overview);
}

void PrivacyTab::drawFigure6(const TuningCostOverview& overview) {
  QCustomPlot* plot = figure6_->plot();
  plot->clearGraphs();
  plot->clearItems();
  const TuningCostQuery& query = overview.query;
  const int kmax = query.max_candidates;
  const double delta = query.delta;
  points_ = overview.figure6;
  const double gamma = query.fixed_gamma;
  crossover_ = overview.crossover;
  ma_at_lt_ = overview.ma_candidates_at_lt_cost;

  const QString lt_name = gamma > 0 ? tr("LT (γ = %1)").arg(gamma) : tr("LT (γ = 1/K)");
  QCPGraph* lt = addLine(plot, lt_name, QColor(0x1f, 0x77, 0xb4), Qt::SolidLine);
  QCPGraph* ma = addLine(plot, tr("MA (K runs composed)"), QColor(0xff, 0x7f, 0x0e), Qt::SolidLine);
  double ymax = 0;
  for (const auto& p : points_) {
    lt->addData(p.candidates, p.epsilon_lt);
    ma->addData(p.candidates, p.epsilon_ma);
    ymax = std::max({ymax, p.epsilon_lt, p.epsilon_ma});
  }
  if (!overview.figure6_paper.empty()) {
    QCPGraph* lt_p =
        addLine(plot, lt_name + tr(", paper acct."), QColor(0x1f, 0x77, 0xb4), Qt::DashLine, 1.2);
    QCPGraph* ma_p =
        addLine(plot, tr("MA, paper acct."), QColor(0xff, 0x7f, 0x0e), Qt::DashLine, 1.2);
    for (const auto& p : overview.figure6_paper) {
      lt_p->addData(p.candidates, p.epsilon_lt);
      ma_p->addData(p.candidates, p.epsilon_ma);
      ymax = std::max({ymax, p.epsilon_lt, p.epsilon_ma});
    }
  }
  plot->xAxis->setLabel(tr("number of candidates K"));
  plot->yAxis->setLabel(
      tr("ε of the whole selection (δ = %1, accountant: rdp)").arg(formatReadable(delta, 2)));
  plot->xAxis->setRange(0.5, kmax + 0.5);
  plot->yAxis->setRange(0, ymax * 1.12);
  if (crossover_ > 0 && crossover_ <= kmax) {
    auto* line = new QCPItemStraightLine(plot);
    line->point1->setCoords(crossover_, 0);
    line->point2->setCoords(crossover_, 1);
    line->setPen(QPen(QColor(90, 90, 90), 1, Qt::DashLine));
    auto* label = new QCPItemText(plot);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->position->setType(QCPItemPosition::ptPlotCoords);
    label->position->setCoords(crossover_ + 0.3, ymax * 1.08);
    // Two lines: one was wider than a single-column figure's axes and ran over the ticks.
    label->setText(crossover_ < kmax ? tr("MA is cheaper\nup to K = %1").arg(crossover_)
                                     : tr("MA is cheaper at\nevery K shown (≥ %1)").arg(kmax));
    label->setFont(QFont(plot->font().family(), plot->font().pointSize(), QFont::Bold));
    label->setPadding(QMargins(3, 2, 3, 2));
    label->setBrush(QBrush(QColor(255, 255, 255, 220)));
    if (crossover_ >= kmax) {  // at the right edge: the plot's top-right corner, whole
      label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
      label->position->setType(QCPItemPosition::ptAxisRectRatio);
      label->position->setCoords(0.99, 0.01);
    } else if (crossover_ > kmax * 0.6) {  // keep the label inside the plot
      label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
      label->position->setCoords(crossover_ - 0.3, ymax * 1.08);
    }
  }
  plot->legend->setVisible(true);
  plot->replot(QCustomPlot::rpQueuedReplot);
  headline_->setText(
      tr("q = %1, one run ε = %2.<br><b>MA is cheaper than LT up to K = %3</b> (Figure 6). At LT's "
         "minimum cost (γ = 1) MA can compose <b>%4</b> candidates.")
          .arg(fmt(overview.sampling_rate))
          .arg(fmt(overview.epsilon_single_run))
          .arg(crossover_)
          .arg(ma_at_lt_));
}

void PrivacyTab::fillComparison(const TuningCostOverview& overview) {
  for (int row = 0; row < kComparisonRows; ++row) {
    for (int col = 0; col < 2; ++col) {
      comparison_->setItem(
          row, col,
          new QTableWidgetItem(fmt(
              overview.comparison[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)])));
    }
  }
}

void PrivacyTab::drawFigure1(const TuningCostOverview& overview) {
  auto setup_x = [](QCustomPlot* plot) {
    setLogAxis(plot->xAxis);
    plot->xAxis->setLabel(QObject::tr("training-set size n"));
    plot->xAxis->setRange(3000, 1.5e6);
  };
  // Left: blow-up.
  {
    QCustomPlot* plot = fig1_blowup_->plot();
    plot->clearGraphs();
    setup_x(plot);
    QCPGraph* g = addLine(plot, tr("ε of LT (γ = 1) / ε of one run"), QColor(0x1f, 0x77, 0xb4),
                          Qt::SolidLine);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    double ymax = 1;
    for (const auto& p : overview.figure1_blowup) {
      g->addData(static_cast<double>(p.dataset_size), p.blowup);
      ymax = std::max(ymax, p.blowup);
    }
    plot->yAxis->setLabel(tr("blow-up (×)"));
    plot->yAxis->setRange(0, ymax * 1.15);
    plot->replot(QCustomPlot::rpQueuedReplot);
  }
  // Middle: ε_LT vs n for several γ.
  {
    QCustomPlot* plot = fig1_gamma_->plot();
    plot->clearGraphs();
    setup_x(plot);
    setLogAxis(plot->yAxis);
    std::map<double, QCPGraph*> by_gamma;
    const QColor colors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                             QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28)};
    double ymin = 1e300, ymax = 0;
    for (const auto& p : overview.figure1_gamma) {
      QCPGraph*& g = by_gamma[p.gamma];
      if (!g) {
        g = addLine(plot, QStringLiteral("γ = %1").arg(p.gamma), colors[by_gamma.size() % 4],
                    Qt::SolidLine, 1.6);
      }
      g->addData(static_cast<double>(p.dataset_size), p.epsilon_lt);
      ymin = std::min(ymin, p.epsilon_lt);
      ymax = std::max(ymax, p.epsilon_lt);
    }
    plot->yAxis->setLabel(tr("ε of LT"));                       // δ: in the title
    if (ymax > 0) plot->yAxis->setRange(ymin / 1.5, ymax * 6);  // headroom for the legend
    plot->legend->setVisible(true);
    // The lines fall from top-left to bottom-right: the top-right corner is free.
    plot->replot(QCustomPlot::rpQueuedReplot);
  }
  // Right: MA candidates at LT's γ = 1 cost.
  {
    QCustomPlot* plot = fig1_ma_->plot();
    plot->clearGraphs();
    setup_x(plot);
    setLogAxis(plot->yAxis);
    QCPGraph* g = addLine(plot, tr("MA candidates"), QColor(0xff, 0x7f, 0x0e), Qt::SolidLine);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    double ymax = 1;
    for (const auto& p : overview.figure1_ma) {
      g->addData(static_cast<double>(p.dataset_size), std::max(1, p.candidates));
      ymax = std::max<double>(ymax, p.candidates);
    }
    plot->yAxis->setLabel(tr("MA candidates K"));
    plot->yAxis->setRange(0.8, ymax * 2);
    plot->replot(QCustomPlot::rpQueuedReplot);
  }
}

}  // namespace dplab::ui
