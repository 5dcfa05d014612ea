#include "views/oso_protocol_view.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>
#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <string>

#include "charts/chart_view.h"
#include "form/presets.h"
#include "views/figure_run_panel.h"

namespace dplab::ui {
namespace {

using optim::OptimizerKind;

constexpr const char* kDefaultPreset = "oso-fashion-mnist-autoencoder-scaled.json";

QString strategyLabel(OptimizerKind kind) {
  return QString::fromStdString(tuning::oso_strategy_label(kind));
}

QColor strategyColor(OptimizerKind kind) {
  return optimizerColor(QString::fromStdString(optim::to_string(kind)));
}

QString joined(const std::vector<double>& values) {
  QStringList parts;
  for (double v : values) parts << formatReadable(v, 6);
  return parts.join(QStringLiteral(", "));
}

}  // namespace

OsoProtocolView::OsoProtocolView(QWidget* parent)
    : FigureView(tr("Run OSO protocol"), tr("OSO protocol"), 420, parent) {
  presets_ = new QComboBox(this);
  // Long preset names must not widen the settings column past its width (clipping the notes).
  presets_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  presets_->setMinimumContentsLength(16);
  presets_->setToolTip(
      tr("The shipped OSO protocol presets (resources/presets/oso-*.json) and "
         "the preset files opened here"));
  for (const QString& path : osoProtocolPresetPaths())
    presets_->addItem(QFileInfo(path).fileName(), path);
  auto* open = new QToolButton(this);
  open->setText(tr("Open…"));
  open->setToolTip(
      tr("Open an OSO protocol preset file (JSON, the keys of "
         "resources/presets/oso-fashion-mnist-logistic.json)"));
  auto* preset_row = new QHBoxLayout;
  preset_row->addWidget(presets_, 1);
  preset_row->addWidget(open);
  // Run size: the preset's values until the user changes them (the CLI's --seeds, --steps,
  // --train-subset); the engine's rules (tuning::invalid_oso_field) judge the result.
  seeds_ = new QSpinBox(this);
  seeds_->setRange(1, static_cast<int>(kMaxTrainingJobs));
  seeds_->setToolTip(tr("Seeds per configuration; a configuration's score is their mean"));
  steps_ = new QSpinBox(this);
  steps_->setRange(1, 100'000'000);
  steps_->setGroupSeparatorShown(true);
  steps_->setToolTip(tr("Training steps T per run; σ is calibrated for K T steps per grid"));
  train_rows_ = new QSpinBox(this);
  train_rows_->setRange(1, INT_MAX);  // 1 (never valid: train_subset >= 2) stands for "all"
  train_rows_->setSpecialValueText(tr("all"));
  train_rows_->setGroupSeparatorShown(true);
  train_rows_->setToolTip(tr("Train on the first N training rows only (a scaled run)"));
  auto* form = new QFormLayout;
  form->addRow(tr("preset"), preset_row);
  form->addRow(tr("seeds"), seeds_);
  form->addRow(tr("steps T"), steps_);
  form->addRow(tr("training rows"), train_rows_);
  panel()->addSettings(form);
  plan_ = new QLabel(this);
  plan_->setWordWrap(true);
  plan_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  panel()->addSettings(plan_);
  epsilon_note_ = panel()->addNote(QString());
  panel()->addNote(
      tr("Per strategy and k a grid whose K runs share the budget: FixedThreshold ρ×C (k²), "
         "FixedQuantile ρ×γ (5k), Online ρ (k), AdamWOSM C (k). A configuration's score is its "
         "best checkpoint on the validation split, averaged over seeds; the grid reports its best "
         "configuration."));
  summary_ = panel()->addSelectableNote();

  shown_ = new QComboBox(this);
  chart_ = new ChartView(tr("Figure 4 (dplab)"), QStringLiteral("oso_figure4"), this);
  connect(chart_, &ChartView::message, this, &OsoProtocolView::message);
  chart_->setCsvProvider([this] { return gridTable(); });
  table_ = newFigureTable({tr("k"), tr("strategy"), tr("ε per grid (plan)"), tr("K"), tr("σ"),
                           tr("best score (mean ± sd)"), tr("ρ"), tr("C / C₀"), tr("γ")},
                          this);
  table_->horizontalHeaderItem(3)->setToolTip(tr("K: the grid's runs, charged to its ε"));
  table_->horizontalHeaderItem(4)->setToolTip(
      tr("σ: every run's noise multiplier, calibrated so the K runs composed meet ε"));
  table_->horizontalHeaderItem(6)->setToolTip(tr("ρ: learning rate (AdamWOSM: fixed α = 10⁻³)"));
  table_->horizontalHeaderItem(7)->setToolTip(
      tr("C: clipping threshold; for the adaptive strategies (Online, FixedQuantile) the "
         "starting C₀"));
  table_->horizontalHeaderItem(8)->setToolTip(tr("γ: FixedQuantile's target quantile"));
  placeResults(chartAndTableColumn(
      tr("chart shows granularity k ="), shown_, chart_,
      tr("Table 3 (dplab): best hyperparameters per strategy, ε and k"), table_));

  connect(open, &QToolButton::clicked, this, &OsoProtocolView::openDialog);
  connect(presets_, &QComboBox::currentIndexChanged, this,
          [this] { loadPreset(presets_->currentData().toString()); });
  connect(shown_, &QComboBox::currentIndexChanged, this, [this] { draw(); });
  for (QSpinBox* box : {seeds_, steps_, train_rows_})
    connect(box, &QSpinBox::valueChanged, this, [this] {
      if (preset_) showPlan();
    });

  const int start = std::max(0, presets_->findText(QString::fromLatin1(kDefaultPreset)));
  draw();
  if (presets_->count() > 0) loadPreset(presets_->itemData(start).toString());
}

OsoProtocolView::~OsoProtocolView() = default;

bool OsoProtocolView::loadPreset(const QString& path) {
  try {
    preset_ = tuning::parse_oso_protocol(readPresetText(path), path.toStdString());
  } catch (const std::exception& e) {
    panel()->reject(QString::fromUtf8(e.what()));
    if (preset_) {  // the combo goes back to the preset still in use
      const QSignalBlocker block(presets_);
      presets_->setCurrentIndex(presets_->findData(presets_->property("loaded")));
    }
    return false;
  }
  int index = presets_->findData(path);
  if (index < 0) {
    presets_->addItem(QFileInfo(path).fileName(), path);
    index = presets_->count() - 1;
  }
  {
    const QSignalBlocker block(presets_);
    presets_->setCurrentIndex(index);
  }
  presets_->setProperty("loaded", path);
  {  // the run size starts at the preset's
    const QSignalBlocker b1(seeds_), b2(steps_), b3(train_rows_);
    seeds_->setValue(preset_->seeds);
    steps_->setValue(static_cast<int>(std::min<std::int64_t>(preset_->steps, steps_->maximum())));
    train_rows_->setValue(preset_->train_subset
                              ? static_cast<int>(std::min<std::int64_t>(*preset_->train_subset,
                                                                        train_rows_->maximum()))
                              : train_rows_->minimum());
  }
  showPlan();
  if (!result_) draw();  // the empty chart's axes name the preset's score
  panel()->setStatus(tr("preset %1 loaded").arg(QFileInfo(path).fileName()));
  return true;
}

void OsoProtocolView::openDialog() {
  const QString file = QFileDialog::getOpenFileName(this, tr("OSO protocol preset"), QString(),
                                                    tr("JSON (*.json);;All files (*)"));
  if (!file.isEmpty()) loadPreset(file);
}

QString OsoProtocolView::planText() const {
  return plan_->text();
}

tuning::OsoProtocolConfig OsoProtocolView::effectiveConfig() const {
  tuning::OsoProtocolConfig c = preset_.value_or(tuning::OsoProtocolConfig{});
  c.seeds = seeds_->value();
  c.steps = steps_->value();
  if (train_rows_->value() == train_rows_->minimum())
    c.train_subset.reset();
  else
    c.train_subset = train_rows_->value();
  return c;
}

void OsoProtocolView::showPlan() {
  const tuning::OsoProtocolConfig c = effectiveConfig();
  const tuning::OsoProtocolPlan plan = tuning::plan_oso_protocol(c);
  QString data = QString::fromStdString(c.dataset);
  if (c.train_subset) data += tr(", first %1 training rows").arg(*c.train_subset);
  if (c.validation_subset) data += tr(", first %1 validation rows").arg(*c.validation_subset);
  QStringList lines;
  lines << tr("%1: model %2 on %3 (validation fraction %4)")
               .arg(QString::fromStdString(c.name),
                    QString::fromStdString(models::to_string(c.model)), data,
                    formatReadable(c.validation_fraction));
  int k = -1;
  QString line;
  for (const auto& grid : plan.grids) {
    if (grid.granularity != k) {
      if (!line.isEmpty()) lines << line;
      k = grid.granularity;
      line = tr("k = %1, runs per grid K:").arg(k);
    } else {
      line += QLatin1Char(';');
    }
    line += tr(" %1 %2").arg(strategyLabel(grid.strategy)).arg(grid.runs);
  }
  if (!line.isEmpty()) lines << line;
  lines << tr("ε per grid (a plan): %1; δ = %2").arg(joined(c.epsilons), formatReadable(c.delta));
  lines << tr("%1 seed(s) per configuration, T = %2 steps, L = %3, best checkpoint every %4 steps")
               .arg(c.seeds)
               .arg(c.steps)
               .arg(formatReadable(c.lot_size))
               .arg(c.eval_every);
  lines << tr("work: %1 runs × T × L ≈ %2 example gradients")
               .arg(plan.total_runs)
               .arg(formatReadable(plan.example_gradients, 3));
  if (const auto bad = tuning::invalid_oso_field(c))
    lines << tr("cannot run: %1: %2")
                 .arg(QString::fromStdString(bad->key), QString::fromStdString(bad->rule));
  plan_->setText(lines.join(QLatin1Char('\n')));
  epsilon_note_->setText(QString::fromStdString(tuning::oso_epsilon_note(c.delta)));
}

bool OsoProtocolView::run() {
  if (busy()) return false;
  if (!preset_) {
    panel()->reject(tr("preset: choose or open a preset first"));
    return false;
  }
  const tuning::OsoProtocolConfig c = effectiveConfig();
  if (const auto bad = tuning::invalid_oso_field(c)) {
    panel()->reject(QString::fromStdString(bad->key + ": " + bad->rule));
    return false;
  }
  pending_ = std::make_shared<Result>();
  auto out = pending_;
  const std::int64_t total = tuning::plan_oso_protocol(c).total_runs;
  return panel()->start(
      [c, out](const std::atomic<bool>& cancel, const BackgroundTask::ProgressFn& report) {
        const auto start = std::chrono::steady_clock::now();
        report("loading " + c.dataset, 0.0);
        const data::TrainValidationSplit data = tuning::load_oso_protocol_data(c);
        out->config = c;
        out->train_rows = data.train.size();
        out->validation_rows = data.validation.size();
        out->grids = tuning::run_oso_protocol(
            c, data,
            [&report](std::int64_t done, std::int64_t all) {
              report(std::to_string(done) + " / " + std::to_string(all) + " runs",
                     static_cast<double>(done) / static_cast<double>(all));
            },
            // All cores, a grid's runs side by side, below the GUI thread's priority (the
            // background task lowers only its own thread; the runs go to the arena's).
            &cancel, {.threads = 0, .background_priority = true});
        out->wall_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      },
      static_cast<int>(std::min<std::int64_t>(total, INT_MAX)), tr("%v / %m runs"));
}

void OsoProtocolView::runEnded(bool ok) {
  if (ok) {
    result_ = std::move(*pending_);
    panel()->setStatus(tr("done: %1 grids in %2")
                           .arg(result_->grids.size())
                           .arg(formatSeconds(result_->wall_seconds)));
    summary_->setText(tr("%1: n_train = %2, n_validation = %3; wall %4.")
                          .arg(QString::fromStdString(result_->config.name))
                          .arg(result_->train_rows)
                          .arg(result_->validation_rows)
                          .arg(formatSeconds(result_->wall_seconds)));
    {
      const QSignalBlocker block(shown_);
      const QVariant kept = shown_->currentData();
      shown_->clear();
      for (int k : result_->config.granularities)
        if (shown_->findData(k) < 0) shown_->addItem(QString::number(k), k);
      shown_->setCurrentIndex(std::max(0, shown_->findData(kept)));
    }
    fillTable();
    draw();
  }
  pending_.reset();
}

QString OsoProtocolView::scoreName() const {
  // The shown result's model, else the loaded preset's (the empty chart's axis).
  const auto* config = result_ ? &result_->config : preset_ ? &*preset_ : nullptr;
  const bool higher = config ? tuning::higher_is_better(config->model) : true;
  return higher ? tr("validation accuracy") : tr("validation MSE");
}

void OsoProtocolView::fillTable() {
  table_->setRowCount(0);
  if (!result_) return;
  table_->horizontalHeaderItem(5)->setText(tr("best %1 (mean ± sd)").arg(scoreName()));
  table_->horizontalHeaderItem(2)->setToolTip(
      QString::fromStdString(tuning::oso_epsilon_note(result_->config.delta)));
  table_->setRowCount(static_cast<int>(result_->grids.size()));
  int row = 0;
  for (const auto& g : result_->grids) {
    const bool found = std::isfinite(g.score);
    const QString dash = QStringLiteral("–");
    const QStringList cells = {
        QString::number(g.granularity),
        strategyLabel(g.strategy),
        formatReadable(g.epsilon, 6),
        QString::number(g.runs),
        formatReadable(g.noise_multiplier, 4),
        !found ? tr("all diverged")
        : std::isnan(g.score_std)
            ? tr("%1 (1 seed)").arg(formatReadable(g.score, 4))
            : tr("%1 ± %2").arg(formatReadable(g.score, 4), formatReadable(g.score_std, 2)),
        found && tuning::oso_grid_has_learning_rate(g.strategy) ? formatReadable(g.learning_rate, 4)
                                                                : dash,
        found ? formatReadable(g.clip, 4) : dash,
        found && tuning::oso_grid_has_quantile(g.strategy) ? formatReadable(g.target_quantile, 2)
                                                           : dash};
    for (int c = 0; c < cells.size(); ++c) table_->setItem(row, c, new QTableWidgetItem(cells[c]));
    ++row;
  }
}

CsvTable OsoProtocolView::gridTable() const {
  CsvTable table;
  table.header = {"granularity_k",  "strategy", "epsilon_per_grid_plan", "delta",
                  "runs_K",         "seeds",    "noise_multiplier",      "score_metric",
                  "score_mean",     "score_sd", "learning_rate",         "clip",
                  "target_quantile"};
  if (!result_) return table;
  const auto& c = result_->config;
  table.constantColumns.push_back(
      {QStringLiteral("epsilon_note"), QString::fromStdString(tuning::oso_epsilon_note(c.delta))});
  const QString metric = tuning::higher_is_better(c.model) ? QStringLiteral("val_accuracy")
                                                           : QStringLiteral("val_mse");
  for (const auto& g : result_->grids) {
    const bool found = std::isfinite(g.score);
    table.rows.append(
        {QString::number(g.granularity), QString::fromStdString(optim::to_string(g.strategy)),
         formatNumber(g.epsilon), formatNumber(c.delta), QString::number(g.runs),
         QString::number(c.seeds), formatNumber(g.noise_multiplier), metric, formatNumber(g.score),
         found ? formatNumber(g.score_std) : QString(),
         found && tuning::oso_grid_has_learning_rate(g.strategy) ? formatNumber(g.learning_rate)
                                                                 : QString(),
         found ? formatNumber(g.clip) : QString(),
         found && tuning::oso_grid_has_quantile(g.strategy) ? formatNumber(g.target_quantile)
                                                            : QString()});
  }
  return table;
}

void OsoProtocolView::draw() {
  QCustomPlot* plot = chart_->plot();
  plot->clearPlottables();
  const double delta = result_ ? result_->config.delta : preset_ ? preset_->delta : 1e-5;
  plot->xAxis->setLabel(
      tr("ε per grid — a plan (δ = %1; seeds not charged)").arg(formatReadable(delta)));
  plot->yAxis->setLabel(tr("best %1 (mean ± sd over seeds)").arg(scoreName()));
  if (!result_ || shown_->count() == 0) {
    chart_->setTitle(tr("Figure 4 (dplab): run a preset"));
    plot->legend->setVisible(false);
    plot->xAxis->setRange(0, 5);
    plot->yAxis->setRange(0, 1);
    plot->replot();
    return;
  }
  const int k = shown_->currentData().toInt();
  double low = INFINITY, high = -INFINITY;
  for (const OptimizerKind strategy : result_->config.strategies) {
    QCPGraph* graph = plot->addGraph();
    graph->setName(strategyLabel(strategy));
    const QColor color = strategyColor(strategy);
    graph->setPen(QPen(color, 1.8));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, 7));
    auto* bars = new QCPErrorBars(plot->xAxis, plot->yAxis);
    bars->removeFromLegend();
    bars->setPen(QPen(color, 1.2));
    bars->setDataPlottable(graph);
    QVector<double> keys, values, errors;
    for (const auto& g : result_->grids) {
      if (g.granularity != k || g.strategy != strategy || !std::isfinite(g.score)) continue;
      keys << g.epsilon;
      values << g.score;
      errors << (std::isnan(g.score_std) ? 0.0 : g.score_std);  // one seed: no error bar
      low = std::min(low, g.epsilon);
      high = std::max(high, g.epsilon);
    }
    graph->setData(keys, values, true);
    bars->setData(errors);
  }
  if (!std::isfinite(low)) low = high = 1;  // every grid diverged: an empty chart
  const double pad = std::max(0.25, 0.08 * (high - low));
  plot->xAxis->setRange(low - pad, high + pad);
  chart_->setTitle(tr("Figure 4 (dplab): best %1 per strategy, k = %2").arg(scoreName()).arg(k));
  plot->legend->setVisible(true);
  chart_->fitValueRange();
  chart_->layoutLegend(chart_->width());
  plot->replot();
}

}  // namespace dplab::ui
