#include "form/experiment_form.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>
#include <cmath>

#include "charts/theme.h"
#include "data/dataset_catalog.h"
#include "experiment/release_repeats.h"
#include "form/import_dialog.h"
#include "form/number_field.h"
#include "form/optimizer_editor.h"
#include "form/privacy_section.h"
#include "form/release_section.h"
#include "form/wheel_guard.h"
#include "privacy/accounting/epsilon_display.h"
#include "tuning/accounting.h"
#include "tuning/data_checks.h"
#include "tuning/release_cost.h"

namespace dplab::ui {

using experiment::ExperimentConfig;
using optim::OptimizerKind;

namespace {
constexpr int kSourceRole = Qt::UserRole;
constexpr int kFormatRole = Qt::UserRole + 1;
constexpr int kLabelRole = Qt::UserRole + 2;
const char* const kDataHelp =
    "The data set: built-in (Fashion-MNIST from the Debian package, synthetic sets) or a file "
    "imported with Import… . It is split 80/20 into training (n examples) and validation sets.";
}  // namespace

ExperimentForm::ExperimentForm(QWidget* parent) : QWidget(parent), loader_(new DataLoader(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(buildDataBox());
  privacy_ = new PrivacySection(this);
  layout->addWidget(privacy_);
  auto* opt_box = new QGroupBox(tr("Optimizers to compare"), this);
  opt_box->setToolTip(
      tr("Tick the DP optimizers to compare; each has its own hyperparameter grid. "
         "Every candidate of every optimizer is charged in the honest ε."));
  auto* opt_layout = new QVBoxLayout(opt_box);
  opt_layout->setContentsMargins(4, 4, 4, 4);
  // The flat-clipping optimizers, then each fixed-C one again with automatic clipping (Bu et al.
  // 2023: no C grid), so that a search can compare the two.
  const OptimizerKind kinds[] = {OptimizerKind::kDpSgd,    OptimizerKind::kDpMomentum,
                                 OptimizerKind::kDpAdam,   OptimizerKind::kDpAdamBc,
                                 OptimizerKind::kAdaDp,    OptimizerKind::kDpAdamWosm,
                                 OptimizerKind::kOsoDpSgd, OptimizerKind::kFixedQuantile};
  for (models::ClippingMode clipping :
       {models::ClippingMode::kFlat, models::ClippingMode::kAutomatic}) {
    for (OptimizerKind kind : kinds) {
      if (clipping == models::ClippingMode::kAutomatic && !optim::supports_automatic_clipping(kind))
        continue;
      auto* editor = new OptimizerEditor(kind, clipping, opt_box);
      optimizers_ << editor;
      opt_layout->addWidget(editor);
      connect(editor, &OptimizerEditor::edited, this, &ExperimentForm::onEdited);
    }
  }
  layout->addWidget(opt_box);
  layout->addWidget(buildTuningBox());
  auto* release_box = new QGroupBox(tr("Release (what ε covers)"), this);
  auto* release_layout = new QVBoxLayout(release_box);
  release_layout->setContentsMargins(6, 4, 6, 4);
  release_ = new ReleaseSection(release_box);
  release_layout->addWidget(release_);
  layout->addWidget(release_box);
  layout->addStretch(1);
  connect(release_, &ReleaseSection::edited, this, [this] {
    updateSeedRow();
    onEdited();
  });

  connect(privacy_, &PrivacySection::edited, this, &ExperimentForm::onEdited);
  connect(loader_, &DataLoader::loaded, this, &ExperimentForm::onDataLoaded);
  connect(loader_, &DataLoader::failed, this, &ExperimentForm::onDataFailed);
  // Scrolling the form with the wheel never edits a field that does not have the focus.
  new WheelGuard(this);
  // Combo boxes as narrow as a few characters (their popups still show the whole text): long
  // entries otherwise made the form wider than its dock, and Tab scrolled it sideways.
  for (QComboBox* combo : findChildren<QComboBox*>()) {
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(8);
  }
  // A row too wide for the dock puts its field below its label instead of widening the form.
  for (QFormLayout* rows : findChildren<QFormLayout*>())
    rows->setRowWrapPolicy(QFormLayout::WrapLongRows);
}

QWidget* ExperimentForm::buildDataBox() {
  auto* box = new QGroupBox(tr("Data and model"), this);
  auto* form = new QFormLayout(box);
  form->setContentsMargins(6, 4, 6, 4);
  auto* row = new QHBoxLayout;
  dataset_ = new QComboBox(box);
  dataset_->setToolTip(tr(kDataHelp));
  for (const auto& info : data::builtin_datasets()) {
    if (info.needs_path) continue;  // e.g. Adult: import its folder/file instead
    dataset_->addItem(QString::fromStdString(info.name), QString::fromStdString(info.name));
    dataset_->setItemData(dataset_->count() - 1, QString::fromStdString(info.description),
                          Qt::ToolTipRole);
  }
  auto* import_button = new QPushButton(tr("Import…"), box);
  import_button->setToolTip(
      tr("Load an IDX, CSV or LIBSVM file (preview, label column, class "
         "balance)."));
  row->addWidget(dataset_, 1);
  row->addWidget(import_button);
  form->addRow(tr("Data set"), row);
  data_info_ = new QLabel(box);
  data_info_->setWordWrap(true);
  setTone(data_info_, Tone::kNote);
  form->addRow(data_info_);
  validation_fraction_ = new NumberField(
      tr("Fraction of the data held out for validation (paper appendix H: 0.2); validation "
         "accuracy is what the charts show."),
      NumberField::openInterval(0, 1), box);
  form->addRow(tr("validation fraction"), validation_fraction_);
  model_ = new QComboBox(box);
  model_->addItem(tr("logistic regression"), QStringLiteral("logistic"));
  model_->addItem(tr("two-layer network (TLNN)"), QStringLiteral("tlnn"));
  model_->addItem(tr("CNN (28×28 images)"), QStringLiteral("cnn"));
  model_->addItem(tr("conv autoencoder (28×28 images, MSE)"), QStringLiteral("conv-autoencoder"));
  model_->addItem(tr("wide CNN (28×28 images, Tramèr–Boneh)"), QStringLiteral("wide-cnn"));
  model_->addItem(tr("linear regression"), QStringLiteral("linear"));
  model_->setToolTip(
      tr("The model trained by every candidate: logistic regression (LR), a "
         "one-hidden-layer ReLU network (TLNN), or linear regression for "
         "real-valued targets."));
  form->addRow(tr("Model"), model_);
  hidden_units_ = new QSpinBox(box);
  hidden_units_->setRange(1, 4096);
  hidden_units_->setValue(100);
  hidden_units_->setToolTip(tr("TLNN hidden units (paper: 100)."));
  form->addRow(tr("hidden units"), hidden_units_);
  connect(dataset_, &QComboBox::currentIndexChanged, this, &ExperimentForm::onEdited);
  connect(import_button, &QPushButton::clicked, this, &ExperimentForm::importFile);
  connect(validation_fraction_, &NumberField::edited, this, &ExperimentForm::onEdited);
  connect(model_, &QComboBox::currentIndexChanged, this, [this] {
    hidden_units_->setEnabled(model_->currentData().toString() == QLatin1String("tlnn"));
    onEdited();
  });
  connect(hidden_units_, &QSpinBox::valueChanged, this, &ExperimentForm::onEdited);
  return box;
}

QWidget* ExperimentForm::buildTuningBox() {
  auto* box = new QGroupBox(tr("Tuning"), this);
  auto* form = new QFormLayout(box);
  tuning_layout_ = form;
  form->setContentsMargins(6, 4, 6, 4);
  strategy_ = new QComboBox(box);
  strategy_->addItem(tr("grid (every combination)"), QStringLiteral("grid"));
  strategy_->addItem(tr("random search"), QStringLiteral("random"));
  strategy_->addItem(tr("Liu–Talwar (LT) random stopping"), QStringLiteral("lt"));
  strategy_->setToolTip(
      tr("How candidates are chosen: the full grid, seeded random draws, or the "
         "pool that the LT algorithm samples from (paper section 3.1)."));
  form->addRow(tr("Strategy"), strategy_);
  gamma_ = new NumberField(tr("γ: LT's stopping probability after each draw; about 1/γ candidates "
                              "are tried. Empty = 1/K (paper appendix F)."),
                           NumberField::Rule([](double v) {
                             return (v > 0 && v <= 1) ? QString() : tr("must be in (0, 1]");
                           }),
                           box);
  gamma_->setAllowEmpty(true, tr("default: 1/K"));
  form->addRow(tr("γ (LT)"), gamma_);
  repeats_ = new QSpinBox(box);
  repeats_->setRange(1, 100);
  repeats_->setToolTip(
      tr("Runs per candidate with different seeds (paper: 3). Repeats are "
         "charged like separate runs."));
  form->addRow(tr("repeats"), repeats_);
  threads_ = new QSpinBox(box);
  threads_->setRange(0, 256);
  threads_->setSpecialValueText(tr("all cores"));
  threads_->setValue(0);
  threads_->setToolTip(
      tr("Worker threads for training jobs (0 = all hardware threads). Results do "
         "not depend on it."));
  form->addRow(tr("threads"), threads_);
  seed_ = new QSpinBox(box);
  seed_->setRange(0, 2147483647);
  seed_->setToolTip(tr("Experiment seed: same seed and config give bit-identical curves."));
  form->addRow(tr("seed"), seed_);
  eval_every_ = new QSpinBox(box);
  eval_every_->setRange(1, 1000000);
  eval_every_->setValue(100);
  eval_every_->setToolTip(
      tr("A curve point (validation accuracy, ε so far) every this many "
         "noisy-gradient queries (paper: 100)."));
  form->addRow(tr("evaluate every"), eval_every_);
  summary_ = new QLabel(box);
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::RichText);
  summary_->setToolTip(
      tr("K candidates and the honest privacy cost of selecting among them: MA = "
         "K runs composed in RDP (section 3.2); LT = Liu–Talwar Theorem 1."));
  form->addRow(summary_);
  connect(strategy_, &QComboBox::currentIndexChanged, this, [this] {
    const bool random = strategy_->currentData().toString() == QLatin1String("random");
    for (OptimizerEditor* e : optimizers_) e->setRandomSearch(random);
    onEdited();
  });
  connect(gamma_, &NumberField::edited, this, &ExperimentForm::onEdited);
  for (QSpinBox* s : {repeats_, seed_, eval_every_}) {
    connect(s, &QSpinBox::valueChanged, this, &ExperimentForm::onEdited);
  }
  return box;
}

OptimizerEditor* ExperimentForm::optimizerEditor(OptimizerKind kind,
                                                 models::ClippingMode clipping) const {
  for (OptimizerEditor* e : optimizers_) {
    if (e->kind() == kind && e->clipping() == clipping) return e;
  }
  return nullptr;
}

int ExperimentForm::addUserDataset(const QString& path, const QString& format,
                                   const QString& label_column) {
  for (int i = 0; i < dataset_->count(); ++i) {
    if (dataset_->itemData(i, kSourceRole).toString() == path) return i;
  }
  dataset_->addItem(QFileInfo(path).fileName(), path);
  const int index = dataset_->count() - 1;
  dataset_->setItemData(index, format, kFormatRole);
  dataset_->setItemData(index, label_column, kLabelRole);
  dataset_->setItemData(index, path, Qt::ToolTipRole);
  return index;
}

void ExperimentForm::importFile() {
  ImportDialog dialog(this);
  if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty()) return;
  dataset_->setCurrentIndex(addUserDataset(dialog.path(), dialog.format(), dialog.labelColumn()));
  emit message(tr("Imported %1").arg(dialog.path()), false);
}

