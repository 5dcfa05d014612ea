#include "views/one_run_audit_view.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "audit/fdp_one_run_bound.h"
#include "audit/last_iterate_heuristic.h"
#include "charts/chart_view.h"
#include "charts/split_or_tabs.h"
#include "core/error.h"
#include "core/number_list.h"
#include "data/dataset_catalog.h"
#include "data/prepare_split.h"
#include "data/synthetic.h"
#include "views/figure_run_panel.h"

namespace dplab::ui {
namespace {

// The audit chart's legend has eight entries (bounds, audit, ceiling, fits): two to four rows
// over a 150-px plot.
constexpr int kLeastAuditChartHeight = 430;

const QColor kUpperColor(0x1f, 0x77, 0xb4);      // accountant: blue
const QColor kLowerColor(0xd6, 0x27, 0x28);      // audit: red
const QColor kEstimateColor(0x2c, 0xa0, 0x2c);   // estimate: green
const QColor kOpenColor(0x7f, 0x7f, 0x7f);       // non-private run: grey
const QColor kFdpColor(0xff, 0x7f, 0x0e);        // f-DP bound: orange
const QColor kHeuristicColor(0x94, 0x67, 0xbd);  // last-iterate heuristic: purple

QString eps(double value) {
  return std::isinf(value) ? QStringLiteral("∞") : formatReadable(value, 3);
}

QString csvEps(double value) {
  return std::isinf(value) ? QStringLiteral("inf") : formatNumber(value);
}

// The f-DP bound of a bound (none only at delta = 0, which the view refuses).
double fdpOf(const audit::AuditBound& b) {
  return b.fdp ? b.fdp->epsilon_lower_bound : 0.0;
}

// The final-model audit of a row: white-box's final-model-only bound, black-box's only bound.
const audit::AuditBound& finalModelBound(const audit::OneRunAuditResult& a) {
  return a.final_model_bound ? *a.final_model_bound : a.bound;
}

}  // namespace

OneRunAuditView::Settings OneRunAuditView::defaultSettings() {
  Settings s;
  s.dataset = "synthetic-wide";
  auto& run = s.sweep.run;
  run.model.kind = models::ModelKind::kLogisticRegression;
  run.optimizer = optim::default_spec(optim::OptimizerKind::kDpSgd);
  run.optimizer.learning_rate = 0.5;
  run.dp.clip = 1.0;
  run.dp.lot_size = 300;  // the whole training set: q = 1, the strongest white-box setting
  run.steps = 20;
  run.seed = 1;
  s.sweep.epsilon_targets = {1, 2, 4, 8};
  s.sweep.options.canaries = 1000;
  s.sweep.options.mode = audit::AuditMode::kWhiteBox;
  s.sweep.options.confidence = 0.95;
  s.sweep.options.delta = 1e-5;
  s.sweep.options.seed = 2;
  return s;
}

data::TrainValidationSplit OneRunAuditView::loadData(const std::string& dataset) {
  if (dataset == "synthetic-wide") {
    // As wide as there are canaries (chosen for random-direction canaries; the default Dirac
    // canaries on reserved coordinates do not depend on d, audit/reserved_coordinates_model.h).
    data::SyntheticBinaryOptions o;
    o.num_samples = 400;
    o.dim = 1000;
    o.label_noise = 0.05;
    o.seed = 3;
    return data::split_train_validation(data::make_synthetic_binary(o), 0.25, 4);
  }
  return data::prepare_split(data::load_dataset(data::source_for(dataset)), 0.2, 0);
}

OneRunAuditView::OneRunAuditView(QWidget* parent)
    : FigureView(tr("Run audit"), tr("one-run audit"), 290, parent) {
  dataset_ = new QComboBox(this);
  dataset_->addItem(tr("synthetic, wide"), QStringLiteral("synthetic-wide"));
  dataset_->addItem(tr("Adult"), QStringLiteral("adult"));
  dataset_->addItem(tr("Fashion-MNIST"), QStringLiteral("fashion-mnist"));
  model_ = new QComboBox(this);
  model_->addItem(tr("logistic"), QStringLiteral("logistic"));
  model_->addItem(tr("TLNN"), QStringLiteral("tlnn"));
  model_->addItem(tr("CNN (slow)"), QStringLiteral("cnn"));
  epsilons_ = new QLineEdit(this);
  epsilons_->setObjectName(QStringLiteral("epsilonTargets"));
  epsilons_->setToolTip(
      tr("Comma-separated target ε values (each > 0); σ is calibrated to each "
         "with the RDP accountant"));
  delta_ = new QLineEdit(this);
  steps_ = new QSpinBox(this);
  steps_->setRange(1, 1'000'000);
  lot_size_ = new QSpinBox(this);
  lot_size_->setRange(1, 10'000'000);
  lot_size_->setToolTip(tr("Expected lot size L (q = L/n); L = n is full-batch DP-GD"));
  learning_rate_ = new QDoubleSpinBox(this);
  learning_rate_->setRange(1e-4, 100);
  learning_rate_->setDecimals(4);
  clip_ = new QDoubleSpinBox(this);
  clip_->setRange(1e-3, 1e3);
  clip_->setDecimals(3);
  mode_ = new QComboBox(this);
  mode_->addItem(tr("white-box"), QStringLiteral("whitebox"));
  mode_->addItem(tr("black-box"), QStringLiteral("blackbox"));
  canaries_ = new QSpinBox(this);
  canaries_->setRange(10, 1'000'000);
  canaries_->setToolTip(tr("m canaries, each included with probability ½"));
  confidence_ = new QDoubleSpinBox(this);
  confidence_->setRange(0.5, 0.999);
  confidence_->setDecimals(3);
  confidence_->setSingleStep(0.01);
  seed_ = new QSpinBox(this);
  seed_->setRange(0, 1'000'000);
  seed_->setToolTip(tr("Seed of the run; the canaries use seed + 1"));
  dataset_->setToolTip(
      tr("synthetic, wide: n 400, d 1,000 (seconds per run); Adult: built in; "
         "Fashion-MNIST: the installed data set"));
  mode_->setToolTip(
      tr("white-box: Dirac gradient canaries, one per reserved coordinate the model never reads, "
         "scored on every released gradient; "
         "black-box: mislabelled examples, scored by their loss on the final model"));
  for (QWidget* w :
       std::initializer_list<QWidget*>{dataset_, model_, epsilons_, delta_, steps_, lot_size_,
                                       learning_rate_, clip_, mode_, canaries_, confidence_, seed_})
    w->setMinimumWidth(0);
  auto* form = new QFormLayout;
  form->addRow(tr("data set"), dataset_);
  form->addRow(tr("model"), model_);
  form->addRow(tr("target ε"), epsilons_);
  form->addRow(tr("δ"), delta_);
  form->addRow(tr("steps T"), steps_);
  form->addRow(tr("lot L"), lot_size_);
  form->addRow(tr("learning rate"), learning_rate_);
  form->addRow(tr("clip C"), clip_);
  form->addRow(tr("audit"), mode_);
  form->addRow(tr("canaries m"), canaries_);
  form->addRow(tr("confidence"), confidence_);
  form->addRow(tr("seed"), seed_);
  panel()->addSettings(form);
  panel()->addNote(
      tr("Upper bound: the accountant's ε (PLD; the band reaches up to RDP). Lower bound: what one "
         "training run with m canaries proves at the stated confidence (Steinke, Nasr & Jagielski "
         "2023); the true ε of the training algorithm lies between. f-DP: a lower bound from the "
         "same guesses that also assumes the run's trade-off curve is Gaussian (Mahloujifar et al. "
         "2025). Ceiling: the most m canaries could prove. Last iterate: what a final-model audit "
         "can be expected to reach, computed before the run — a heuristic (Steinke et al. 2025), "
         "not a bound. Estimate: a Gaussian fit to the canary scores (Andrew et al. 2024) — an "
         "estimate, not a bound. The non-private run (σ = 0, no clipping) shows the attack's "
         "power on this data. Audit numbers are statistics of the trained model: not covered by "
         "ε."));
  summary_ = panel()->addSelectableNote();

  chart_ = new ChartView(tr("How private is it really? Accountant's ε vs audited ε"),
                         QStringLiteral("one_run_audit"), this);
  connect(chart_, &ChartView::message, this, &OneRunAuditView::message);
  chart_->setCsvProvider([this] { return csvTable(); });
  table_ =
      newFigureTable({tr("target ε"), tr("σ"), tr("ε ≤ (RDP)"), tr("ε ≤ (PLD)"), tr("audited ε ≥"),
                      tr("f-DP ε ≥ (Gaussian shape)"), tr("ceiling"), tr("m / r / v"),
                      tr("final model ε ≥"), tr("last iterate (heuristic, not a bound)"),
                      tr("estimate (not a bound)"), tr("val. acc."), tr("time")},
                     this);
  table_->setMaximumHeight(170);
  placeResults(chartOverTable(chart_,
                              tr("Audit per run (the last row: the same run without privacy)"),
                              table_, kLeastAuditChartHeight));

  setSettings(defaultSettings());
  draw();
}

OneRunAuditView::~OneRunAuditView() = default;

void OneRunAuditView::setSettings(const Settings& s) {
  const int data_index = dataset_->findData(QString::fromStdString(s.dataset));
  if (data_index >= 0) dataset_->setCurrentIndex(data_index);
  const char* model = s.sweep.run.model.kind == models::ModelKind::kTwoLayerNetwork ? "tlnn"
                      : s.sweep.run.model.kind == models::ModelKind::kCnn           ? "cnn"
                                                                                    : "logistic";
  model_->setCurrentIndex(model_->findData(QString::fromLatin1(model)));
  QStringList targets;
  for (double e : s.sweep.epsilon_targets) targets << QString::number(e, 'g', 6);
  epsilons_->setText(targets.join(", "));
  delta_->setText(QString::number(s.sweep.options.delta, 'g', 6));
  steps_->setValue(static_cast<int>(s.sweep.run.steps));
  lot_size_->setValue(static_cast<int>(s.sweep.run.dp.lot_size));
  learning_rate_->setValue(s.sweep.run.optimizer.learning_rate);
  clip_->setValue(s.sweep.run.dp.clip);
  mode_->setCurrentIndex(
      mode_->findData(QString::fromLatin1(audit::to_string(s.sweep.options.mode))));
  canaries_->setValue(s.sweep.options.canaries);
  confidence_->setValue(s.sweep.options.confidence);
  seed_->setValue(static_cast<int>(s.sweep.run.seed));
}

std::optional<OneRunAuditView::Settings> OneRunAuditView::settingsFromFields(QString* error) const {
  Settings s = defaultSettings();
  s.dataset = dataset_->currentData().toString().toStdString();
  s.sweep.run.model.kind = models::parse_model_kind(model_->currentData().toString().toStdString());
  try {
    s.sweep.epsilon_targets =
        parse_positive_list(epsilons_->text().toStdString(), "target ε values");
  } catch (const Error& e) {
    *error = QString::fromStdString(e.what());
    return std::nullopt;
  }
  bool ok = false;
  s.sweep.options.delta = delta_->text().trimmed().toDouble(&ok);
  if (!ok || !(s.sweep.options.delta > 0 && s.sweep.options.delta < 1)) {
    *error = tr("δ: \"%1\" is not a number in (0, 1)").arg(delta_->text().trimmed());
    return std::nullopt;
  }
  s.sweep.run.steps = steps_->value();
  s.sweep.run.dp.lot_size = lot_size_->value();
  s.sweep.run.optimizer.learning_rate = learning_rate_->value();
  s.sweep.run.dp.clip = clip_->value();
  s.sweep.options.mode = audit::parse_audit_mode(mode_->currentData().toString().toStdString());
  s.sweep.options.canaries = canaries_->value();
  s.sweep.options.confidence = confidence_->value();
  s.sweep.run.seed = static_cast<std::uint64_t>(seed_->value());
  s.sweep.options.seed = s.sweep.run.seed + 1;
  return s;
}

bool OneRunAuditView::run() {
  if (busy()) return false;
  QString error;
  const auto settings = settingsFromFields(&error);
  if (!settings) {
    panel()->reject(error);
    return false;
  }
  pending_ = std::make_shared<std::vector<audit::PrivacyGapRow>>();
  auto out = pending_;
  const Settings s = *settings;
  shown_ = s;
  return panel()->start(
      [s, out](const std::atomic<bool>& cancel, const BackgroundTask::ProgressFn& report) {
        report("loading " + s.dataset, 0.0);
        const auto data = loadData(s.dataset);
        *out = audit::run_privacy_gap_sweep(data, s.sweep, report, &cancel);
      });
}

void OneRunAuditView::runEnded(bool ok) {
  if (ok) {
    rows_ = std::move(*pending_);
    double wall = 0;
    for (const auto& r : *rows_) wall += r.audit.wall_seconds;
    panel()->setStatus(tr("done: %1 audited runs, %2").arg(rows_->size()).arg(formatSeconds(wall)));
    fillTable();
    draw();
    summary_->setText(summaryText());
  }
  pending_.reset();
}

QString OneRunAuditView::summaryText() const {
  if (!rows_ || rows_->size() < 2) return {};
  const auto& top = (*rows_)[rows_->size() - 2];  // the largest target
  const auto& open = rows_->back();
  const int percent = static_cast<int>(std::lround(100 * shown_.sweep.options.confidence));
  return tr("At target ε = %1 the accountant guarantees ε ≤ %2 (PLD); the audit proves ε ≥ %3 "
            "with %4 % confidence (ceiling %5). The truth is in between.\n%6: ε ≥ %7 on the same "
            "guesses (ceiling %8).\nWithout privacy the same audit proves ε ≥ %9 (ceiling %10).\n"
            "Final model: the audit proves ε ≥ %11; the last-iterate prediction is %12, %13.\n"
            "Gaussian-fit estimate at ε = %1: %14 (estimate, not a bound).")
      .arg(eps(top.epsilon_target), eps(top.epsilon_pld), eps(top.audit.bound.epsilon_lower_bound))
      .arg(percent)
      .arg(eps(top.audit.bound.ceiling), QString::fromLatin1(audit::kFdpAssumption),
           eps(fdpOf(top.audit.bound)),
           eps(top.audit.bound.fdp ? top.audit.bound.fdp->ceiling : 0.0),
           eps(open.audit.bound.epsilon_lower_bound), eps(open.audit.bound.ceiling),
           eps(finalModelBound(top.audit).epsilon_lower_bound), eps(top.last_iterate_epsilon),
           QString::fromLatin1(audit::kLastIterateLabel))
      .arg(eps(top.estimate.epsilon));
}

void OneRunAuditView::fillTable() {
  table_->setRowCount(0);
  if (!rows_) return;
  table_->setRowCount(static_cast<int>(rows_->size()));
  int i = 0;
  for (const auto& r : *rows_) {
    const auto& b = r.audit.bound;
    const QStringList cells = {r.is_private ? eps(r.epsilon_target) : tr("non-private"),
                               formatReadable(r.noise_multiplier, 3),
                               eps(r.epsilon_rdp),
                               eps(r.epsilon_pld),
                               eps(b.epsilon_lower_bound),
                               eps(fdpOf(b)),
                               eps(b.ceiling),
                               QStringLiteral("%1 / %2 / %3")
                                   .arg(b.counts.canaries)
                                   .arg(b.counts.guesses)
                                   .arg(b.counts.correct),
                               eps(finalModelBound(r.audit).epsilon_lower_bound),
                               eps(r.last_iterate_epsilon),
                               eps(r.estimate.epsilon),
                               formatReadable(r.audit.final_validation_accuracy, 3),
                               formatSeconds(r.audit.wall_seconds)};
    for (int c = 0; c < cells.size(); ++c) table_->setItem(i, c, new QTableWidgetItem(cells[c]));
    ++i;
  }
}

CsvTable OneRunAuditView::csvTable() const {
  CsvTable table;
  table.constantColumns.push_back(
      {QStringLiteral("note"),
       QStringLiteral("one-run audit (Steinke, Nasr & Jagielski 2023); "
                      "epsilon_lower_bound is a LOWER bound at the stated confidence (a "
                      "statistic of the trained model, not covered by epsilon); epsilon_rdp / "
                      "epsilon_pld are the accountants' UPPER bounds; fdp_epsilon_lower_bound is a "
                      "LOWER bound on the same guesses under the hypothesis that the run's "
                      "trade-off curve is Gaussian (f-DP, Mahloujifar et al. 2025); "
                      "last_iterate_heuristic_epsilon_not_a_bound is the last-iterate prediction "
                      "for the final model, computed before the run: a heuristic (Steinke et al. "
                      "2025), not a bound; estimate_epsilon is an estimate, not a bound (Gaussian "
                      "fit, Andrew et al. 2024)")});
  table.header = {"run",
                  "dataset",
                  "mode",
                  "epsilon_target",
                  "noise_multiplier",
                  "sampling_rate",
                  "steps",
                  "delta",
                  "confidence",
                  "epsilon_rdp",
                  "epsilon_pld",
                  "epsilon_lower_bound",
                  "pure_epsilon_lower_bound",
                  "ceiling",
                  "canaries",
                  "included",
                  "guesses",
                  "correct",
                  "k_plus",
                  "k_minus",
                  "guess_sets",
                  "final_model_epsilon_lower_bound",
                  "fdp_epsilon_lower_bound",
                  "fdp_ceiling",
                  "final_model_fdp_epsilon_lower_bound",
                  "last_iterate_heuristic_epsilon_not_a_bound",
                  "estimate_epsilon_not_a_bound",
                  "estimate_mu",
                  "validation_accuracy",
                  "wall_seconds"};
  if (!rows_) return table;
  for (const auto& r : *rows_) {
    const auto& a = r.audit;
    const auto& b = a.bound;
    table.rows.append(
        {r.is_private ? QStringLiteral("private") : QStringLiteral("non-private"),
         QString::fromStdString(shown_.dataset),
         QString::fromLatin1(audit::to_string(a.mode)),
         csvEps(r.epsilon_target),
         formatNumber(r.noise_multiplier),
         formatNumber(a.sampling_rate),
         QString::number(a.queries),
         formatNumber(shown_.sweep.options.delta),
         formatNumber(shown_.sweep.options.confidence),
         csvEps(r.epsilon_rdp),
         csvEps(r.epsilon_pld),
         formatNumber(b.epsilon_lower_bound),
         formatNumber(b.pure_epsilon_lower_bound),
         formatNumber(b.ceiling),
         QString::number(b.counts.canaries),
         QString::number(a.canaries_included),
         QString::number(b.counts.guesses),
         QString::number(b.counts.correct),
         QString::number(b.guess_set.top_in),
         QString::number(b.guess_set.bottom_out),
         QString::number(b.sets_tried),
         a.final_model_bound ? formatNumber(a.final_model_bound->epsilon_lower_bound) : QString(),
         formatNumber(fdpOf(b)),
         formatNumber(b.fdp ? b.fdp->ceiling : 0.0),
         a.final_model_bound ? formatNumber(fdpOf(*a.final_model_bound)) : QString(),
         csvEps(r.last_iterate_epsilon),
         csvEps(r.estimate.epsilon),
         csvEps(r.estimate.mu),
         formatNumber(a.final_validation_accuracy),
         formatNumber(a.wall_seconds)});
  }
  return table;
}

void OneRunAuditView::draw() {
  QCustomPlot* plot = chart_->plot();
  plot->clearGraphs();
  // Log scale, ticks at the targets themselves ("1, 2, 4, 8", not powers of ten).
  plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
  QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
  if (rows_) {
    for (const auto& r : *rows_)
      if (r.is_private) ticks->addTick(r.epsilon_target, formatTick(r.epsilon_target));
  }
  plot->xAxis->setTicker(ticks);
  plot->xAxis->setLabel(tr("target ε (σ calibrated by RDP)"));
  plot->yAxis->setLabel(tr("ε at δ = %1").arg(shown_.sweep.options.delta, 0, 'g', 2));
  QCPGraph* pld = plot->addGraph();
  pld->setName(tr("accountant ε ≤ (PLD)"));
  pld->setPen(QPen(kUpperColor, 2.0));
  pld->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
  QCPGraph* rdp = plot->addGraph();
  rdp->setName(tr("accountant ε ≤ (RDP)"));
  rdp->setPen(QPen(kUpperColor.lighter(140), 1.2, Qt::DashLine));
  rdp->setBrush(QColor(kUpperColor.red(), kUpperColor.green(), kUpperColor.blue(), 50));
  rdp->setChannelFillGraph(pld);
  QCPGraph* lower = plot->addGraph();
  lower->setName(tr("audited ε ≥ (%1 %)").arg(std::lround(100 * shown_.sweep.options.confidence)));
  lower->setPen(QPen(kLowerColor, 2.0));
  lower->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 7));
  lower->setBrush(QColor(kLowerColor.red(), kLowerColor.green(), kLowerColor.blue(), 50));
  QCPGraph* ceiling = plot->addGraph();
  ceiling->setName(tr("audit ceiling"));
  ceiling->setPen(QPen(kLowerColor.darker(130), 1.6, Qt::DotLine));
  // Over every other line: the white-box ceiling (every guess right) is what the non-private run
  // proves, and that line, drawn later, covered it.
  if (!plot->layer(QStringLiteral("dplabAbove")))
    plot->addLayer(QStringLiteral("dplabAbove"), plot->layer(QStringLiteral("main")),
                   QCustomPlot::limAbove);
  ceiling->setLayer(QStringLiteral("dplabAbove"));
  QCPGraph* estimate = plot->addGraph();
  estimate->setName(tr("Gaussian fit: estimate, not a bound"));
  estimate->setLineStyle(QCPGraph::lsNone);
  estimate->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssCrossSquare, kEstimateColor, Qt::white, 8));
  QCPGraph* open = plot->addGraph();
  // Wider than the ceiling drawn over it: the two coincide when the non-private run gets every
  // guess right, and both stay in sight.
  open->setPen(QPen(kOpenColor, 3.0, Qt::DashDotLine));
  open->setName(tr("non-private run: audited ε ≥"));
  QCPGraph* fdp = plot->addGraph();
  fdp->setName(tr("f-DP ε ≥ (Gaussian trade-off shape)"));
  fdp->setPen(QPen(kFdpColor, 1.8));
  fdp->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, 6));
  QCPGraph* heuristic = plot->addGraph();
  heuristic->setName(tr("last iterate: heuristic, not a bound"));
  heuristic->setPen(QPen(kHeuristicColor, 1.2, Qt::DashLine));
  heuristic->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssCross, kHeuristicColor, Qt::white, 7));
  double x0 = 1, x1 = 10, ymax = 1;
  if (rows_ && rows_->size() >= 2) {
    x0 = rows_->front().epsilon_target;
    x1 = (*rows_)[rows_->size() - 2].epsilon_target;
    for (const auto& r : *rows_) {
      if (!r.is_private) {
        open->addData(x0, r.audit.bound.epsilon_lower_bound);
        open->addData(x1, r.audit.bound.epsilon_lower_bound);
        ymax = std::max(ymax, r.audit.bound.epsilon_lower_bound);
        continue;
      }
      pld->addData(r.epsilon_target, r.epsilon_pld);
      rdp->addData(r.epsilon_target, r.epsilon_rdp);
      lower->addData(r.epsilon_target, r.audit.bound.epsilon_lower_bound);
      ceiling->addData(r.epsilon_target, r.audit.bound.ceiling);
      fdp->addData(r.epsilon_target, fdpOf(r.audit.bound));
      ymax = std::max({ymax, r.epsilon_rdp, r.audit.bound.ceiling, fdpOf(r.audit.bound)});
      if (std::isfinite(r.last_iterate_epsilon)) {
        heuristic->addData(r.epsilon_target, r.last_iterate_epsilon);
        ymax = std::max(ymax, r.last_iterate_epsilon);
      }
      if (std::isfinite(r.estimate.epsilon)) {
        estimate->addData(r.epsilon_target, r.estimate.epsilon);
        ymax = std::max(ymax, r.estimate.epsilon);
      }
    }
  }
  const double pad = x1 > x0 ? std::pow(x1 / x0, 0.08) : 2.0;
  plot->xAxis->setRange(x0 / pad, x1 * pad);
  plot->yAxis->setRange(0, ymax * 1.1);
  plot->legend->setVisible(true);
  chart_->layoutLegend(chart_->width());
  plot->replot();
}

}  // namespace dplab::ui
