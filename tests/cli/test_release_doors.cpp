// Every release mode through every CLI door (issue #42): `tune --out` (with --db), `history
// export` of the stored run, and `tune --plan` + `run-jobs` + `history merge --out`, on the tiny
// experiment in explore, private MA, private LT and private PS. For each folder written:
//   - release.json validates against docs/schema/release.schema.json and every CSV reads with
//     pandas.read_csv(path) and csv.DictReader (tests/support/check_release_files.py, Debian's
//     python3);
//   - every CSV column and every release.json key has a class in the engine's field table
//     (release/field_class.h), none is curator-only, and every not-covered column is listed with
//     its reason in release.json's not_covered;
//   - a private search writes winners.csv only: no per-run curves, no training loss, no seed, and
//     no file but curator-only.json holds the number of runs K;
//   - the three doors write the same release.json and CSVs, byte for byte.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "release/field_class.h"
#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"

using dplab::release::field_rule;
using dplab::release::FieldClass;
using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

// check_release_files.py on `folder`: "" when it passes, else what it printed.
QString python_check(const QString& folder) {
  const QString source = QString::fromStdString(dplab::testing::source_dir());
  return dplab::testing::python_check_problems(
      "check_release_files.py", {folder, source + "/docs/schema/release.schema.json"});
}

QStringList csv_header(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readLine()).trimmed().split(',');
}

std::set<std::string> not_covered_of(const nlohmann::json& release, const std::string& file) {
  std::set<std::string> fields;
  for (const auto& item : release["not_covered"]) {
    if (item["file"] == file) fields.insert(item["field"].get<std::string>());
  }
  return fields;
}

struct Mode {
  const char* name;
  QStringList flags;
  bool is_private;
};

}  // namespace

class TestReleaseDoors : public QObject {
  Q_OBJECT

  dplab::testing::TempFiles tmp_;
  QString config_;

  QString path(const std::string& name) { return QString::fromStdString(tmp_.path(name.c_str())); }

  // The checks every release folder passes, whatever door wrote it.
  void check_folder(const QString& dir, bool is_private) {
    const QString problems = python_check(dir);
    QVERIFY2(problems.isEmpty(), qPrintable(dir + ": " + problems));
    const auto release = nlohmann::json::parse(read_file(dir + "/release.json").toStdString());
    QCOMPARE(release["schema"].get<std::string>(), std::string("dplab.release/1"));
    for (const auto& file : release["files"]) {
      const std::string name = file.get<std::string>();
      if (name.size() < 4 || name.substr(name.size() - 4) != ".csv") continue;  // a model's files
      const QStringList header = csv_header(dir + "/" + QString::fromStdString(name));
      QVERIFY2(!header.isEmpty(), name.c_str());
      const std::set<std::string> listed = not_covered_of(release, name);
      for (const QString& column : header) {
        const auto& rule = field_rule(name, column.toStdString());  // throws if unclassified
        QVERIFY2(rule.klass != FieldClass::kCuratorOnly, qPrintable(column));
        // A not-covered column is never written without its label.
        QCOMPARE(listed.count(column.toStdString()),
                 std::size_t{rule.klass == FieldClass::kNotCovered});
      }
    }
    const QStringList written = QDir(dir).entryList({"*.csv"}, QDir::Files);
    if (is_private) {
      // Only the winners: no per-run table, no lot loss, no seed, no run count.
      QCOMPARE(written, QStringList{"winners.csv"});
      const QStringList header = csv_header(dir + "/winners.csv");
      QVERIFY(!header.contains("train_loss") && !header.contains("seed"));
      QVERIFY(!release["privacy"].contains("runs_trained"));
      QVERIFY(!release["released"].contains("runs"));
      QVERIFY(release["privacy"]["noise_source"].get<std::string>().rfind("not secure", 0) == 0);
      QVERIFY2(read_file(dir + "/winners.csv").contains("not secure"), "the label says so");
    } else {
      QCOMPARE(written, (QStringList{"aggregate_curves.csv", "alpha_clip_grid.csv", "curves.csv"}));
      QCOMPARE(not_covered_of(release, "curves.csv"), std::set<std::string>{"train_loss"});
    }
  }

