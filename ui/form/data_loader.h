// DataLoader: loads an experiment's data set (engine tuning::load_experiment_data: catalog or
// file, then the seeded train/validation split) off the GUI thread (async::startInBackground), so
// that choosing a data set never blocks the GUI and closing the window never waits for a load
// (the worker holds the config, not the loader; a result that arrives after us is dropped). The
// form uses the result to learn n (training-set size, for q = L/n and the default δ) and the run
// reuses the loaded split instead of loading again. One load at a time; a newer request replaces a
// queued one. Results arrive as queued signals.
#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <mutex>

#include "async/background_task.h"

#include "data/dataset.h"
#include "experiment/experiment_config.h"

namespace dplab::ui {

struct DataSummary {
  QString key;
  qint64 train_size = 0;  // n
  qint64 validation_size = 0;
  qint64 dim = 0;
  int num_classes = 0;         // 0 = regression
  QList<qint64> class_counts;  // training-set class balance
  QStringList class_names;
  // How the features were scaled (data::Preprocessing): public bounds, or fitted on the data,
  // which no ε covers.
  QString preprocessing;
  bool preprocessing_fitted_on_private_data = false;
};

class DataLoader : public QObject {
  Q_OBJECT
 public:
  // Loads a config's data on the worker; tuning::load_experiment_data unless given (tests: a
  // loader that blocks until released).
  using Loader = std::function<std::shared_ptr<const data::TrainValidationSplit>(
      const experiment::ExperimentConfig&)>;
  explicit DataLoader(QObject* parent = nullptr, Loader loader = {});
  ~DataLoader() override;  // returns at once, even during a load

  // Identifies the data a config needs (data set section + split seed).
  static QString keyFor(const experiment::ExperimentConfig& config);

  // Starts loading unless this key is already loaded or loading.
  void request(const experiment::ExperimentConfig& config);
  // The loaded split when it matches the config's key, else null.
  std::shared_ptr<const data::TrainValidationSplit> dataFor(
      const experiment::ExperimentConfig& config) const;
  bool busy() const;

 signals:
  void loaded(const dplab::ui::DataSummary& summary);
  void failed(const QString& key, const QString& error);

 private:
  void startLocked(const experiment::ExperimentConfig& config, const QString& key);
  void onThreadDone(const QString& key, std::shared_ptr<const data::TrainValidationSplit> data,
                    const QString& error);

  mutable std::mutex mutex_;
  Loader load_;
  async::TaskHandle task_;
  QString loading_key_;
  QString loaded_key_;
  std::shared_ptr<const data::TrainValidationSplit> loaded_;
  bool has_pending_ = false;
  experiment::ExperimentConfig pending_;
};

DataSummary summarize(const QString& key, const data::TrainValidationSplit& split);

}  // namespace dplab::ui
