// ScriptedSession: the command-line mode `dplab --open EXPERIMENT.json --run --screenshot-dir DIR
// --quit-when-done`. It opens the experiment, waits until its data set is loaded and the form is
// valid, runs it, then shows each tab in turn and saves a PNG of the whole main window per tab,
// prints the GUI thread's longest stall, and quits with 0 — or 1 with a message on stderr when
// anything failed (bad file, invalid form, failed run, screenshot not written, timeout).
#pragma once

#include <QObject>
#include <QString>

class QTimer;

namespace dplab::ui {

class MainWindow;

struct ScriptOptions {
  QString open_path;
  bool run = false;
  QString screenshot_dir;
  bool quit_when_done = false;
  int timeout_seconds = 3600;
};

class ScriptedSession : public QObject {
  Q_OBJECT
 public:
  ScriptedSession(MainWindow* window, ScriptOptions options, QObject* parent = nullptr);
  void start();

 private:
  void waitForForm();
  void onRunFinished(bool ok, bool cancelled);
  void takeScreenshots();
  void finish(int code, const QString& error = QString());

  MainWindow* window_;
  ScriptOptions options_;
  QTimer* poll_;
  int waited_ms_ = 0;
  bool done_ = false;
};

}  // namespace dplab::ui
