#include "form/presets.h"

#include <QDir>

#include "core/error.h"
#include "data/dataset_catalog.h"
#include "form/resource_or_file.h"

// Q_INIT_RESOURCE must be used outside any namespace; dplab_ui is a static library, so its
// resources (presets) are registered explicitly.
static void initDplabResources() {
  Q_INIT_RESOURCE(resources);
}

namespace dplab::ui {

namespace {
bool fashionMnistInstalled() {
  try {
    data::find_fashion_mnist();
    return true;
  } catch (const Error&) {
    return false;
  }
}

QStringList resourcePresets(const QString& folder) {
  initDplabResources();
  QStringList paths;
  const QDir dir(folder);
  for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    paths << dir.filePath(name);
  }
  return paths;
}

}  // namespace

QStringList presetPaths() {
  return resourcePresets(QStringLiteral(":/presets"));
}

QStringList osoProtocolPresetPaths() {
  return resourcePresets(QStringLiteral(":/oso-presets"));
}

std::string readPresetText(const QString& path) {
  initDplabResources();
  return readResourceOrFile(path, data::kJsonFile);
}

QString defaultPresetPath() {
  return fashionMnistInstalled() ? QStringLiteral(":/presets/default-fashion-mnist.json")
                                 : QStringLiteral(":/presets/default-synthetic.json");
}

experiment::ExperimentConfig loadExperimentFile(const QString& path) {
  if (!path.startsWith(QStringLiteral(":/"))) {
    return experiment::load_experiment_file(path.toStdString());
  }
  return experiment::parse_experiment_text(readPresetText(path), path.toStdString());
}

experiment::ExperimentConfig defaultExperiment() {
  return loadExperimentFile(defaultPresetPath());
}

}  // namespace dplab::ui
