// ReleaseSection: the form's "Release" box — what a search releases, and therefore what its ε
// covers (engine experiment/release_config.h):
//   explore          every run is shown and charged (reproducible seed);
//   private MA/LT/PS the selection runs for real and only its winner is released;
//   secure noise     (private modes only; on by default there) lots and noise from the OS and
//                    ChaCha20, no seed shown or stored.
// PS takes μ (Poisson) from the field; the other release options (TNB, validation private) are
// kept from the experiment file as they are.
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
  // Selects "explore", "ma", "lt" or "ps" as a user would (secure noise turns on when a private
  // mode is chosen from explore).
  void selectMode(const QString& key);

 signals:
  void edited();

 private:
  void onModeChanged();

  QComboBox* mode_;
  QCheckBox* secure_;
  NumberField* mu_;
  bool updating_ = false;
  bool was_private_ = false;
};

}  // namespace dplab::ui
