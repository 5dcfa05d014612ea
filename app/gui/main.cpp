// dplab: the desktop GUI. Scriptable:
//   dplab --open EXPERIMENT.json --run --screenshot-dir DIR --quit-when-done
#include <QApplication>
#include <QCommandLineParser>

#include "shell/main_window.h"
#include "shell/scripted_session.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("dplab");
  QApplication::setOrganizationName("dplab");
  QApplication::setApplicationVersion("0.1.0");

  QCommandLineParser parser;
  parser.setApplicationDescription("Laboratory for differentially private ML and honest hyperparameter selection");
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption open({"o", "open"}, "Open an experiment file (JSON).", "EXPERIMENT.json");
  const QCommandLineOption run({"r", "run"}, "Run the experiment once it is loaded.");
  const QCommandLineOption shots("screenshot-dir", "Save a PNG of the window per tab into DIR.", "DIR");
  const QCommandLineOption quit("quit-when-done", "Exit when the run (and screenshots) are done.");
  const QCommandLineOption timeout("timeout", "Give up after this many seconds (scripted mode).", "SECONDS", "3600");
  parser.addOptions({open, run, shots, quit, timeout});
  parser.process(app);

  dplab::ui::MainWindow window;
  window.show();
  dplab::ui::ScriptOptions options;
  options.open_path = parser.value(open);
  options.run = parser.isSet(run);
  options.screenshot_dir = parser.value(shots);
  options.quit_when_done = parser.isSet(quit);
  options.timeout_seconds = parser.value(timeout).toInt();
  dplab::ui::ScriptedSession session(&window, options);
  if (!options.open_path.isEmpty() || options.run || !options.screenshot_dir.isEmpty() || options.quit_when_done) {
    QMetaObject::invokeMethod(&session, &dplab::ui::ScriptedSession::start, Qt::QueuedConnection);
  }
  return QApplication::exec();
}