void ExperimentForm::setConfig(const ExperimentConfig& config) {
  updating_ = true;
  base_ = config;
  name_ = QString::fromStdString(config.name);
  const QString source = QString::fromStdString(config.dataset.source);
  int index = dataset_->findData(source, kSourceRole);
  if (index < 0) {
    index = addUserDataset(source, QString::fromStdString(config.dataset.format),
                           QString::fromStdString(config.dataset.label_column));
  }
  dataset_->setCurrentIndex(index);
  validation_fraction_->setValue(config.dataset.validation_fraction);
  if (config.model.kind == models::ModelKind::kCustom) {
    // A custom network comes from an experiment file; the form keeps it and offers it by name.
    custom_network_ = config.model.network;
    const int at = model_->findData(QStringLiteral("custom"));
    if (at >= 0) model_->removeItem(at);
    model_->addItem(tr("custom network (from the experiment file)"), QStringLiteral("custom"));
  }
  model_->setCurrentIndex(
      std::max(0, model_->findData(QString::fromStdString(models::to_string(config.model.kind)))));
  hidden_units_->setValue(config.model.hidden_units);
  hidden_units_->setEnabled(config.model.kind == models::ModelKind::kTwoLayerNetwork);
  privacy_->setConfig(config.privacy);
  for (OptimizerEditor* e : optimizers_) {
    e->setChecked(false);
    for (const auto& oc : config.optimizers) {
      if (oc.kind == e->kind() && oc.clipping == e->clipping()) {
        e->setChecked(true);
        e->setConfig(oc);
      }
    }
  }
  strategy_->setCurrentIndex(std::max(0, strategy_->findData(QString::fromStdString(
                                             experiment::to_string(config.tuning.strategy)))));
  gamma_->setOptionalValue(config.tuning.gamma);
  repeats_->setValue(config.repeats);
  seed_->setValue(static_cast<int>(std::min<std::uint64_t>(config.seed, 2147483647)));
  eval_every_->setValue(static_cast<int>(config.eval_every));
  release_->setRelease(config.release);
  updateSeedRow();
  updating_ = false;
  onEdited();
}

