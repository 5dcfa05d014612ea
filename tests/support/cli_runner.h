// Runs dplab-cli as a process for the CLI suites. The binary is $DPLAB_CLI, which CTest sets
// (tests/CMakeLists.txt; support/test_paths.h).
#pragma once

#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include "support/test_paths.h"

namespace dplab::testing {

// The binary the CLI suites run.
inline QString cli_program() {
  return QString::fromStdString(testing::cli_path());
}

struct CliRun {
  int exit_code = -1;  // -1: crashed, or killed after the time limit
  QString out, err;
};

// How long a CLI run may take: two minutes, times DPLAB_TEST_TIME_SCALE when that is set (the
// sanitizer preset sets 4: ASan + UBSan make `bench`, the slowest run, take ~3 minutes).
inline int cli_time_limit_ms() {
  bool ok = false;
  const double scale = qEnvironmentVariable("DPLAB_TEST_TIME_SCALE").toDouble(&ok);
  return static_cast<int>(120'000 * (ok && scale >= 1 ? scale : 1.0));
}

// Runs the CLI with arguments and waits up to cli_time_limit_ms(). A run that does not finish by
// then is killed and reported as exit_code -1 with a note in err, so the caller's check fails.
inline CliRun run_cli(const QStringList& arguments) {
  QProcess process;
  process.start(cli_program(), arguments);
  if (!process.waitForFinished(cli_time_limit_ms())) {
    process.kill();
    process.waitForFinished();
    return {-1,
            {},
            QStringLiteral("dplab-cli did not finish within %1 s").arg(cli_time_limit_ms() / 1000)};
  }
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

// Runs tests/support/<script> with Debian's /usr/bin/python3 and `arguments` (the checks that
// open dplab's files as their users do: pandas, numpy, jsonschema, onnx). "" when it exits 0,
// else what it printed (or that it did not finish within two minutes).
inline QString python_check_problems(const QString& script, const QStringList& arguments) {
  QProcess p;
  const QString source = QString::fromStdString(source_dir());
  p.start("/usr/bin/python3", QStringList{source + "/tests/support/" + script} + arguments);
  if (!p.waitForFinished(120'000)) return script + " did not finish";
  if (p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0) return {};
  return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
}

// The whole file, or an empty array when it cannot be opened.
inline QByteArray read_file(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace dplab::testing
