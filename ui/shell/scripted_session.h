// ScriptedSession: the command-line mode `dplab --open EXPERIMENT.json --run --screenshot-dir DIR
// --export-report DIR --quit-when-done`. It opens the experiment, waits until its data set is
// loaded and the form is valid, runs it, then shows each tab in turn and saves a PNG of the whole
// main window per tab, writes the run's report (charts at the saved export size), prints the GUI
// thread's longest stall, and quits with 0 — or 1 with a message on stderr when anything failed
// (bad file, invalid form, failed run, screenshot or report not written, timeout).
// Only with --quit-when-done does the session quit or time out; `dplab --open F`
// just opens F in an ordinary window.
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
  QString report_dir;  // --export-report: the run's report folder (File → Export report)
  bool quit_when_done = false;
  int timeout_seconds = 3600;
  QString theme;  // --theme system|light|dark: this launch's colours (View → Theme keeps one)
  // True when any scripted option is given (--open alone opens the file and stays interactive:
  // the session ends after opening without quitting).
  bool scripted() const {
    return !open_path.isEmpty() || run || !screenshot_dir.isEmpty() || !report_dir.isEmpty() ||
           quit_when_done;
  }
  // Whether the process ends by itself (exit 0 when done, 1 on failure or --timeout): only with
  // --quit-when-done; otherwise failures are reported and the window stays.
  bool unattended() const { return quit_when_done; }
};

class ScriptedSession : public QObject {
  Q_OBJECT
 public:
  ScriptedSession(MainWindow* window, ScriptOptions options, QObject* parent = nullptr);
  void start();

 signals:
  // The application should exit with this code (main() connects it to QApplication::exit).
  void quitRequested(int code);

 private:
  void waitForForm();
  void onRunFinished(bool ok, bool cancelled);
  void takeScreenshots();
  // Exports the report when asked (then finishes on reportExported), else finishes at once.
  void exportReportThenFinish();
  void finish(int code, const QString& error = QString());

  MainWindow* window_;
  ScriptOptions options_;
  QTimer* poll_;
  int waited_ms_ = 0;
  bool run_started_ = false;  // only the run this session started is its business
  bool done_ = false;
};

}  // namespace dplab::ui
