// PrivacySection: the DP mechanism of every run — noise multiplier σ, expected lot size L,
// steps T (noisy-gradient queries) and δ — with a live line showing q = L/n, epochs = T·L/n and
// the ε of ONE run at δ, computed by the engine RDP accountant (privacy::epsilon_for_delta) as
// the user types. n is the training-set size reported by the data loader.
#pragma once

#include <QGroupBox>
#include <optional>

#include "experiment/experiment_config.h"

class QLabel;

namespace dplab::ui {

class NumberField;

class PrivacySection : public QGroupBox {
  Q_OBJECT
 public:
  explicit PrivacySection(QWidget* parent = nullptr);

  void setConfig(const experiment::PrivacyConfig& config);
  experiment::PrivacyConfig config() const;
  // n, the training-set size (0 = unknown yet); re-checks L ≤ n and updates the live line.
  void setTrainingSize(qint64 n);
  qint64 trainingSize() const { return n_; }
  QString error() const;       // first problem, empty when valid
  QStringList errors() const;  // every problem

  // The numbers the live line shows (NaN when not computable); for tests.
  double liveEpsilon() const { return live_epsilon_; }
  double resolvedDelta() const;  // δ field, or the default 1/n rounded down to a power of ten
  QString liveText() const;

  NumberField* sigmaField() const { return sigma_; }
  NumberField* lotField() const { return lot_; }
  NumberField* stepsField() const { return steps_; }
  NumberField* deltaField() const { return delta_; }

 signals:
  void edited();

 private:
  void updateLive();

  NumberField* sigma_;
  NumberField* lot_;
  NumberField* steps_;
  NumberField* delta_;
  QLabel* live_;
  qint64 n_ = 0;
  double live_epsilon_ = 0;
};

}  // namespace dplab::ui