ExperimentConfig ExperimentForm::config() const {
  ExperimentConfig c = base_;
  c.optimizers.clear();
  c.name = name_.isEmpty() ? std::string("experiment") : name_.toStdString();
  c.dataset.source = dataset_->currentData(kSourceRole).toString().toStdString();
  if (c.dataset.source != base_.dataset.source) {  // options of another data set do not carry over
    c.dataset = experiment::DatasetConfig{};
    c.dataset.source = dataset_->currentData(kSourceRole).toString().toStdString();
  }
  c.dataset.format = dataset_->currentData(kFormatRole).toString().toStdString();
  if (c.dataset.format.empty()) c.dataset.format = "auto";
  c.dataset.label_column = dataset_->currentData(kLabelRole).toString().toStdString();
  c.dataset.validation_fraction = validation_fraction_->value().value_or(0.2);
  c.model.kind = models::parse_model_kind(model_->currentData().toString().toStdString());
  c.model.hidden_units = hidden_units_->value();
  if (c.model.kind == models::ModelKind::kCustom) c.model.network = custom_network_;
  c.privacy = privacy_->config();
  for (OptimizerEditor* e : optimizers_) {
    if (e->isChecked()) c.optimizers.push_back(e->config());
  }
  const QString strategy = strategy_->currentData().toString();
  c.tuning.strategy = strategy == QLatin1String("random") ? experiment::Strategy::kRandom
                      : strategy == QLatin1String("lt")   ? experiment::Strategy::kLt
                                                          : experiment::Strategy::kGrid;
  c.tuning.gamma = gamma_->value();
  c.repeats = repeats_->value();
  c.seed = static_cast<std::uint64_t>(seed_->value());
  c.eval_every = eval_every_->value();
  c.release = release_->release(base_.release);
  return c;
}

