#include "shell/experiment_files.h"
#include "core/json_text.h"

#include <QFileInfo>
#include <QSaveFile>
#include <QSettings>
#include <nlohmann/json.hpp>

#include "data/preset_files.h"
#include "form/presets.h"

namespace dplab::ui {

namespace {
constexpr int kMaxRecent = 8;
const QString kRecentKey = QStringLiteral("files/recent");
}  // namespace

ExperimentFiles::ExperimentFiles(QObject* parent) : QObject(parent) {}

std::optional<experiment::ExperimentConfig> ExperimentFiles::open(const QString& path,
                                                                  QString* error) {
  const bool resource = path.startsWith(QStringLiteral(":/"));
  try {
    // A shipped preset may be opened by its name (`dplab --open quick-demo`); like a built-in
    // one it is a template: Save asks where to write instead of overwriting the shipped file.
    const QString file =
        resource ? path : QString::fromStdString(data::resolve_preset_path(path.toStdString()));
    const bool template_preset = resource || file != path;
    experiment::ExperimentConfig config = loadExperimentFile(file);
    current_path_ = template_preset ? QString() : path;
    if (!template_preset) addRecent(path);
    return config;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return std::nullopt;
  }
}

bool ExperimentFiles::save(const experiment::ExperimentConfig& config, const QString& path,
                           QString* error) {
  QSaveFile file(path);
  const QByteArray bytes =
      QByteArray::fromStdString(json_text(experiment::to_json(config), 2) + "\n");
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
    if (error) *error = tr("cannot save %1: %2").arg(path, file.errorString());
    return false;
  }
  current_path_ = path;
  addRecent(path);
  return true;
}

QStringList ExperimentFiles::recent() {
  return QSettings().value(kRecentKey).toStringList();
}

void ExperimentFiles::addRecent(const QString& path) {
  QSettings settings;
  QStringList list = settings.value(kRecentKey).toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  list.removeAll(path);
  list.removeAll(absolute);
  list.prepend(absolute);
  while (list.size() > kMaxRecent) list.removeLast();
  settings.setValue(kRecentKey, list);
  emit recentChanged();
}

}  // namespace dplab::ui
