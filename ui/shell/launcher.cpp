#include "shell/launcher.h"

#include <QCommandLineParser>
#include <QMetaObject>

#include "charts/theme.h"

namespace dplab::ui {

void addScriptOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {{"o", "open"},
       "Open an experiment file (JSON), or a shipped preset by its name (e.g. quick-demo).",
       "EXPERIMENT.json"},
      {{"r", "run"}, "Run the experiment once it is loaded (scripted mode)."},
      {"screenshot-dir", "Save a PNG of the window per tab into DIR (scripted mode).", "DIR"},
      {"export-report",
       "After the run, write its report (charts at the saved export size, CSVs, summary) into "
       "DIR (scripted mode).",
       "DIR"},
      {"quit-when-done",
       "Exit when the run (and screenshots) are done (scripted mode); failures exit 1."},
      {"theme",
       "Colours for this launch: system (the desktop's), light or dark; View → Theme keeps a "
       "choice.",
       "NAME"},
      {"timeout", "Scripted mode only: give up (exit 1) after this many seconds.", "SECONDS",
       "3600"},
  });
}

std::optional<ScriptOptions> parseScriptOptions(const QStringList& args, QString* error) {
  QCommandLineParser parser;
  addScriptOptions(parser);
  parser.addHelpOption();
  parser.addVersionOption();
  if (!parser.parse(args)) {
    if (error) *error = parser.errorText();
    return std::nullopt;
  }
  ScriptOptions o;
  o.open_path = parser.value(QStringLiteral("open"));
  o.run = parser.isSet(QStringLiteral("run"));
  o.screenshot_dir = parser.value(QStringLiteral("screenshot-dir"));
  o.report_dir = parser.value(QStringLiteral("export-report"));
  o.quit_when_done = parser.isSet(QStringLiteral("quit-when-done"));
  o.theme = parser.value(QStringLiteral("theme"));
  Theme theme;
  if (!o.theme.isEmpty() && !parseTheme(o.theme, &theme)) {
    if (error)
      *error = QStringLiteral("--theme: '%1' is not one of system, light, dark").arg(o.theme);
    return std::nullopt;
  }
  bool ok = false;
  o.timeout_seconds = parser.value(QStringLiteral("timeout")).toInt(&ok);
  if (!ok || o.timeout_seconds <= 0) {
    if (error)
      *error = QStringLiteral("--timeout: '%1' is not a whole number of seconds > 0")
                   .arg(parser.value(QStringLiteral("timeout")));
    return std::nullopt;
  }
  return o;
}

std::unique_ptr<ScriptedSession> launchScriptedSession(MainWindow* window,
                                                       const ScriptOptions& options) {
  if (!options.scripted()) return nullptr;
  auto session = std::make_unique<ScriptedSession>(window, options);
  QMetaObject::invokeMethod(session.get(), &ScriptedSession::start, Qt::QueuedConnection);
  return session;
}

}  // namespace dplab::ui