  void same_files(const QString& a, const QString& b) {
    const auto release = nlohmann::json::parse(read_file(a + "/release.json").toStdString());
    QVERIFY2(read_file(a + "/release.json") == read_file(b + "/release.json"),
             qPrintable(a + " vs " + b + ": release.json differs"));
    for (const auto& file : release["files"]) {
      const QString name = QString::fromStdString(file.get<std::string>());
      QVERIFY2(read_file(a + "/" + name) == read_file(b + "/" + name),
               qPrintable(a + " vs " + b + ": " + name + " differs"));
    }
  }

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    std::string text = dplab::testing::tiny_experiment_json(50, 2);
    text.replace(text.find("\"seed\": 42"), 10, "\"seed\": 42, \"tuning\": {\"gamma\": 0.5}");
    config_ = QString::fromStdString(tmp_.write("tiny.json", text));
  }

  void every_mode_through_every_door_data() {
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<bool>("is_private");
    QTest::newRow("explore") << "explore" << QStringList{} << false;
    QTest::newRow("private ma") << "ma" << QStringList{"--release", "private", "--strategy", "ma"}
                                << true;
    QTest::newRow("private lt") << "lt" << QStringList{"--release", "private", "--strategy", "lt"}
                                << true;
    QTest::newRow("private ps") << "ps" << QStringList{"--release", "private", "--strategy",
                                                       "ps",        "--ps-mu", "3"}
                                << true;
  }

  void every_mode_through_every_door() {
    QFETCH(QString, mode);
    QFETCH(QStringList, flags);
    QFETCH(bool, is_private);
    const QString out = path("tune-" + mode.toStdString());
    const QString db = path("history-" + mode.toStdString() + ".sqlite");
    CliRun r = run_cli(
        QStringList{"tune", "--config", config_, "--threads", "2", "--out", out, "--db", db} +
        flags);
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    check_folder(out, is_private);

    // history export of the stored run: the same release (finding 1: it wrote every winner's
    // un-noised train_loss under the plain private label).
    const QString exported = path("export-" + mode.toStdString());
    r = run_cli({"history", "export", "--db", db, "--id", "1", "--out", exported});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    check_folder(exported, is_private);
    same_files(out, exported);

    // The cluster door: plan, one shard, merge.
    const QString plan = path("plan-" + mode.toStdString());
    r = run_cli(QStringList{"tune", "--config", config_, "--plan", plan} + flags);
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    r = run_cli({"run-jobs", plan, "--shard", "0", "--shards", "1", "--threads", "2"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QString merged = path("merged-" + mode.toStdString());
    r = run_cli({"history", "merge", plan, "--db", path("merged-" + mode.toStdString() + ".sqlite"),
                 "--out", merged});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    check_folder(merged, is_private);
    same_files(out, merged);
  }

  // train --out: curve.csv and release.json, through the same writer, private and baseline.
  void train_writes_one_release_data() {
    QTest::addColumn<QString>("optimizer");
    QTest::newRow("dpsgd") << "dpsgd";
    QTest::newRow("non-private sgd") << "sgd";
  }

  void train_writes_one_release() {
    QFETCH(QString, optimizer);
    const QString out = path("train-" + optimizer.toStdString());
    const CliRun r = run_cli({"train",   "--dataset",  "synthetic-binary",
                              "--model", "logistic",   "--optimizer",
                              optimizer, "--lr",       "0.1",
                              "--clip",  "1",          "--noise-multiplier",
                              "1",       "--lot-size", "100",
                              "--steps", "60",         "--eval-every",
                              "20",      "--seed",     "5",
                              "--out",   out});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QString problems = python_check(out);
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
    const auto release = nlohmann::json::parse(read_file(out + "/release.json").toStdString());
    QCOMPARE(release["mode"].get<std::string>(), std::string("train"));
    QCOMPARE(not_covered_of(release, "curve.csv"), std::set<std::string>{"train_loss"});
    QVERIFY(!release["released"]["final"].contains("train_loss"));
    const auto summary = nlohmann::json::parse(read_file(out + "/summary.json").toStdString());
    if (optimizer == "sgd") {
      QVERIFY(release["privacy"]["epsilon"].is_null());
      QVERIFY(release["privacy"]["epsilon_label"].get<std::string>().rfind("no eps", 0) == 0);
    } else {
      QCOMPARE(release["privacy"]["epsilon"].get<double>(),
               summary["privacy"]["epsilon"].get<double>());
    }
    for (const QString& column : csv_header(out + "/curve.csv"))
      field_rule("curve.csv", column.toStdString());  // throws if unclassified
  }
};

DPLAB_TEST_MAIN(TestReleaseDoors)
#include "test_release_doors.moc"
