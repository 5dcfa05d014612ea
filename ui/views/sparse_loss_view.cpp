#include "views/sparse_loss_view.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "charts/chart_view.h"
#include "charts/split_or_tabs.h"
#include "privacy/accounting/epsilon_display.h"
#include "views/figure_run_panel.h"
#include "views/sparse_preset_fields.h"

namespace dplab::ui {
namespace {

using training::WideMethod;

constexpr WideMethod kAllMethods[] = {WideMethod::kNonPrivate, WideMethod::kDpSgd,
                                      WideMethod::kSparseExponential, WideMethod::kSparseVector,
                                      WideMethod::kSparseRandom};

QString epsilonUp(double epsilon) {
  return QString::fromStdString(privacy::format_epsilon_up(epsilon));
}

}  // namespace

QColor wideMethodColor(WideMethod method) {
  switch (method) {
    case WideMethod::kNonPrivate:
      return QColor(0x7f, 0x7f, 0x7f);
    case WideMethod::kDpSgd:
      return QColor(0xd6, 0x27, 0x28);
    case WideMethod::kSparseExponential:
      return QColor(0x1f, 0x77, 0xb4);
    case WideMethod::kSparseVector:
      return QColor(0x2c, 0xa0, 0x2c);
    case WideMethod::kSparseRandom:
      return QColor(0xff, 0x7f, 0x0e);
    case WideMethod::kSparseOracle:
      return QColor(0x94, 0x67, 0xbd);
  }
  return Qt::black;
}

QString wideMethodLabel(WideMethod method) {
  switch (method) {
    case WideMethod::kNonPrivate:
      return QObject::tr("non-private");
    case WideMethod::kDpSgd:
      return QObject::tr("DP-SGD");
    case WideMethod::kSparseExponential:
      return QObject::tr("sparse, exponential mechanism");
    case WideMethod::kSparseVector:
      return QObject::tr("sparse, sparse vector (SVT)");
    case WideMethod::kSparseRandom:
      return QObject::tr("sparse, random selection");
    case WideMethod::kSparseOracle:
      return QObject::tr("sparse, exact top-k, no noise (not private)");
  }
  return {};
}

SparseLossView::SparseLossView(QWidget* parent)
    : FigureView(tr("Run Figure 1"), tr("sparse DP Figure 1"), 420, parent) {
  fields_ = new SparsePresetFields(this);
  auto* methods = new QGridLayout;
  int i = 0;
  for (const WideMethod m : kAllMethods) {
    auto* box = new QCheckBox(wideMethodLabel(m), this);
    box->setChecked(true);
    method_boxes_.emplace_back(m, box);
    methods->addWidget(box, i, 0);  // one column: the settings panel has a fixed width
    ++i;
  }
  fields_->form()->addRow(tr("methods"), methods);
  panel()->addSettings(fields_);
  panel()->addNote(
      tr("All DP methods at the same total ε = 30 (sparse: 20 for the noise + 10 for the "
         "selection, the paper's split) and δ = 1e-5; the paper's Table 1 hyperparameters (b = 20, "
         "Adam lr 0.001, S1 = 15, S2 = 0.05, γ = 0.001, S0 = 0.1). Loss = mean example loss on a "
         "fixed evaluation subset."));
  calibration_ = panel()->addSelectableNote();

  train_chart_ = new ChartView(tr("Training loss (word2vec CBOW)"),
                               QStringLiteral("sparse_figure1_train_loss"), this);
  test_chart_ = new ChartView(tr("Test loss (word2vec CBOW)"),
                              QStringLiteral("sparse_figure1_test_loss"), this);
  for (ChartView* chart : {train_chart_, test_chart_}) {
    connect(chart, &ChartView::message, this, &SparseLossView::message);
  }
  train_chart_->setCsvProvider([this] { return lossTable(true); });
  test_chart_->setCsvProvider([this] { return lossTable(false); });
  // One above the other where both keep a readable plot, else as tabs (a short window).
  auto* charts = new SplitOrTabs(Qt::Vertical, this);
  charts->addPanel(train_chart_, tr("Training loss"), kLeastChartHeight);
  charts->addPanel(test_chart_, tr("Test loss"), kLeastChartHeight);
  placeResults(charts);

  draw();
}

SparseLossView::~SparseLossView() = default;

void SparseLossView::setMethods(const std::vector<WideMethod>& methods) {
  for (auto& [m, box] : method_boxes_) {
    box->setChecked(std::find(methods.begin(), methods.end(), m) != methods.end());
  }
}

std::vector<WideMethod> SparseLossView::methods() const {
  std::vector<WideMethod> out;
  for (const auto& [m, box] : method_boxes_)
    if (box->isChecked()) out.push_back(m);
  return out;
}

bool SparseLossView::run() {
  if (busy()) return false;
  QString error;
  const auto preset = fields_->preset(&error);
  const auto chosen = methods();
  if (preset && chosen.empty()) error = tr("methods: choose at least one");
  if (!preset || chosen.empty()) {
    panel()->reject(error);
    return false;
  }
  pending_ = std::make_shared<Result>();
  auto out = pending_;
  const experiment::SparsePreset p = *preset;
  return panel()->start(
      [p, chosen, out](const std::atomic<bool>& cancel, const BackgroundTask::ProgressFn& report) {
        report("reading the corpus", 0.0);
        const auto data = experiment::prepare_text(p);
        out->preset = p;
        out->raw_tokens = data.corpus.raw_tokens;
        out->kept_tokens = data.corpus.kept_tokens;
        out->vocabulary = static_cast<std::int64_t>(data.corpus.vocabulary.size());
        out->calibration = experiment::calibrate(p, data.train.size());
        out->curves = experiment::run_figure1(p, data, out->calibration, chosen, report, &cancel);
      });
}

void SparseLossView::runEnded(bool ok) {
  if (ok) {
    result_ = std::move(*pending_);
    double wall = 0;
    for (const auto& c : result_->curves) wall += c.run.wall_seconds;
    panel()->setStatus(
        tr("done: %1 runs, %2 of training").arg(result_->curves.size()).arg(formatSeconds(wall)));
    draw();
  }
  pending_.reset();
}

CsvTable SparseLossView::lossTable(bool train) const {
  CsvTable table;
  table.header = {"method", "step", "epoch", train ? "train_loss" : "test_loss"};
  if (!result_) return table;
  for (const auto& c : result_->curves) {
    for (const auto& p : c.run.curve) {
      table.rows.append(
          {QString::fromStdString(training::to_string(c.method)), QString::number(p.step),
           formatNumber(experiment::epoch_of_step(p.step, result_->preset.lot_size,
                                                  result_->calibration.train_examples)),
           formatNumber(train ? p.train_loss : p.test_loss)});
    }
  }
  return table;
}

void SparseLossView::drawLoss(ChartView* chart, bool train) {
  QCustomPlot* plot = chart->plot();
  plot->clearPlottables();
  plot->xAxis->setLabel(tr("epoch"));
  plot->yAxis->setLabel(train ? tr("training loss") : tr("test loss"));
  if (!result_) {
    plot->legend->setVisible(false);
    plot->xAxis->setRange(0, 1);
    plot->yAxis->setRange(0, 1);
    plot->replot();
    return;
  }
  double xmax = 0;
  for (const auto& c : result_->curves) {
    QCPGraph* graph = plot->addGraph();
    graph->setName(wideMethodLabel(c.method));
    graph->setPen(QPen(wideMethodColor(c.method), 1.8));
    for (const auto& p : c.run.curve) {
      const double epoch = experiment::epoch_of_step(p.step, result_->preset.lot_size,
                                                     result_->calibration.train_examples);
      graph->addData(epoch, train ? p.train_loss : p.test_loss);
      xmax = std::max(xmax, epoch);
    }
  }
  plot->xAxis->setRange(0, xmax > 0 ? xmax : 1);
  plot->legend->setVisible(true);
  chart->fitValueRange();
  chart->layoutLegend(chart->width());
  plot->replot();
}

void SparseLossView::draw() {
  drawLoss(train_chart_, true);
  drawLoss(test_chart_, false);
  calibration_->setText(calibrationText());
}

QString SparseLossView::calibrationText() const {
  if (!result_) return {};
  const auto& c = result_->calibration;
  QString text = tr("corpus: %1 tokens, %2 kept, |V| = %3; n = %4 training pairs, T = %5 steps, "
                    "q = %6.\nPrivacy (δ = %7; released: the final embedding table of each run):")
                     .arg(result_->raw_tokens)
                     .arg(result_->kept_tokens)
                     .arg(result_->vocabulary)
                     .arg(c.train_examples)
                     .arg(c.steps)
                     .arg(formatReadable(c.sampling_rate))
                     .arg(formatReadable(result_->preset.delta));
  for (const auto& curve : result_->curves) {
    const auto& m = c.of(curve.method);
    text += "\n• " + wideMethodLabel(m.method) + ": ";
    if (m.method == WideMethod::kNonPrivate) {
      text += tr("no privacy guarantee");
      continue;
    }
    text += tr("σ = %1").arg(formatReadable(m.noise_multiplier, 4));
    if (m.method == WideMethod::kDpSgd) {
      text += tr(", RDP ε ≤ %1").arg(epsilonUp(m.rdp.epsilon));
      continue;
    }
    text += tr(", Theorem 3 route ε ≤ %1 (paper's formula %2 amplifies by q·ε, too small; its "
               "assumption %3)")
                .arg(epsilonUp(m.theorem3.epsilon))
                .arg(epsilonUp(m.theorem3.paper_epsilon))
                .arg(m.theorem3.assumption_holds ? tr("holds") : tr("is VIOLATED"));
    text += m.rdp.available ? tr(", dplab RDP ε ≤ %1").arg(epsilonUp(m.rdp.epsilon))
                            : tr(", no RDP account for SVT");
  }
  return text;
}

}  // namespace dplab::ui