int ExperimentForm::threads() const {
  return threads_->value();
}
void ExperimentForm::setThreads(int threads) {
  threads_->setValue(threads);
}

std::shared_ptr<const data::TrainValidationSplit> ExperimentForm::loadedData() const {
  return loader_->dataFor(config());
}

qint64 ExperimentForm::trainingSize() const {
  return privacy_->trainingSize();
}

bool ExperimentForm::dataReady() const {
  return loadedData() != nullptr;
}

QStringList ExperimentForm::errors() const {
  QStringList list;
  if (!data_error_.isEmpty()) list << tr("data set: %1").arg(data_error_);
  if (!validation_fraction_->valid()) {
    list << tr("validation fraction: %1").arg(validation_fraction_->error());
  }
  list << privacy_->errors();
  bool any = false;
  for (OptimizerEditor* e : optimizers_) {
    any = any || e->isChecked();
    list << e->errors();
  }
  if (!any) list << tr("tick at least one optimizer to compare");
  if (!gamma_->valid()) list << tr("γ: %1").arg(gamma_->error());
  list << release_->errors();
  try {
    const experiment::ExperimentConfig c = config();
    experiment::check_release(c.release);  // e.g. validation private needs a private mode
    // private-subsampled: 1 (the run view shows one final run)
    experiment::check_release_repeats(c.release, c.repeats, "repeats", true);
  } catch (const std::exception& ex) {
    list << QString::fromStdString(ex.what());
  }
  if (data_error_.isEmpty() && validation_fraction_->valid() && !dataReady()) {
    list << tr("still loading the data set");
  } else if (!data_check_error_.isEmpty()) {
    list << data_check_error_;
  }
  if (list.isEmpty()) {
    try {
      if (experiment::expand_candidates(config()).empty())
        list << tr("the grids give no candidate");
    } catch (const std::exception& ex) {
      list << QString::fromStdString(ex.what());
    }
  }
  return list;
}

