// Launcher: what `dplab [options]` does with its command line. A ScriptedSession (open, run,
// screenshots, quit with an exit code, --timeout) exists only when a scripted option is given;
// a plain launch is an ordinary window that never quits by itself — Cancel, a failed run or a
// long session leave it open.
#pragma once

#include <QCommandLineParser>
#include <QStringList>
#include <memory>

#include "shell/scripted_session.h"

namespace dplab::ui {

class MainWindow;

// Every option `dplab` accepts, for the parser below and for `dplab --help` (and so its man page,
// generated from --help): one list, so the help cannot miss an option.
void addScriptOptions(QCommandLineParser& parser);

// Parses argv-style arguments (args[0] = program). Unknown options: *error is set, nullopt.
// --help/--version are not handled here (main() does that before).
std::optional<ScriptOptions> parseScriptOptions(const QStringList& args, QString* error);

// The scripted session for these options, started on the next event-loop pass; null when no
// scripted option was given. Its quitRequested(code) signal is what may end the application.
std::unique_ptr<ScriptedSession> launchScriptedSession(MainWindow* window,
                                                       const ScriptOptions& options);

}  // namespace dplab::ui
