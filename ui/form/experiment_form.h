// ExperimentForm: the left-hand set-up panel. It edits an engine experiment::ExperimentConfig —
// data set (built-in catalog or imported file), model, privacy mechanism (PrivacySection),
// optimizers with their grids (OptimizerEditor), tuning strategy, repeats, seed — plus the
// number of worker threads (a run option, not part of the experiment). Every field validates as
// you type; isValid() is false while any field is marked, and validityChanged() drives Run.
// The Tuning box shows K (engine expand_candidates) and the honest ε of the whole search for MA
// and LT (engine tuning/accounting.h).
#pragma once

#include <string>

#include <QWidget>

#include "experiment/experiment_config.h"
#include "form/data_loader.h"

class QComboBox;
class QSpinBox;
class QLabel;
class QPushButton;
class QGroupBox;
class QFormLayout;

namespace dplab::ui {

class NumberField;
class OptimizerEditor;
class PrivacySection;
class ReleaseSection;

class ExperimentForm : public QWidget {
  Q_OBJECT
 public:
  explicit ExperimentForm(QWidget* parent = nullptr);

  void setConfig(const experiment::ExperimentConfig& config);
  experiment::ExperimentConfig config() const;
  int threads() const;
  void setThreads(int threads);

  bool isValid() const { return errors().isEmpty(); }
  QStringList errors() const;
  // The experiment's data, when it has been loaded (null otherwise).
  std::shared_ptr<const data::TrainValidationSplit> loadedData() const;
  qint64 trainingSize() const;
  bool dataReady() const;

  PrivacySection* privacy() const { return privacy_; }
  ReleaseSection* releaseSection() const { return release_; }
  QSpinBox* seedBox() const { return seed_; }
  // The editor of `kind` under `clipping` (flat: the first list; automatic: the second).
  OptimizerEditor* optimizerEditor(
      optim::OptimizerKind kind, models::ClippingMode clipping = models::ClippingMode::kFlat) const;
  NumberField* gammaField() const { return gamma_; }
  QComboBox* datasetCombo() const { return dataset_; }
  QLabel* tuningSummary() const { return summary_; }
  QComboBox* modelCombo() const { return model_; }
  NumberField* validationFractionField() const { return validation_fraction_; }
  QLabel* dataInfo() const { return data_info_; }

 signals:
  void validityChanged(bool valid);
  void edited();
  void message(const QString& text, bool is_error);

 private:
  QWidget* buildDataBox();
  QWidget* buildTuningBox();
  void onEdited();
  void updateSummary();
  void updateDataCheck();
  void updateSeedRow();
  void importFile();
  int addUserDataset(const QString& path, const QString& format, const QString& label_column);
  void onDataLoaded(const DataSummary& summary);
  void onDataFailed(const QString& key, const QString& error);

  DataLoader* loader_;
  QComboBox* dataset_;
  QLabel* data_info_;
  NumberField* validation_fraction_;
  QComboBox* model_;
  std::string custom_network_;  // model.kind = custom: the loaded file's network description
  QSpinBox* hidden_units_;
  PrivacySection* privacy_;
  QList<OptimizerEditor*> optimizers_;
  QComboBox* strategy_;
  NumberField* gamma_;
  QSpinBox* repeats_;
  QSpinBox* threads_;
  QSpinBox* seed_;
  QFormLayout* tuning_layout_ = nullptr;
  ReleaseSection* release_ = nullptr;
  QSpinBox* eval_every_;
  QLabel* summary_;
  QString name_;
  // The last config set: keeps what the form does not edit (synthetic n/d, split seed, δ2, …).
  experiment::ExperimentConfig base_;
  QString data_error_;
  QString data_check_error_;  // engine validate_against_data on the loaded data
  QString data_key_loaded_;
  QString data_key_requested_;
  bool last_valid_ = false;
  bool updating_ = false;
};

}  // namespace dplab::ui