void ExperimentForm::onEdited() {
  if (updating_) return;
  // (Re)load the data when the data set or split changed; n feeds q, δ and L ≤ n.
  const ExperimentConfig c = config();
  const QString key = DataLoader::keyFor(c);
  if (validation_fraction_->valid() && key != data_key_loaded_ && key != data_key_requested_) {
    data_key_requested_ = key;
    data_error_.clear();
    markField(dataset_, tr(kDataHelp), QString());
    data_info_->setText(tr("loading …"));
    privacy_->setTrainingSize(0);
    loader_->request(c);
  }
  updateDataCheck();
  updateSummary();
  const bool valid = isValid();
  if (valid != last_valid_) {
    last_valid_ = valid;
    emit validityChanged(valid);
  }
  emit edited();
}

void ExperimentForm::onDataLoaded(const DataSummary& s) {
  if (s.key != DataLoader::keyFor(config())) return;  // a stale load
  data_key_loaded_ = s.key;
  data_error_.clear();
  markField(dataset_, tr(kDataHelp), QString());
  QString info = tr("n = %1 training, %2 validation · d = %3 · ")
                     .arg(s.train_size)
                     .arg(s.validation_size)
                     .arg(s.dim);
  if (s.num_classes == 0) {
    info += tr("regression");
  } else {
    QStringList parts;
    for (int c = 0; c < s.class_counts.size(); ++c) {
      parts << QStringLiteral("%1%").arg(
          100.0 * s.class_counts[c] / std::max<qint64>(1, s.train_size), 0, 'f', 0);
    }
    info += tr("%1 classes (balance %2)").arg(s.num_classes).arg(parts.join(QStringLiteral(" / ")));
  }
  // The scaling is part of what the run reveals: say whether ε covers it (data/feature_scaling.h).
  info += QStringLiteral("<br>") + tr("features: %1").arg(s.preprocessing.toHtmlEscaped());
  if (s.preprocessing_fitted_on_private_data) {
    info = info.replace(QStringLiteral("not covered"),
                        QStringLiteral("<span style='color:%1'>%2</span>")
                            .arg(toneHex(Tone::kError), tr("not covered")));
  }
  data_info_->setToolTip(
      s.preprocessing_fitted_on_private_data
          ? tr("The min-max ranges were computed from the private rows, and ε does not cover "
               "them (as the paper's appendix H leaves it). Public bounds avoid this: "
               "dataset.feature_range / dataset.feature_bounds in the experiment file.")
          : tr("The features are scaled with bounds that do not depend on the private rows."));
  data_info_->setText(info);
  privacy_->setTrainingSize(s.train_size);  // triggers onEdited via PrivacySection::edited
}

