// What Slurm sends a run-jobs task before a time limit or a preemption (issue #45): SIGUSR1 (the
// generated script's `#SBATCH --signal=B:USR1@120`) and SIGTERM, sent to a real run-jobs process
// while its second job trains. Each time: the process exits 128 + the signal (138, 143), the job
// in flight ends "cancelled" in the log and is NOT in the shard store (only finished jobs are,
// none with a partial curve), and the same shard run again trains exactly the jobs it lacks;
// the merge then equals the merge of an uninterrupted run byte for byte (the CSVs; summary.json
// but for its wall times and run-history location).
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <sys/types.h>
#include <csignal>

#include "cluster/search_plan.h"
#include "cluster/slurm_script.h"
#include "store/store.h"
#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;
namespace cluster = dplab::cluster;
namespace tuning = dplab::tuning;

namespace {

constexpr int kJobs = 5;  // tiny_experiment: 2 x 2 DPSGD + 1 DPAdam candidates, 1 repeat

QStringList run_jobs_args(const QString& dir) {
  return {"run-jobs", dir, "--shard", "0", "--shards", "1", "--threads", "1"};
}

// summary.json without its wall times and run-history location (they name the machine and --db).
QByteArray without_machine_keys(const QByteArray& text) {
  QByteArray out;
  for (const QByteArray& line : text.split('\n')) {
    if (line.contains("\"wall_seconds\":") || line.contains("\"db\":") ||
        line.contains("\"run_id\":"))
      continue;
    out += line + '\n';
  }
  return out;
}

}  // namespace

class ClusterSignalsTest : public QObject {
  Q_OBJECT

  dplab::testing::TempFiles files_;
  QString experiment_;
  QString reference_out_;  // the merge of an uninterrupted run

  QString path(const QString& name) const {
    return QString::fromStdString(files_.path(name.toUtf8().constData()));
  }

  bool plan(const QString& dir) {
    const CliRun p = run_cli({"tune", "--config", experiment_, "--plan", dir});
    if (p.exit_code != 0) qWarning("tune --plan: %s", qPrintable(p.err));
    return p.exit_code == 0;
  }

  CliRun merge(const QString& dir, const QString& out) {
    return run_cli({"history", "merge", dir, "--db", dir + "-history.sqlite", "--out", out});
  }

 private slots:
  void initTestCase() {
    QVERIFY(files_.isValid());
    // 50,000 steps a job (~0.4 s here): long enough (one thread) that the signal lands inside the
    // second job.
    experiment_ = QString::fromStdString(
        files_.write("slow.json", dplab::testing::tiny_experiment_json(50000, 1)));
    const QString dir = path("plan-reference");
    QVERIFY(plan(dir));
    const CliRun shard = run_cli(run_jobs_args(dir));
    QVERIFY2(shard.exit_code == 0, qPrintable(shard.err));
    reference_out_ = dir + "-out";
    const CliRun merged = merge(dir, reference_out_);
    QVERIFY2(merged.exit_code == 0, qPrintable(merged.err));
  }

  void generatedScriptAsksForSigusr1() {
    cluster::SlurmOptions options;
    options.shards = 2;
    options.cli_path = "/opt/dplab/bin/dplab-cli";
    options.plan_dir = "/scratch/plan";
    const QString script = QString::fromStdString(cluster::sbatch_script(options));
    // B: signals the batch shell, which `exec run-jobs` replaces (no job steps to signal).
    QVERIFY2(script.contains(
                 QString("\n#SBATCH --signal=B:USR1@%1\n").arg(cluster::kSlurmSignalLeadSeconds)),
             qPrintable(script));
    QVERIFY(script.contains("exec '/opt/dplab/bin/dplab-cli' run-jobs"));
  }

  void signalStopsShardAndRerunCompletesIt_data() {
    QTest::addColumn<int>("signal");
    QTest::addColumn<int>("exit_code");
    QTest::newRow("SIGUSR1") << int(SIGUSR1) << 138;
    QTest::newRow("SIGTERM") << int(SIGTERM) << 143;
  }

  void signalStopsShardAndRerunCompletesIt() {
    QFETCH(int, signal);
    QFETCH(int, exit_code);
    const QString dir = path(QString("plan-signal-%1").arg(signal));
    QVERIFY(plan(dir));

    QProcess shard;
    shard.start(dplab::testing::cli_program(), run_jobs_args(dir));
    QVERIFY(shard.waitForStarted());
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += shard.readAllStandardError()).contains("1/5 ended"), 60000);
    QCOMPARE(::kill(static_cast<pid_t>(shard.processId()), signal), 0);
    QVERIFY(shard.waitForFinished(30000));
    err += shard.readAllStandardError();
    QVERIFY2(!err.contains("5/5 ended: candidate 4, repeat 0: finished"), err.constData());
    QCOMPARE(shard.exitStatus(), QProcess::NormalExit);  // it exited: the signal did not kill it
    QVERIFY2(shard.exitCode() == exit_code, err.constData());
    QVERIFY2(err.contains("were not stored"), err.constData());
    // The job in flight stopped mid-run (its log line says so) ...
    QVERIFY2(err.contains(": cancelled"), err.constData());

    // ... and is not in the store: every stored job is a final result with its whole curve.
    const std::string store_path = cluster::shard_store_path(dir.toStdString(), 0);
    int stored = 0;
    {
      dplab::store::StoreOptions read_only;
      read_only.read_only = true;
      dplab::store::Store db(store_path, read_only);
      const auto runs = db.list_experiments();
      QCOMPARE(runs.size(), std::size_t{1});
      const tuning::SearchResults results = db.load_results(runs[0].id);
      for (const auto& job : results.jobs) {
        if (job.status == tuning::JobStatus::kPending) continue;
        QVERIFY2(job.status == tuning::JobStatus::kFinished, tuning::to_string(job.status).c_str());
        QVERIFY(!job.curve.empty() && job.curve.back().iteration == 50000);
        ++stored;
      }
      QCOMPARE(db.stored_jobs(runs[0].id), static_cast<std::int64_t>(stored));
    }
    QVERIFY(stored >= 1 && stored < kJobs);

    // Requeued / resubmitted: the same shard trains only what it lacks, then the merge equals
    // the uninterrupted run's.
    const CliRun again = run_cli(run_jobs_args(dir));
    QVERIFY2(again.exit_code == 0, qPrintable(again.err));
    QVERIFY2(again.err.contains(QString("(%1 already stored)").arg(stored)), qPrintable(again.err));
    QCOMPARE(again.err.count(" ended: "), kJobs - stored);
    const QString out = dir + "-out";
    const CliRun merged = merge(dir, out);
    QVERIFY2(merged.exit_code == 0, qPrintable(merged.err));
    for (const QString name : {"curves.csv", "aggregate_curves.csv", "alpha_clip_grid.csv"}) {
      const QByteArray expected = read_file(reference_out_ + "/" + name);
      QVERIFY2(!expected.isEmpty(), qPrintable(name));
      QVERIFY2(read_file(out + "/" + name) == expected, qPrintable(name));
    }
    QCOMPARE(without_machine_keys(read_file(out + "/summary.json")),
             without_machine_keys(read_file(reference_out_ + "/summary.json")));
  }
};

DPLAB_TEST_GUILESS_MAIN(ClusterSignalsTest)
#include "test_cluster_signals.moc"
