// A search run as a plan (tune --plan), N shards (run-jobs) and a merge (history merge) equals a
// plain `tune --out` of the same experiment byte for byte (issue #28): the results CSVs, the
// summary without wall times, the printed report and epsilon label, for explore and the private
// MA / LT / PS releases, N in {1, 3, 7}. A killed shard re-run runs only its missing jobs; the
// merge refuses a missing job, a second store of one shard, a store of another plan, and a plan
// whose draws were edited.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

// The text without its lines that hold one of `keys` (JSON "key": lines): the wall times and the
// run-history location, which depend on the machine and the --db, not on the search.
// A JSON file without `keys` at any depth (the timings and the history's handles), as text.
std::string without_keys(const QByteArray& text, const std::vector<std::string>& keys) {
  nlohmann::json j = nlohmann::json::parse(text.toStdString());
  const std::function<void(nlohmann::json&)> erase = [&](nlohmann::json& node) {
    if (!node.is_structured()) return;  // a number or string iterates over itself
    if (node.is_object())
      for (const std::string& key : keys) node.erase(key);
    for (auto& child : node) erase(child);
  };
  erase(j);
  return j.dump(2);
}

// stdout without the "wrote ..." line (it names the folder and the wall time) and the CPU-time
// line (a local search's; a merged one ran elsewhere).
QString report_lines(const QString& out) {
  QStringList lines = out.split('\n');
  lines.erase(std::remove_if(lines.begin(), lines.end(),
                             [](const QString& l) {
                               return l.startsWith("wrote ") || l.startsWith("CPU time (");
                             }),
              lines.end());
  return lines.join('\n');
}

QStringList release_flags(const QString& release) {
  if (release == "explore") return {};
  return {"--release", "private", "--strategy", release};
}

// The files each release writes into --out.
QStringList output_files(const QString& release) {
  if (release == "explore")
    return {"curves.csv", "aggregate_curves.csv", "alpha_clip_grid.csv", "summary.json"};
  return {"summary.json", "winners.csv", "curator-only.json"};
}

}  // namespace

class ClusterPlanTest : public QObject {
  Q_OBJECT

  dplab::testing::TempFiles files_;
  QString experiment_;
  std::map<QString, CliRun> local_;  // release -> the local tune's run (out: files_/local-R)

  QString path(const QString& name) const {
    return QString::fromStdString(files_.path(name.toUtf8().constData()));
  }

  // tune --out of `release`, run once per release for all comparisons.
  const CliRun& local(const QString& release) {
    auto it = local_.find(release);
    if (it == local_.end()) {
      QStringList args{"tune", "--config", experiment_, "--out", path("local-" + release)};
      args += release_flags(release);
      it = local_.emplace(release, run_cli(args)).first;
    }
    return it->second;
  }

  CliRun plan(const QString& release, const QString& dir, const QString& experiment = {}) {
    QStringList args{"tune", "--config", experiment.isEmpty() ? experiment_ : experiment, "--plan",
                     dir};
    return run_cli(args + release_flags(release));
  }

  CliRun run_shard(const QString& dir, int shard, int shards) {
    return run_cli({"run-jobs", dir, "--shard", QString::number(shard), "--shards",
                    QString::number(shards), "--threads", "1"});
  }

  CliRun merge(const QString& dir, const QString& out) {
    return run_cli({"history", "merge", dir, "--db", dir + "-history.sqlite", "--out", out});
  }

  // Plans `release` into `dir` and runs all `shards` shards; false (with a message) on failure.
  bool plan_and_run(const QString& release, const QString& dir, int shards) {
    const CliRun p = plan(release, dir);
    if (p.exit_code != 0) {
      qWarning("tune --plan: %s", qPrintable(p.err));
      return false;
    }
    for (int i = 0; i < shards; ++i) {
      const CliRun r = run_shard(dir, i, shards);
      if (r.exit_code != 0) {
        qWarning("run-jobs %d: %s", i, qPrintable(r.err));
        return false;
      }
    }
    return true;
  }

