// ExperimentFiles: the experiment file the window edits — open (files and built-in presets),
// save, the current path (what Ctrl+S writes) and the recent files (QSettings "files/recent",
// newest first, at most 8). A preset (":/presets/…") is neither remembered as the current path
// nor added to the recent files; neither is a report folder (exports never touch this).
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <optional>

#include "experiment/experiment_config.h"

namespace dplab::ui {

class ExperimentFiles : public QObject {
  Q_OBJECT
 public:
  explicit ExperimentFiles(QObject* parent = nullptr);

  QString currentPath() const { return current_path_; }
  void clearCurrentPath() { current_path_.clear(); }
  // Parsed config, or nullopt with *error (engine message naming file, line or key).
  std::optional<experiment::ExperimentConfig> open(const QString& path, QString* error);
  bool save(const experiment::ExperimentConfig& config, const QString& path, QString* error);
  static QStringList recent();

 signals:
  void recentChanged();

 private:
  void addRecent(const QString& path);

  QString current_path_;
};

}  // namespace dplab::ui
