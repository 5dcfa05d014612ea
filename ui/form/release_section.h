// ReleaseSection: the form's "Release" box — what a search releases, and therefore what its ε
// covers (engine experiment/release_config.h):
//   explore          every run is shown and charged (reproducible seed);
//   private MA/LT/PS the selection runs for real and only its winner is released;
//   secure noise     (private modes only; on by default there) lots and noise from the OS and
//                    ChaCha20, no seed shown or stored.
//   private on a subsample  (Koskela & Kulkarni 2023, "private-subsampled"): a PS search on a
//                    Poisson subsample of rate q, then one final run of the winner on the full
//                    data or the complement; the learning-rate transfer is a heuristic (no
//                    privacy cost). Checked by the engine's check_release, as in the CLI.
//   linear scaling   (Panda et al. 2024, "private-linear-scaling"): two trial rounds over the
//                    grid at fractions of the final run's ε, then one final run at the
//                    extrapolated learning rate; ε composes every run.
// PS takes μ (Poisson) from the field; the other release options (TNB, validation private,
// subset batching) are kept from the experiment file as they are.
#pragma once

#include <QWidget>

#include "experiment/release_config.h"

class QCheckBox;
class QComboBox;

namespace dplab::ui {

class NumberField;

class ReleaseSection : public QWidget {
  Q_OBJECT
 public:
  explicit ReleaseSection(QWidget* parent = nullptr);

  void setRelease(const experiment::ReleaseConfig& release);
  // `base` carries what the box does not edit.
  experiment::ReleaseConfig release(const experiment::ReleaseConfig& base) const;
  bool secure() const;
  bool isPrivate() const;
  QStringList errors() const;

  QComboBox* modeCombo() const { return mode_; }
  QCheckBox* secureBox() const { return secure_; }
  NumberField* muField() const { return mu_; }
  NumberField* tuningFractionField() const { return tuning_fraction_; }
  QComboBox* finalDataCombo() const { return final_data_; }
  QComboBox* lrTransferCombo() const { return lr_transfer_; }
  NumberField* lrFactorField() const { return lr_factor_; }
  bool subsampled() const;
  bool linearScaling() const;
  NumberField* trialLowField() const { return trial_low_; }
  NumberField* trialHighField() const { return trial_high_; }
  // Selects "explore", "ma", "lt", "ps", "ps-subsampled" or "linear-scaling" as a user would
  // (secure noise turns on when a private mode is chosen from explore; private-subsampled has none
  // yet).
  void selectMode(const QString& key);

 signals:
  void edited();

 private:
  void onModeChanged();

  QComboBox* mode_;
  QCheckBox* secure_;
  NumberField* mu_;
  NumberField* tuning_fraction_;
  QComboBox* final_data_;
  QComboBox* lr_transfer_;
  NumberField* lr_factor_;
  QWidget* subsample_box_;
  NumberField* trial_low_;
  NumberField* trial_high_;
  QWidget* linear_box_;
  experiment::ReleaseConfig base_;  // the last release set: what the box does not edit
  bool updating_ = false;
  bool was_private_ = false;
  bool was_subsampled_ = false;
};

}  // namespace dplab::ui