  void compare_with_local(const QString& release, const QString& out, const CliRun& merged) {
    const CliRun& here = local(release);
    QVERIFY2(here.exit_code == 0, qPrintable(here.err));
    const QString local_out = path("local-" + release);
    for (const QString& name : output_files(release)) {
      const QByteArray a = read_file(local_out + "/" + name), b = read_file(out + "/" + name);
      QVERIFY2(!a.isEmpty(), qPrintable(name));
      if (name.endsWith(".json")) {
        // Only the timings and the history's handles differ: the rest is the same JSON.
        const std::vector<std::string> differ = {"wall_seconds", "cpu_time", "db", "run_id"};
        QCOMPARE(without_keys(b, differ), without_keys(a, differ));
      } else {
        QCOMPARE(b, a);
      }
    }
    QCOMPARE(report_lines(merged.out), report_lines(here.out));
  }

 private slots:
  void initTestCase() {
    QVERIFY(files_.isValid());
    experiment_ = QString::fromStdString(
        files_.write("tiny.json", dplab::testing::tiny_experiment_json(50, 2)));
  }

  void mergeEqualsLocalTune_data() {
    QTest::addColumn<QString>("release");
    QTest::addColumn<int>("shards");
    for (const QString release : {"explore", "ma", "lt", "ps"}) {
      for (int shards : {1, 3, 7}) {
        const QByteArray name = (release + "-" + QString::number(shards)).toUtf8();
        QTest::newRow(name.constData()) << release << shards;
      }
    }
  }

  void mergeEqualsLocalTune() {
    QFETCH(QString, release);
    QFETCH(int, shards);
    const QString dir = path("plan-" + release + "-" + QString::number(shards));
    QVERIFY(plan_and_run(release, dir, shards));
    // Every job ran exactly once, each in its own shard's store.
    const QStringList stores = QDir(dir + "/stores").entryList({"*.sqlite"});
    QVERIFY(!stores.isEmpty() && stores.size() <= shards);
    const QString out = dir + "-out";
    const CliRun merged = merge(dir, out);
    QVERIFY2(merged.exit_code == 0, qPrintable(merged.err));
    compare_with_local(release, out, merged);
    // The epsilon label of the merged run is the local one (also inside summary.json above).
    QVERIFY(merged.out.contains(release == "explore" ? "explore: all 10 runs trained"
                                                     : "private " + release));
  }

