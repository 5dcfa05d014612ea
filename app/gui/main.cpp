// dplab: the desktop GUI. A plain launch is an ordinary window; scripted mode only with options:
//   dplab --open EXPERIMENT.json --run --screenshot-dir DIR --quit-when-done [--timeout S]
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>

#include "charts/theme.h"
#include "shell/launcher.h"
#include "shell/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("dplab");
  QApplication::setOrganizationName("dplab");
  QApplication::setApplicationVersion(DPLAB_VERSION);

  QString error;
  const QStringList args = QApplication::arguments();
  if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h")) ||
      args.contains(QStringLiteral("--version")) || args.contains(QStringLiteral("-v"))) {
    QCommandLineParser parser;  // prints and exits
    parser.setApplicationDescription(
        "Laboratory for differentially private ML and honest hyperparameter selection");
    parser.addHelpOption();
    parser.addVersionOption();
    dplab::ui::addScriptOptions(parser);
    parser.process(app);
  }
  const auto options = dplab::ui::parseScriptOptions(args, &error);
  if (!options) {
    std::fprintf(stderr, "dplab: %s\n", error.toLocal8Bit().constData());
    return 2;
  }

  // The desktop's palette, or the one chosen under View → Theme, or --theme for this launch.
  dplab::ui::Theme theme = dplab::ui::savedTheme();
  if (!options->theme.isEmpty()) dplab::ui::parseTheme(options->theme, &theme);
  dplab::ui::applyTheme(theme);

  dplab::ui::MainWindow window;
  window.show();
  const auto session = dplab::ui::launchScriptedSession(&window, *options);
  if (session) {
    QObject::connect(
        session.get(), &dplab::ui::ScriptedSession::quitRequested, &app,
        [](int code) { QApplication::exit(code); }, Qt::QueuedConnection);
  }
  return QApplication::exec();
}
