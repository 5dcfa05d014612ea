// The engine side of the GUI's cluster watch (cluster/cluster_watch.h, issue #28; in the ui
// runner beside test_cluster_attach, whose window polls through it): polling a plan folder while
// dplab-cli run-jobs fills it. Each stored job is handed over once (new_jobs); the search as it
// stands equals merge_shards once complete, and a private plan's release equals the merge's
// selection; a shard count comes from the stores (no slurm.json) or from slurm.json; a half-made
// store is not an error at the first poll but is at the second, naming the file; a store of
// another plan is an error naming the file and keeps the search from being complete; a shard
// whose task died mid-way is stale (a short stale_after) and its run interrupted, a running one
// is not.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <thread>

#include "cluster/cluster_watch.h"
#include "cluster/search_plan.h"
#include "core/error.h"
#include "store/store.h"
#include "support/cli_runner.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"

using dplab::testing::CliRun;
using dplab::testing::run_cli;
namespace cluster = dplab::cluster;
namespace tuning = dplab::tuning;

namespace {

QStringList run_jobs(const QString& dir, int shard, int shards) {
  return {"run-jobs",  dir, "--shard", QString::number(shard), "--shards", QString::number(shards),
          "--threads", "1"};
}

bool same_jobs(const tuning::SearchResults& a, const tuning::SearchResults& b) {
  if (a.jobs.size() != b.jobs.size()) return false;
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    const auto& x = a.jobs[i];
    const auto& y = b.jobs[i];
    // The same store rows read by the same code: the same bits.
    if (x.candidate != y.candidate || x.repeat != y.repeat || x.seed != y.seed ||
        x.status != y.status || x.curve.size() != y.curve.size() ||
        !(x.final_val_accuracy == y.final_val_accuracy))
      return false;
  }
  return true;
}

}  // namespace

class ClusterWatchTest : public QObject {
  Q_OBJECT

  dplab::testing::TempFiles files_;

  QString path(const QString& name) const {
    return QString::fromStdString(files_.path(name.toUtf8().constData()));
  }
  QString experiment(const QString& name, int steps, int seed) {
    std::string json = dplab::testing::tiny_experiment_json(steps, 2);
    json.replace(json.find("\"seed\": 42"), 10, "\"seed\": " + std::to_string(seed));
    return QString::fromStdString(files_.write(name.toUtf8().constData(), json));
  }
  bool plan(const QString& config, const QString& dir, const QStringList& extra = {}) {
    const CliRun r = run_cli(QStringList{"tune", "--config", config, "--plan", dir} + extra);
    if (r.exit_code != 0) qWarning("%s", qPrintable(r.err));
    return r.exit_code == 0;
  }

 private slots:
  void initTestCase() { QVERIFY(files_.isValid()); }

  void pollsHandEachJobOnceAndEndAtTheMerge() {
    const QString dir = path("explore");
    QVERIFY(plan(experiment("e.json", 50, 42), dir));
    cluster::ClusterWatcher watcher(dir.toStdString());
    auto poll = watcher.poll();
    QCOMPARE(poll.shards, 0);  // no slurm.json, no store
    QCOMPARE(poll.jobs_total, 10);
    QCOMPARE(poll.jobs_done, 0);
    QVERIFY(!poll.complete);
    QVERIFY(poll.new_jobs.empty());

    QCOMPARE(run_cli(run_jobs(dir, 1, 3)).exit_code, 0);
    poll = watcher.poll();
    QCOMPARE(poll.shards, 3);  // from the store's identity
    QCOMPARE(poll.shard_states.size(), std::size_t{3});
    QVERIFY(poll.shard_states[1].complete());
    QCOMPARE(poll.shard_states[1].jobs, 3);  // jobs 1, 4, 7
    QVERIFY(!poll.shard_states[0].store_exists);
    QCOMPARE(poll.shard_states[0].missing(), 4);
    QCOMPARE(poll.new_jobs.size(), std::size_t{3});
    for (const auto& job : poll.new_jobs) QCOMPARE(job.status, tuning::JobStatus::kFinished);
    QVERIFY(!poll.complete);
    // Nothing changed: nothing new.
    poll = watcher.poll();
    QVERIFY(poll.new_jobs.empty());
    QCOMPARE(poll.jobs_done, 3);

    QCOMPARE(run_cli(run_jobs(dir, 0, 3)).exit_code, 0);
    QCOMPARE(run_cli(run_jobs(dir, 2, 3)).exit_code, 0);
    poll = watcher.poll();
    QCOMPARE(poll.new_jobs.size(), std::size_t{7});
    QVERIFY(poll.complete);
    QVERIFY(poll.errors.empty());
    QVERIFY(!poll.release);
    const cluster::SearchPlan p = cluster::read_plan(dir.toStdString());
    const cluster::MergeReport merged = cluster::merge_shards(p, dir.toStdString());
    QVERIFY(same_jobs(*poll.results, merged.results));
  }

