#include "form/data_loader.h"

#include <QMetaObject>
#include <QPointer>
#include <nlohmann/json.hpp>

#include "tuning/runner.h"

namespace dplab::ui {

DataLoader::DataLoader(QObject* parent, Loader loader)
    : QObject(parent), load_(loader ? std::move(loader) : Loader(&tuning::load_experiment_data)) {
  qRegisterMetaType<dplab::ui::DataSummary>("dplab::ui::DataSummary");
}

DataLoader::~DataLoader() {
  // A load in progress finishes in the background (the engine loader does not poll the flag); its
  // result is dropped with us. Nothing here waits for it.
  task_.cancel();
}

QString DataLoader::keyFor(const experiment::ExperimentConfig& config) {
  nlohmann::json j = experiment::to_json(config);
  // variants.pixel_range changes the loaded features too (apply_data_variants).
  nlohmann::json key = {{"dataset", j.value("dataset", nlohmann::json())},
                        {"seed", config.seed},
                        {"pixels_symmetric", config.variants.pixels_symmetric}};
  return QString::fromStdString(key.dump());
}

void DataLoader::request(const experiment::ExperimentConfig& config) {
  const QString key = keyFor(config);
  std::lock_guard lock(mutex_);
  if (key == loaded_key_ && loaded_) {
    // Already here: answer anyway, so that a form that asked (e.g. back from an invalid value)
    // is not left waiting at "loading …".
    has_pending_ = false;
    QMetaObject::invokeMethod(
        this, [this, key, data = loaded_] { emit loaded(summarize(key, *data)); },
        Qt::QueuedConnection);
    return;
  }
  if (key == loading_key_) {
    has_pending_ = false;
    return;
  }
  if (!loading_key_.isEmpty()) {
    pending_ = config;
    has_pending_ = true;
    return;
  }
  startLocked(config, key);
}

void DataLoader::startLocked(const experiment::ExperimentConfig& config, const QString& key) {
  loading_key_ = key;
  task_ = async::startInBackground(
      this,
      [config, load = load_](async::TaskControl&)
          -> std::shared_ptr<const data::TrainValidationSplit> { return load(config); },
      [this, key](std::shared_ptr<const data::TrainValidationSplit> data) {
        onThreadDone(key, std::move(data), QString());
      },
      [this, key](const async::Failure& failure) { onThreadDone(key, nullptr, failure.message); });
}

void DataLoader::onThreadDone(const QString& key,
                              std::shared_ptr<const data::TrainValidationSplit> data,
                              const QString& error) {
  {
    std::lock_guard lock(mutex_);
    loading_key_.clear();
    if (data) {
      loaded_key_ = key;
      loaded_ = data;
    }
    if (has_pending_) {
      has_pending_ = false;
      const QString pending_key = keyFor(pending_);
      if (pending_key != loaded_key_) startLocked(pending_, pending_key);
    }
  }
  if (data) {
    emit loaded(summarize(key, *data));
  } else {
    emit failed(key, error);
  }
}

std::shared_ptr<const data::TrainValidationSplit> DataLoader::dataFor(
    const experiment::ExperimentConfig& config) const {
  std::lock_guard lock(mutex_);
  return keyFor(config) == loaded_key_ ? loaded_ : nullptr;
}

bool DataLoader::busy() const {
  std::lock_guard lock(mutex_);
  return !loading_key_.isEmpty();
}

DataSummary summarize(const QString& key, const data::TrainValidationSplit& split) {
  DataSummary s;
  s.key = key;
  s.train_size = split.train.size();
  s.validation_size = split.validation.size();
  s.dim = split.train.dim();
  s.num_classes = split.train.num_classes;
  s.preprocessing = QString::fromStdString(split.preprocessing.description);
  s.preprocessing_fitted_on_private_data = split.preprocessing.fitted_on_private_data;
  if (s.num_classes > 0) {
    for (const Index count : data::class_counts(split.train)) s.class_counts << count;
    for (const auto& name : split.train.class_names) s.class_names << QString::fromStdString(name);
  }
  return s;
}

}  // namespace dplab::ui
