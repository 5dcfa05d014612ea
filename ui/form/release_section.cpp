#include "form/release_section.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <algorithm>

#include "form/number_field.h"

namespace dplab::ui {

using experiment::LearningRateTransfer;
using experiment::PrivateSelection;
using experiment::ReleaseMode;

namespace {
const QString kSubsampled = QStringLiteral("ps-subsampled");
const QString kLinearScaling = QStringLiteral("linear-scaling");
}  // namespace

ReleaseSection::ReleaseSection(QWidget* parent) : QWidget(parent) {
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
  mode_ = new QComboBox(this);
  mode_->addItem(tr("explore (every run shown and charged)"), QStringLiteral("explore"));
  mode_->addItem(tr("private: MA (each candidate once, winner only)"), QStringLiteral("ma"));
  mode_->addItem(tr("private: Liu–Talwar random stopping"), QStringLiteral("lt"));
  mode_->addItem(tr("private: Papernot–Steinke (Poisson μ)"), QStringLiteral("ps"));
  mode_->addItem(tr("private on a subsample (KK23)"), kSubsampled);
  mode_->addItem(tr("private: linear scaling (cheap trials, η extrapolated)"), kLinearScaling);
  mode_->setToolTip(
      tr("What the search releases, and so what its ε covers. explore: every curve of every "
         "run is shown and ε composes ALL runs trained. private: the selection runs for real "
         "(the drawn runs trained afresh) and only the winner is released; ε is the "
         "selection's (MA: K runs; LT: Liu–Talwar Theorem 1 with its hard stop; PS: "
         "Papernot–Steinke 2022). In private modes repeats = independent replicate searches. "
         "private on a subsample (Koskela–Kulkarni 2023): the PS search runs on a Poisson "
         "subsample of rate q, then ONE final run of its winner is trained and only that run "
         "is released; ε covers both phases. linear scaling (Panda et al. 2024): every "
         "candidate trains at two cheap trial budgets, the best learning rates are extrapolated "
         "along r = η·T to the final run's budget and ONE final run is released; ε composes "
         "every trial run and the final run."));
  form->addRow(tr("Release"), mode_);
  mu_ = new NumberField(tr("μ: mean number of runs of Papernot–Steinke's Poisson stopping "
                           "(≥ 1)."),
                        NumberField::Rule([](double v) {
                          return (v >= 1 && v <= 700) ? QString() : tr("must be in [1, 700]");
                        }),
                        this);
  mu_->setValue(10);
  form->addRow(tr("μ (PS)"), mu_);
  // private on a subsample: q, the final data, the learning-rate transfer (engine check_release
  // judges the combination in errors(), the rule the CLI applies to its flags).
  subsample_box_ = new QWidget(this);
  auto* sub = new QFormLayout(subsample_box_);
  sub->setContentsMargins(0, 0, 0, 0);
  tuning_fraction_ = new NumberField(
      tr("q: each training row joins the tuning subset X1 independently with probability q "
         "(Poisson subsampling); the search's ε is amplified by q. In (0, 1]."),
      NumberField::Rule([](double) { return QString(); }), subsample_box_);
  tuning_fraction_->setObjectName(QStringLiteral("tuningFraction"));
  tuning_fraction_->setValue(0.1);
  sub->addRow(tr("tuning fraction q"), tuning_fraction_);
  final_data_ = new QComboBox(subsample_box_);
  final_data_->setObjectName(QStringLiteral("finalData"));
  final_data_->addItem(tr("the full data X"), QStringLiteral("full"));
  final_data_->addItem(tr("the complement X \\ X1 (disjoint from the search)"),
                       QStringLiteral("complement"));
  final_data_->setToolTip(
      tr("The data of the final run: all rows, or only the rows not in the "
         "tuning subset (disjoint from the search)."));
  sub->addRow(tr("final run on"), final_data_);
  lr_transfer_ = new QComboBox(subsample_box_);
  lr_transfer_->setObjectName(QStringLiteral("lrTransfer"));
  lr_transfer_->addItem(tr("η × 1/q (heuristic)"), QStringLiteral("inverse_fraction"));
  lr_transfer_->addItem(tr("keep η (heuristic)"), QStringLiteral("keep"));
  lr_transfer_->addItem(tr("η × factor (heuristic)"), QStringLiteral("factor"));
  lr_transfer_->setToolTip(
      tr("How the winner's learning rate is carried to the final run. A HEURISTIC: it only "
         "post-processes the released hyperparameters (no privacy cost), nothing guarantees "
         "the transferred value is good (experiment/hyperparameter_transfer.h)."));
  sub->addRow(tr("learning-rate transfer"), lr_transfer_);
  lr_factor_ = new NumberField(tr("The factor of “η × factor” (> 0)."),
                               NumberField::Rule([](double) { return QString(); }), subsample_box_);
  lr_factor_->setObjectName(QStringLiteral("lrTransferFactor"));
  lr_factor_->setValue(1.0);
  sub->addRow(tr("factor"), lr_factor_);
  form->addRow(subsample_box_);
  // linear scaling: the two trial budgets as fractions of the final run's ε.
  linear_box_ = new QWidget(this);
  auto* lin = new QFormLayout(linear_box_);
  lin->setContentsMargins(0, 0, 0, 0);
  const experiment::ReleaseConfig defaults;
  auto fraction_field = [&](const QString& name, double value) {
    auto* field = new NumberField(
        tr("A trial budget as a fraction of the final run's single-run ε, in (0, 1); the "
           "first below the second."),
        NumberField::Rule([](double v) {
          return (v > 0 && v < 1) ? QString() : tr("must be strictly between 0 and 1");
        }),
        linear_box_);
    field->setObjectName(name);
    field->setValue(value);
    return field;
  };
  trial_low_ = fraction_field(QStringLiteral("trialFractionLow"), defaults.trial_fraction_low);
  trial_high_ = fraction_field(QStringLiteral("trialFractionHigh"), defaults.trial_fraction_high);
  lin->addRow(tr("trial 1: ε fraction"), trial_low_);
  lin->addRow(tr("trial 2: ε fraction"), trial_high_);
  form->addRow(linear_box_);
  secure_ = new QCheckBox(tr("secure noise (OS entropy, no seed)"), this);
  secure_->setToolTip(
      tr("Private modes: lots and noise from getrandom + ChaCha20 (noise on an integer grid, "
         "docs/secure-noise.md). No seed is shown or stored, so two runs differ and nobody "
         "can replay the noise. explore keeps its reproducible seed."));
  form->addRow(secure_);
  connect(mode_, &QComboBox::currentIndexChanged, this, &ReleaseSection::onModeChanged);
  connect(secure_, &QCheckBox::toggled, this, [this] {
    if (!updating_) emit edited();
  });
  connect(mu_, &NumberField::edited, this, [this] {
    if (!updating_) emit edited();
  });
  for (NumberField* field : {tuning_fraction_, lr_factor_, trial_low_, trial_high_}) {
    connect(field, &NumberField::edited, this, [this] {
      if (!updating_) emit edited();
    });
  }
  for (QComboBox* combo : {final_data_, lr_transfer_}) {
    connect(combo, &QComboBox::currentIndexChanged, this, [this] {
      lr_factor_->setEnabled(subsampled() &&
                             lr_transfer_->currentData().toString() == QLatin1String("factor"));
      if (!updating_) emit edited();
    });
  }
  onModeChanged();
}

void ReleaseSection::selectMode(const QString& key) {
  mode_->setCurrentIndex(std::max(0, mode_->findData(key)));
}

bool ReleaseSection::isPrivate() const {
  return mode_->currentData().toString() != QLatin1String("explore");
}

bool ReleaseSection::subsampled() const {
  return mode_->currentData().toString() == kSubsampled;
}

bool ReleaseSection::linearScaling() const {
  return mode_->currentData().toString() == kLinearScaling;
}

bool ReleaseSection::secure() const {
  // private-subsampled and linear scaling have no secure noise yet (check_release refuses it).
  return isPrivate() && !subsampled() && !linearScaling() && secure_->isChecked();
}

void ReleaseSection::onModeChanged() {
  const bool priv = isPrivate();
  const bool no_secure = subsampled() || linearScaling();
  secure_->setEnabled(priv && !no_secure);
  // The box shows what the run does: "private on a subsample" and linear scaling have no secure
  // noise yet, so it is unticked there (greyed), never ticked beside a run that is not secure.
  if (no_secure) {
    secure_->setChecked(false);
  } else if (!updating_) {
    // Secure noise is the default of the private modes (switched on when leaving explore, or
    // a mode that has none).
    if (priv && (!was_private_ || was_subsampled_)) secure_->setChecked(true);
    if (!priv) secure_->setChecked(false);
  }
  was_private_ = priv;
  was_subsampled_ = no_secure;
  linear_box_->setVisible(linearScaling());
  mu_->setEnabled(mode_->currentData().toString() == QLatin1String("ps") || subsampled());
  subsample_box_->setVisible(subsampled());
  lr_factor_->setEnabled(subsampled() &&
                         lr_transfer_->currentData().toString() == QLatin1String("factor"));
  if (!updating_) emit edited();
}

void ReleaseSection::setRelease(const experiment::ReleaseConfig& r) {
  updating_ = true;
  base_ = r;
  QString key = QStringLiteral("explore");
  if (r.subsampled) {
    key = kSubsampled;
  } else if (r.linear_scaling) {
    key = kLinearScaling;
  } else if (r.mode == ReleaseMode::kPrivate) {
    key = r.selection == PrivateSelection::kMa   ? QStringLiteral("ma")
          : r.selection == PrivateSelection::kLt ? QStringLiteral("lt")
                                                 : QStringLiteral("ps");
  }
  selectMode(key);
  secure_->setChecked(r.secure);
  mu_->setValue(r.ps_mu);
  tuning_fraction_->setValue(r.tuning_fraction);
  final_data_->setCurrentIndex(std::max(
      0, final_data_->findData(QString::fromStdString(experiment::to_string(r.final_data)))));
  lr_transfer_->setCurrentIndex(std::max(0, lr_transfer_->findData(QString::fromStdString(
                                                experiment::to_string(r.lr_transfer.rule)))));
  lr_factor_->setValue(r.lr_transfer.factor);
  trial_low_->setValue(r.trial_fraction_low);
  trial_high_->setValue(r.trial_fraction_high);
  updating_ = false;
  onModeChanged();
}

experiment::ReleaseConfig ReleaseSection::release(const experiment::ReleaseConfig& base) const {
  experiment::ReleaseConfig r = base;
  const QString key = mode_->currentData().toString();
  if (key == QLatin1String("explore")) {
    r.mode = ReleaseMode::kExplore;
    r.subsampled = false;
    r.linear_scaling = false;
    r.validation = experiment::ValidationAssumption::kPublic;  // explore shows every curve
  } else if (key == kSubsampled) {
    r.mode = ReleaseMode::kPrivate;
    r.selection = PrivateSelection::kPs;
    r.subsampled = true;
    r.linear_scaling = false;
    if (tuning_fraction_->value()) r.tuning_fraction = *tuning_fraction_->value();
    r.final_data = final_data_->currentData().toString() == QLatin1String("complement")
                       ? privacy::FinalRunData::kComplement
                       : privacy::FinalRunData::kFullData;
    r.lr_transfer.rule = experiment::parse_learning_rate_transfer(
        lr_transfer_->currentData().toString().toStdString());
    if (lr_factor_->value()) r.lr_transfer.factor = *lr_factor_->value();
  } else if (key == kLinearScaling) {
    r.mode = ReleaseMode::kPrivate;
    r.selection = PrivateSelection::kMa;
    r.subsampled = false;
    r.linear_scaling = true;
    if (trial_low_->value()) r.trial_fraction_low = *trial_low_->value();
    if (trial_high_->value()) r.trial_fraction_high = *trial_high_->value();
  } else {
    r.mode = ReleaseMode::kPrivate;
    r.subsampled = false;
    r.linear_scaling = false;
    r.selection = key == QLatin1String("ma")   ? PrivateSelection::kMa
                  : key == QLatin1String("lt") ? PrivateSelection::kLt
                                               : PrivateSelection::kPs;
  }
  r.secure = secure();
  if ((key == QLatin1String("ps") || key == kSubsampled) && mu_->valid() && mu_->value())
    r.ps_mu = *mu_->value();
  return r;
}

QStringList ReleaseSection::errors() const {
  QStringList list;
  if (mu_->isEnabled() && !mu_->valid()) list << tr("μ (PS): %1").arg(mu_->error());
  if (subsampled()) {
    if (!tuning_fraction_->valid())
      list << tr("tuning fraction q: %1").arg(tuning_fraction_->error());
    if (lr_factor_->isEnabled() && !lr_factor_->valid())
      list << tr("factor: %1").arg(lr_factor_->error());
    // The combination (q in (0, 1], the factor > 0, no secure noise, repeats 1) is judged by
    // the engine's check_release / check_release_repeats in ExperimentForm::errors(), the rules
    // `dplab-cli tune` applies to its flags.
  }
  if (linearScaling()) {
    if (!trial_low_->valid()) list << tr("trial 1: ε fraction: %1").arg(trial_low_->error());
    if (!trial_high_->valid()) list << tr("trial 2: ε fraction: %1").arg(trial_high_->error());
    // f1 < f2, repeats 1: the engine's check_release / check_release_repeats (errors()).
  }
  return list;
}

}  // namespace dplab::ui
