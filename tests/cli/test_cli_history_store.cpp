// The run history's file from the command line (issue #45 items 6 and 8):
//   `tune --db ''` and `history merge --db ''` printed "12 of 12 jobs stored" and exited 0 while
//   nothing persisted (SQLite's temporary database): now usage errors naming --db, before any
//   training; `history list` (a read-only open) showed a dead writer's run as "running" for ever:
//   now "interrupted", as the guide says, without writing to the file.
#include <sqlite3.h>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "support/cli_runner.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::run_cli;

class TestCliHistoryStore : public QObject {
  Q_OBJECT

 private slots:
  void empty_db_is_a_usage_error_data() {
    QTest::addColumn<QStringList>("arguments");
    const QString preset =
        QString::fromStdString(dplab::testing::presets_dir() + "/quick-demo.json");
    QTest::newRow("tune") << QStringList{"tune", "--config", preset, "--db", ""};
    QTest::newRow("history merge") << QStringList{"history", "merge", ".", "--db", ""};
    QTest::newRow("history list") << QStringList{"history", "list", "--db", ""};
  }
  void empty_db_is_a_usage_error() {
    QFETCH(QStringList, arguments);
    QTemporaryDir dir;
    QStringList full = arguments;
    full << "--out" << dir.path() + "/out";
    if (arguments.contains("list")) full = arguments;
    const CliRun run = run_cli(full);
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("--db"), qPrintable(run.err));
    QVERIFY2(!run.err.contains("stored"), qPrintable(run.err));
  }

  void list_shows_a_dead_writers_run_interrupted() {
    QTemporaryDir dir;
    const QString db = dir.path() + "/runs.sqlite";
    const QString preset =
        QString::fromStdString(dplab::testing::presets_dir() + "/quick-demo.json");
    const CliRun tune = run_cli(
        {"tune", "--config", preset, "--threads", "2", "--out", dir.path() + "/tune", "--db", db});
    QVERIFY2(tune.exit_code == 0, qPrintable(tune.err));
    // As after kill -9: still "running", its writer (that tune process) gone.
    sqlite3* raw = nullptr;
    QCOMPARE(sqlite3_open(db.toUtf8().constData(), &raw), SQLITE_OK);
    QCOMPARE(
        sqlite3_exec(raw, "UPDATE experiments SET status = 'running'", nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(raw);
    const CliRun list = run_cli({"history", "list", "--db", db, "--json"});
    QCOMPARE(list.exit_code, 0);
    const QJsonArray rows = QJsonDocument::fromJson(list.out.toUtf8()).array();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].toObject()["status"].toString(), QStringLiteral("interrupted"));
    const CliRun table = run_cli({"history", "list", "--db", db});
    QVERIFY2(table.out.contains("interrupted"), qPrintable(table.out));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestCliHistoryStore)
#include "test_cli_history_store.moc"