  // A shard killed after its first job keeps that job; run again, it runs only the others and
  // the merge still equals the local run.
  void killedShardResumes() {
    // Slower jobs so that the kill lands while the second one trains (one thread).
    const QString experiment = QString::fromStdString(
        files_.write("slow.json", dplab::testing::tiny_experiment_json(20000, 1)));
    const QString dir = path("plan-killed");
    QCOMPARE(plan("explore", dir, experiment).exit_code, 0);
    QProcess shard;
    shard.start(dplab::testing::cli_program(),
                {"run-jobs", dir, "--shard", "0", "--shards", "1", "--threads", "1"});
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += shard.readAllStandardError()).contains("1/5 ended"), 60000);
    shard.kill();
    QVERIFY(shard.waitForFinished());
    err += shard.readAllStandardError();
    QVERIFY2(!err.contains("5/5 ended"), err.constData());  // the kill came before the end
    const CliRun again = run_shard(dir, 0, 1);
    QVERIFY2(again.exit_code == 0, qPrintable(again.err));
    const auto kept = QRegularExpression(R"(\((\d) already stored\))").match(again.err);
    QVERIFY2(kept.hasMatch(), qPrintable(again.err));
    const int stored = kept.captured(1).toInt();
    QVERIFY(stored >= 1 && stored < 5);
    QCOMPARE(again.err.count(" ended: "), 5 - stored);  // only the missing jobs ran
    const CliRun done = run_shard(dir, 0, 1);           // a complete shard runs nothing
    QVERIFY2(done.exit_code == 0 && done.err.contains("all 5 jobs already in"),
             qPrintable(done.err));

    const QString out = dir + "-out";
    const CliRun merged = merge(dir, out);
    QVERIFY2(merged.exit_code == 0, qPrintable(merged.err));
    const QString local_out = path("local-slow");
    const CliRun here = run_cli({"tune", "--config", experiment, "--out", local_out});
    QVERIFY2(here.exit_code == 0, qPrintable(here.err));
    QCOMPARE(read_file(out + "/curves.csv"), read_file(local_out + "/curves.csv"));
    QCOMPARE(without_keys(read_file(out + "/summary.json"), {"wall_seconds", "cpu_time"}),
             without_keys(read_file(local_out + "/summary.json"), {"wall_seconds", "cpu_time"}));
  }

  // A PS search that drew K = 0 runs nothing anywhere: no shard has a store, and the merge
  // releases nothing exactly as the local run does (instead of refusing "no store").
  void privateSearchWithoutRunsMerges() {
    // Seed 1, mu = 1, one replicate: this draw is K = 0 (checked below, so that the test says so
    // if the sampler ever changes).
    const QString experiment = QString::fromStdString(
        files_.write("k0.json", QString::fromStdString(dplab::testing::tiny_experiment_json(50, 2))
                                    .replace("\"seed\": 42", "\"seed\": 1")
                                    .toStdString()));
    const QStringList flags{"--release", "private", "--strategy", "ps",
                            "--ps-mu",   "1",       "--repeats",  "1"};
    const QString dir = path("plan-k0");
    const CliRun p = run_cli(QStringList{"tune", "--config", experiment, "--plan", dir} + flags);
    QVERIFY2(p.exit_code == 0, qPrintable(p.err));
    QVERIFY2(read_file(dir + "/plan.json").contains("\"jobs\": []"),
             "the premise K = 0 no longer holds for this seed: pick another");
    for (int i = 0; i < 3; ++i) QCOMPARE(run_shard(dir, i, 3).exit_code, 0);
    QVERIFY(QDir(dir + "/stores").entryList({"*.sqlite"}).isEmpty());
    const CliRun merged = merge(dir, dir + "-out");
    QVERIFY2(merged.exit_code == 0, qPrintable(merged.err));
    const QString local_out = path("local-k0");
    const CliRun here =
        run_cli(QStringList{"tune", "--config", experiment, "--out", local_out} + flags);
    QVERIFY2(here.exit_code == 0, qPrintable(here.err));
    QCOMPARE(read_file(dir + "-out/summary.json"), read_file(local_out + "/summary.json"));
    QCOMPARE(read_file(dir + "-out/winners.csv"), read_file(local_out + "/winners.csv"));
    QCOMPARE(report_lines(merged.out), report_lines(here.out));
  }

  void missingJobIsRefused() {
    const QString dir = path("plan-missing");
    QCOMPARE(plan("explore", dir).exit_code, 0);
    QCOMPARE(run_shard(dir, 0, 3).exit_code, 0);
    QCOMPARE(run_shard(dir, 1, 3).exit_code, 0);
    const CliRun merged = merge(dir, dir + "-out");
    QCOMPARE(merged.exit_code, 1);
    // Job 2 = candidate 1, repeat 0 (index c * repeats + r) is shard 2's first.
    QVERIFY2(merged.err.contains("job 2 (candidate 1, repeat 0) of shard 2"),
             qPrintable(merged.err));
    QVERIFY2(merged.err.contains("--shard 2 --shards 3"), qPrintable(merged.err));
    QVERIFY(!QFile::exists(dir + "-out/summary.json"));
  }

  void duplicateStoreIsRefused() {
    const QString dir = path("plan-duplicate");
    QVERIFY(plan_and_run("explore", dir, 3));
    QVERIFY(QFile::copy(dir + "/stores/shard-1.sqlite", dir + "/stores/shard-1-copy.sqlite"));
    const CliRun merged = merge(dir, dir + "-out");
    QCOMPARE(merged.exit_code, 1);
    QVERIFY2(merged.err.contains("duplicate store") && merged.err.contains("shard-1.sqlite") &&
                 merged.err.contains("shard-1-copy.sqlite"),
             qPrintable(merged.err));
  }

  void foreignStoreIsRefused() {
    // Another plan: the same experiment with another seed (so other job seeds).
    const QString other = QString::fromStdString(files_.write(
        "other.json", QString::fromStdString(dplab::testing::tiny_experiment_json(50, 2))
                          .replace("\"seed\": 42", "\"seed\": 43")
                          .toStdString()));
    const QString foreign = path("plan-foreign-other");
    QCOMPARE(plan("explore", foreign, other).exit_code, 0);
    QCOMPARE(run_shard(foreign, 0, 3).exit_code, 0);
    const QString dir = path("plan-foreign");
    QVERIFY(plan_and_run("explore", dir, 3));
    QVERIFY(QFile::remove(dir + "/stores/shard-0.sqlite"));
    QVERIFY(QFile::copy(foreign + "/stores/shard-0.sqlite", dir + "/stores/shard-0.sqlite"));
    const CliRun merged = merge(dir, dir + "-out");
    QCOMPARE(merged.exit_code, 1);
    QVERIFY2(merged.err.contains("shard-0.sqlite: a store of another plan"),
             qPrintable(merged.err));
    // run-jobs does not write into it either.
    const CliRun shard = run_shard(dir, 0, 3);
    QCOMPARE(shard.exit_code, 1);
    QVERIFY2(shard.err.contains("a store of another plan"), qPrintable(shard.err));
    // A store of the same plan split another way is refused too.
    QVERIFY(QFile::remove(dir + "/stores/shard-0.sqlite"));
    QCOMPARE(run_shard(dir, 0, 7).exit_code, 0);
    const CliRun mixed = merge(dir, dir + "-out");
    QCOMPARE(mixed.exit_code, 1);
    QVERIFY2(mixed.err.contains("of 7") || mixed.err.contains("7 shards"), qPrintable(mixed.err));
  }

  // The plan holds K; a plan edited to other draws would release a winner the epsilon does not
  // describe, so it is refused.
  void editedDrawsAreRefused() {
    const QString dir = path("plan-edited");
    QCOMPARE(plan("lt", dir).exit_code, 0);
    QByteArray text = read_file(dir + "/plan.json");
    const QRegularExpression first_job(R"("first_job": (\d+))");
    const auto m = first_job.match(QString::fromUtf8(text));
    QVERIFY(m.hasMatch());
    text.replace(m.captured(0).toUtf8(),
                 QString("\"first_job\": %1").arg(m.captured(1).toInt() + 1).toUtf8());
    QFile file(dir + "/plan.json");
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
    file.close();
    const CliRun shard = run_shard(dir, 0, 1);
    QCOMPARE(shard.exit_code, 1);
    QVERIFY2(shard.err.contains("private_draws"), qPrintable(shard.err));
  }

  // A machine whose data file differs from the plan's (same sizes, one value changed) would
  // train other runs under the plan's seeds: run-jobs refuses it.
  void otherDataIsRefused() {
    QByteArray csv = "a,b,label\n";
    for (int i = 0; i < 200; ++i) {
      csv += QByteArray::number(i % 17) + "," + QByteArray::number((i * 7) % 23) + "," +
             QByteArray::number(i % 2) + "\n";
    }
    const std::string data = files_.write("people.csv", csv.toStdString());
    const QString experiment = QString::fromStdString(
        files_.write("file.json", R"({"name": "file", "dataset": {"source": ")" + data +
                                      R"("}, "model": {"kind": "logistic"},
          "privacy": {"noise_multiplier": 1.0, "lot_size": 20, "steps": 20},
          "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5]}}],
          "repeats": 1, "eval_every": 10, "seed": 5})"));
    const QString dir = path("plan-data");
    const CliRun p = plan("explore", dir, experiment);
    QVERIFY2(p.exit_code == 0, qPrintable(p.err));
    csv.replace("\n3,21,", "\n4,21,");  // row 3: the same shape, another value
    files_.write("people.csv", csv.toStdString());
    const CliRun shard = run_shard(dir, 0, 1);
    QCOMPARE(shard.exit_code, 1);
    QVERIFY2(shard.err.contains("is not the one the plan was made with"), qPrintable(shard.err));
  }

  void planRefusesRunFlags() {
    const CliRun r =
        run_cli({"tune", "--config", experiment_, "--plan", path("plan-flags"), "--out", "x"});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("--out"), qPrintable(r.err));
    const CliRun secure = run_cli({"tune", "--config", experiment_, "--plan", path("plan-secure"),
                                   "--release", "private", "--secure"});
    QCOMPARE(secure.exit_code, 2);
    QVERIFY2(secure.err.contains("secure"), qPrintable(secure.err));
    const CliRun bad_shard =
        run_cli({"run-jobs", path("plan-range"), "--shard", "3", "--shards", "3"});
    QCOMPARE(bad_shard.exit_code, 2);
    QVERIFY2(bad_shard.err.contains("--shard 3 --shards 3"), qPrintable(bad_shard.err));
  }
};

DPLAB_TEST_GUILESS_MAIN(ClusterPlanTest)
#include "test_cluster_plan.moc"
