// dplab-cli history over a run history written by `tune --db`: list shows the experiment, show
// --json returns the stored summary exactly as tune wrote it, export reproduces tune's CSVs byte
// for byte from the database, and unknown ids / missing files exit 2 naming the flag. A row
// damaged by hand (a summary that is not JSON, a config value of the wrong type) makes show and
// export exit 1 with an error naming the database, the run and the field - never nlohmann's raw
// exception ("internal error") nor a crash.
#include <sqlite3.h>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

class TestCliHistory : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    db_ = dir_.path() + "/runs.sqlite";
    const QString preset =
        QString::fromStdString(dplab::testing::presets_dir() + "/quick-demo.json");
    const CliRun run = run_cli({"tune", "--config", preset, "--threads", "2", "--out",
                                dir_.path() + "/tune", "--db", db_});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
  }

  void list() {
    const CliRun table = run_cli({"history", "list", "--db", db_});
    QCOMPARE(table.exit_code, 0);
    QVERIFY2(table.out.contains("finished") && table.out.contains("6/6") &&
                 table.out.contains("quick-demo"),
             qPrintable(table.out));
    const CliRun json = run_cli({"history", "list", "--db", db_, "--json"});
    const QJsonArray rows = QJsonDocument::fromJson(json.out.toUtf8()).array();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].toObject()["id"].toInt(), 1);
    QCOMPARE(rows[0].toObject()["jobs_finished"].toInt(), 6);
    QCOMPARE(rows[0].toObject()["name"].toString(), QStringLiteral("quick-demo"));
    // What the run charged (schema v3): explore, all 6 runs, the epsilon summary.json reports.
    const QJsonObject row = rows[0].toObject();
    QCOMPARE(row["release_mode"].toString(), QStringLiteral("explore"));
    QCOMPARE(row["runs_trained"].toInt(), 6);
    QCOMPARE(row["runs_charged"].toInt(), 6);
    const QJsonObject summary =
        QJsonDocument::fromJson(read_file(dir_.path() + "/tune/summary.json")).object();
    QCOMPARE(row["epsilon"].toDouble(), summary["release"].toObject()["epsilon"].toDouble());
    QVERIFY2(table.out.contains("explore") && table.out.contains("6 / 6"), qPrintable(table.out));
  }

  void show_returns_the_stored_summary() {
    const CliRun run = run_cli({"history", "show", "--db", db_, "--id", "1", "--json"});
    QCOMPARE(run.exit_code, 0);
    const QJsonObject shown =
        QJsonDocument::fromJson(run.out.toUtf8()).object()["summary"].toObject();
    const QJsonObject written =
        QJsonDocument::fromJson(read_file(dir_.path() + "/tune/summary.json")).object();
    QVERIFY(!written.isEmpty());
    QCOMPARE(shown, written);
    const CliRun table = run_cli({"history", "show", "--db", db_, "--id", "1"});
    QCOMPARE(table.exit_code, 0);
    QVERIFY2(table.out.contains("noise multiplier 2") && table.out.contains("dpadam lr=0.001"),
             qPrintable(table.out));
  }

  void export_reproduces_the_run_files() {
    const QString out = dir_.path() + "/export";
    const CliRun run = run_cli({"history", "export", "--db", db_, "--id", "1", "--out", out});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    for (const char* file : {"curves.csv", "aggregate_curves.csv", "alpha_clip_grid.csv"}) {
      const QByteArray exported = read_file(out + "/" + file);
      QVERIFY2(!exported.isEmpty(), file);
      QVERIFY2(exported == read_file(dir_.path() + "/tune/" + file), file);
    }
    QCOMPARE(QJsonDocument::fromJson(read_file(out + "/summary.json")),
             QJsonDocument::fromJson(read_file(dir_.path() + "/tune/summary.json")));
  }

  void damaged_rows_are_errors_naming_the_field_data() {
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QStringList>("named");
    // The stored summary is cut short: show --json, show and export all print or write it.
    QTest::newRow("summary not JSON")
        << QStringLiteral(
               "UPDATE summaries SET json = '{\"release\": {\"epsilon\": ' "
               "WHERE experiment_id = 1 AND kind = 'summary'")
        << QStringList{"(run 1 summary)", "line 1"};
    // "repeats": "3" (a string): the config no longer reads. show --json prints only the record
    // and the summary (no config), so it is not in this row's commands.
    QTest::newRow("config value of the wrong type")
        << QStringLiteral(
               "UPDATE experiments SET config_json = json_set(config_json, "
               "'$.repeats', '3') WHERE id = 1")
        << QStringList{"experiment 1", "repeats"};
  }
  void damaged_rows_are_errors_naming_the_field() {
    QFETCH(QString, damage);
    QFETCH(QStringList, named);
    // A copy of the history, damaged by hand as a disk error or a hand edit would.
    const QString db = dir_.path() + "/damaged-" + QString::number(++copies_) + ".sqlite";
    QVERIFY(QFile::copy(db_, db));
    sqlite3* raw = nullptr;
    QCOMPARE(sqlite3_open(db.toStdString().c_str(), &raw), SQLITE_OK);
    char* message = nullptr;
    const int rc = sqlite3_exec(raw, damage.toStdString().c_str(), nullptr, nullptr, &message);
    const QString why = message ? QString::fromUtf8(message) : QString();
    sqlite3_free(message);
    QCOMPARE(sqlite3_changes(raw), 1);
    sqlite3_close(raw);
    QVERIFY2(rc == SQLITE_OK, qPrintable(why));

    QList<QStringList> commands{{"show", "--id", "1"},
                                {"export", "--id", "1", "--out", db + "-export"}};
    if (QString(QTest::currentDataTag()).startsWith("summary"))
      commands << QStringList{"show", "--id", "1", "--json"};
    for (QStringList arguments : commands) {
      arguments.prepend("history");
      arguments << "--db" << db;
      const CliRun run = run_cli(arguments);
      const QString what = arguments.join(' ') + ": " + run.err;
      QVERIFY2(run.exit_code == 1, qPrintable(what));  // an error, not a crash (-1)
      QVERIFY2(run.err.contains(db) && !run.err.contains("internal error"), qPrintable(what));
      for (const QString& n : named) QVERIFY2(run.err.contains(n), qPrintable(what));
    }
    // The listing still shows the run: one damaged row does not hide the history.
    const CliRun list = run_cli({"history", "list", "--db", db});
    QCOMPARE(list.exit_code, 0);
    QVERIFY2(list.out.contains("quick-demo"), qPrintable(list.out));
  }

  void bad_input_exits_2_naming_the_flag_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("named");
    QTest::newRow("unknown id") << QStringList{"show", "--id", "7"} << "--id 7";
    QTest::newRow("id not a number")
        << QStringList{"export", "--id", "one", "--out", "x"} << "--id";
    QTest::newRow("no such file") << QStringList{"list", "--db", "/nonexistent/runs.sqlite"}
                                  << "--db";
    QTest::newRow("missing id") << QStringList{"show"} << "--id";
    QTest::newRow("no subcommand") << QStringList{} << "A subcommand is required";
  }
  void bad_input_exits_2_naming_the_flag() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, named);
    QStringList full{"history"};
    full << arguments;
    if (!arguments.isEmpty() && !arguments.contains("--db")) full << "--db" << db_;
    const CliRun run = run_cli(full);
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains(named), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
  }

 private:
  QTemporaryDir dir_;
  QString db_;
  int copies_ = 0;
};

DPLAB_TEST_GUILESS_MAIN(TestCliHistory)
#include "test_cli_history.moc"