  void slurmJsonNamesTheSplit() {
    const QString dir = path("slurm-split");
    QVERIFY(plan(experiment("s.json", 50, 3), dir));
    QFile f(dir + "/slurm.json");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"shards\": 4}\n");
    f.close();
    cluster::ClusterWatcher watcher(dir.toStdString());
    const auto poll = watcher.poll();
    QCOMPARE(poll.shards, 4);
    QCOMPARE(poll.shard_states.size(), std::size_t{4});
    for (const auto& s : poll.shard_states) QVERIFY(!s.store_exists);
    // A store of another split (2 shards) in this folder: an error naming it.
    QCOMPARE(run_cli(run_jobs(dir, 0, 2)).exit_code, 0);
    const auto after = watcher.poll();
    QCOMPARE(after.errors.size(), std::size_t{1});
    QVERIFY(after.errors[0].find("shard-0.sqlite") != std::string::npos);
    QVERIFY(after.errors[0].find("another split") != std::string::npos);
    QVERIFY(!after.complete);
    // A mistyped or out-of-range count, or a job id that is not a string, is an error naming
    // the file and the key, in the watcher and in `slurm-status` (one reader:
    // cluster::read_slurm_record): "4" used to escape as nlohmann's type_error (no file, no key;
    // slurm-status: "internal error"), 2^32 + 4 was truncated to 4 shards, a numeric job id was
    // nlohmann's type_error once squeue was found.
    const std::pair<const char*, const char*> damaged[] = {
        {"{\"shards\": \"4\"}\n", "slurm.json: shards: "},
        {"{\"shards\": 4294967300}\n", "slurm.json: shards: "},
        {"{\"shards\": 2, \"job_ids\": [7]}\n", "slurm.json: job_ids[0]: "}};
    for (const auto& [text, key] : damaged) {
      QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
      f.write(text);
      f.close();
      const auto bad = watcher.poll();
      const auto named =
          std::find_if(bad.errors.begin(), bad.errors.end(),
                       [key = key](const auto& e) { return e.find(key) != std::string::npos; });
      QVERIFY2(named != bad.errors.end(), text);
      const CliRun status = run_cli({"slurm-status", dir});
      QVERIFY2(status.exit_code == 1 && status.err.contains(key) &&
                   !status.err.contains("internal error"),
               qPrintable(QString(text) + status.err));
    }
  }

  void privatePlanReleasesWhatTheMergeSelects() {
    const QString dir = path("private");
    QVERIFY(plan(experiment("p.json", 50, 9), dir, {"--release", "private", "--strategy", "ma"}));
    for (int i = 0; i < 2; ++i) QCOMPARE(run_cli(run_jobs(dir, i, 2)).exit_code, 0);
    cluster::ClusterWatcher watcher(dir.toStdString());
    const auto poll = watcher.poll();
    QVERIFY(poll.complete);
    QVERIFY(poll.release);
    const cluster::SearchPlan& p = watcher.plan();
    const auto merged = cluster::merge_shards(p, dir.toStdString());
    const auto expected = tuning::select_private_winners(
        merged.results, *p.private_plan, tuning::score_noise_seed(p.search.config.seed));
    QCOMPARE(poll.release->replicates.size(), expected.replicates.size());
    for (std::size_t r = 0; r < expected.replicates.size(); ++r) {
      QCOMPARE(poll.release->replicates[r].winner_job, expected.replicates[r].winner_job);
      QCOMPARE(poll.release->replicates[r].released_score, expected.replicates[r].released_score);
    }
  }

  void halfMadeStoreIsAnErrorOnlyWhenItStays() {
    const QString dir = path("half");
    QVERIFY(plan(experiment("h.json", 50, 4), dir));
    QCOMPARE(run_cli(run_jobs(dir, 0, 2)).exit_code, 0);
    // Not a SQLite file at all (as a reader may see a file being created, or a broken copy).
    const std::string broken = files_.path("half/stores/shard-1.sqlite");
    dplab::testing::write_file(broken, std::string(100, 'x'));
    cluster::ClusterWatcher watcher(dir.toStdString());
    auto poll = watcher.poll();
    QCOMPARE(poll.shards, 2);
    QVERIFY(poll.shard_states[1].store_exists);
    QVERIFY(poll.shard_states[1].error.empty());  // first sight: perhaps being written
    QVERIFY(!poll.complete);
    poll = watcher.poll();
    QVERIFY(!poll.shard_states[1].error.empty());
    QVERIFY(poll.shard_states[1].error.find(broken) != std::string::npos);
    // Replaced by the real shard: no error any more, complete.
    QFile::remove(QString::fromStdString(broken));
    QCOMPARE(run_cli(run_jobs(dir, 1, 2)).exit_code, 0);
    poll = watcher.poll();
    QVERIFY(poll.shard_states[1].error.empty());
    QVERIFY(poll.complete);
  }

  // A shard store's identity summary is read by the one JSON reader: a mistyped shard is an
  // IoError naming the file and the key (it escaped as nlohmann::type_error).
  void mistypedShardIdentityNamesTheKey() {
    const QString dir = path("plan-identity");
    QVERIFY(plan(experiment("i.json", 50, 4), dir));
    QCOMPARE(run_cli(run_jobs(dir, 0, 1)).exit_code, 0);
    const cluster::SearchPlan p = cluster::read_plan(dir.toStdString());
    const std::string store_path = cluster::shard_store_path(dir.toStdString(), 0);
    QVERIFY(cluster::read_shard_store(p, store_path).shards == 1);
    {
      dplab::store::Store db(store_path);
      const auto runs = db.list_experiments();
      QCOMPARE(runs.size(), std::size_t{1});
      nlohmann::json identity = cluster::shard_identity(p, 0, 1);
      identity["shard"] = "0";
      db.save_summary(runs[0].id, cluster::kShardSummaryKind, identity.dump());
    }
    const QString message =
        dplab::testing::error_of<dplab::IoError>([&] { cluster::read_shard_store(p, store_path); });
    QVERIFY2(message.contains("bad shard identity: shard: expected an integer, got \"0\""),
             qPrintable(message));
  }

  void foreignStoreIsAnErrorNamingIt() {
    const QString a = path("plan-a"), b = path("plan-b");
    QVERIFY(plan(experiment("a.json", 50, 1), a));
    QVERIFY(plan(experiment("b.json", 50, 2), b));
    QCOMPARE(run_cli(run_jobs(a, 0, 1)).exit_code, 0);
    QVERIFY(QFile::copy(a + "/stores/shard-0.sqlite", b + "/stores/shard-0.sqlite"));
    cluster::ClusterWatcher watcher(b.toStdString());
    watcher.poll();
    const auto poll = watcher.poll();  // an unchanged unreadable store: reported
    // No store of this plan names the split yet: the error is the folder's, not a shard's.
    QCOMPARE(poll.shards, 0);
    QCOMPARE(poll.errors.size(), std::size_t{1});
    QVERIFY(poll.errors[0].find("plan-b/stores/shard-0.sqlite") != std::string::npos);
    QVERIFY(poll.errors[0].find("another plan") != std::string::npos);
    QVERIFY(!poll.complete);
    QCOMPARE(poll.jobs_done, 0);  // nothing of another plan enters the search
  }

  // plan.json is read by the one JSON reader: a key it does not know is refused with the ones
  // it does (it used to be ignored), a mistyped field names its key.
  void editedPlanFieldsAreRefused() {
    const QString dir = path("plan-keys");
    QVERIFY(plan(experiment("k.json", 50, 3), dir));
    QFile file(dir + "/plan.json");
    QVERIFY(file.open(QIODevice::ReadOnly));
    const nlohmann::json good = nlohmann::json::parse(file.readAll().toStdString());
    file.close();
    const auto error_with = [&](const nlohmann::json& j) {
      QFile out(dir + "/plan.json");
      if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) return QString("cannot write");
      out.write(QByteArray::fromStdString(j.dump(1)));
      out.close();
      return dplab::testing::error_of<dplab::ParseError>(
          [&] { cluster::read_plan(dir.toStdString()); });
    };
    nlohmann::json extra = good;
    extra["note"] = "x";
    const QString unknown = error_with(extra);
    QVERIFY2(unknown.contains("plan.json: note: unknown key (expected accountant,"),
             qPrintable(unknown));
    nlohmann::json typed = good;
    typed["training_size"] = "many";
    QVERIFY2(error_with(typed).contains("plan.json: training_size: expected an integer"),
             qPrintable(error_with(typed)));
    QCOMPARE(error_with(good), QString("<no exception>"));
  }

  void notAPlanFolderIsRefused() {
    const QString empty = path("empty");
    QVERIFY(QDir().mkpath(empty));
    try {
      cluster::ClusterWatcher watcher(empty.toStdString());
      QFAIL("no error");
    } catch (const std::exception& e) {
      QVERIFY2(std::string(e.what()).find("plan.json") != std::string::npos, e.what());
    }
  }

  void diedShardIsStaleRunningOneIsNot() {
    const QString dir = path("died");
    // Long jobs (about a second each on one thread) so that the task is killed mid-way.
    QVERIFY(plan(experiment("d.json", 50000, 6), dir));
    QProcess task;
    task.start(dplab::testing::cli_program(), run_jobs(dir, 0, 1));
    QVERIFY(task.waitForStarted(10000));
    cluster::ClusterWatcher watcher(dir.toStdString(), /*stale_after_seconds=*/2.0);
    cluster::ClusterPoll poll;
    QVERIFY(QTest::qWaitFor(
        [&] {
          poll = watcher.poll();
          return poll.jobs_done >= 1;
        },
        120000));
    if (poll.complete) QSKIP("the shard finished before it could be killed (a fast machine)");
    QVERIFY(!poll.shard_states[0].stale);  // written to just now, running
    task.kill();
    QVERIFY(task.waitForFinished(10000));
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    poll = watcher.poll();
    QVERIFY(!poll.complete);
    QVERIFY(poll.shard_states[0].stale);
    // Its writer was killed: the run reads as interrupted (the writer is gone), whether or not
    // the file changed after the last poll before the kill.
    QVERIFY2(poll.shard_states[0].error.empty(), poll.shard_states[0].error.c_str());
    QCOMPARE(poll.shard_states[0].run_status, std::string("interrupted"));
  }
};

DPLAB_TEST_GUILESS_MAIN(ClusterWatchTest)
#include "test_cluster_watch.moc"