void ExperimentForm::onDataFailed(const QString& key, const QString& error) {
  if (key != DataLoader::keyFor(config())) return;
  data_key_loaded_ = key;
  data_error_ = error;
  markField(dataset_, tr(kDataHelp), error);
  data_info_->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                          .arg(toneHex(Tone::kError), error.toHtmlEscaped()));
  emit message(tr("data set: %1").arg(error), true);
  onEdited();
}

void ExperimentForm::updateSeedRow() {
  // Secure noise has no seed: none is shown (the run draws it from the OS and never stores it).
  if (tuning_layout_) tuning_layout_->setRowVisible(seed_, !release_->secure());
}

void ExperimentForm::updateDataCheck() {
  // The engine's checks against the loaded data (model fits the task, L ≤ n, non-empty sets),
  // the same the Runner makes: a mismatch is marked at the model before Run.
  data_check_error_.clear();
  if (const auto data = loadedData()) {
    try {
      tuning::validate_against_data(config(), *data);
    } catch (const std::exception& e) {
      data_check_error_ = QString::fromStdString(e.what());
    }
  }
  const bool model_problem = data_check_error_.contains(QStringLiteral("model.kind"));
  markField(model_, tr("The model trained by every candidate."),
            model_problem ? data_check_error_ : QString());
}

void ExperimentForm::updateSummary() {
  const ExperimentConfig c = config();
  int k = 0;
  try {
    k = static_cast<int>(experiment::expand_candidates(c).size());
  } catch (const std::exception&) {
    summary_->setText(tr("<i>fix the marked fields to see K</i>"));
    return;
  }
  QString text = tr("<b>K = %1 candidates</b> × %2 repeats = %3 jobs")
                     .arg(k)
                     .arg(c.repeats)
                     .arg(k * c.repeats);
  const qint64 n = privacy_->trainingSize();
  if (n > 0 && privacy_->error().isEmpty() && k > 0) {
    const double q = c.privacy.lot_size / static_cast<double>(n);
    const double delta = privacy_->resolvedDelta();
    const double gamma = c.tuning.gamma.value_or(1.0 / k);
    try {
      const double ma = tuning::epsilon_moments_accountant(c.privacy.noise_multiplier, q,
                                                           c.privacy.steps, k, delta, c.accounting);
      const double lt = tuning::epsilon_liu_talwar(c.privacy.noise_multiplier, q, c.privacy.steps,
                                                   gamma, delta, c.tuning.delta2, c.accounting);
      // The cost of what this search will release (engine release_cost), then the planning
      // figures of the pool; every ε rounded up.
      const tuning::ReleaseCost cost = tuning::planned_release_cost(c, n, 0);
      // A plan, in grey italics: it never reads like the bold-on-green "spent ε" of a run.
      text += tr("<br><i style='color:#555'>plan (before running): %1</i>")
                  .arg(QString::fromStdString(tuning::epsilon_label(cost)).toHtmlEscaped());
      text += tr("<br>planning figures of the pool: MA over K ε ≤ %1 · LT ε ≤ %2 (γ = %3)")
                  .arg(QString::fromStdString(privacy::format_epsilon_up(ma)))
                  .arg(QString::fromStdString(privacy::format_epsilon_up(lt)))
                  .arg(gamma, 0, 'g', 3);
    } catch (const std::exception& e) {
      text += QStringLiteral("<br>") + QString::fromStdString(e.what()).toHtmlEscaped();
    }
  }
  summary_->setText(text);
}

}  // namespace dplab::ui
