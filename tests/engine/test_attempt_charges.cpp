// Issue #42 finding 2, "charges only add": a run's spent epsilon is the composition of every
// attempt's charge (run, cancel, resume, kill -9, merge) and never decreases.
//   - The identity behind explore's composition: attempts at the same (sigma, q) compose, order
//     by order, to ONE run of their summed queries (RDP curves are linear in the steps).
//   - The regression: run, cancel, resume, cancel left the run charged only the LAST attempt's
//     partial queries (Store::record_charges overwrote the run's epsilon): it went down.
//   - A property test: seeded random sequences of run / cancel at a random step / resume /
//     simulated kill (the writer abandoned without on_finished, its process marked gone) /
//     merge, on a tiny explore search and a tiny private MA search. After every step the spent
//     epsilon (read-write and read-only opens) equals the composition predicted from what each
//     attempt trained, is >= the composition of what was truly trained, and never decreases.
#include <sqlite3.h>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cmath>
#include <random>

#include "cluster/merged_run.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/accounting/rdp_conversion.h"
#include "store/attempt_charges.h"
#include "store/store.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/private_search.h"
#include "tuning/release_cost.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

constexpr int kSteps = 60;  // points every 10 steps (tiny_experiment), 10 jobs of 60 steps

experiment::ExperimentConfig explore_config() {
  return testing::tiny_experiment(kSteps, 2);
}

experiment::ExperimentConfig private_ma_config() {
  std::string text = testing::tiny_experiment_json(kSteps, 2);
  text.insert(text.rfind('}'), R"(, "release": {"mode": "private", "selection": "ma"})");
  return experiment::parse_experiment_text(text, "tiny-private");
}

// Forwards to the StoreWriter until "killed": then nothing more reaches it (no job, no
// on_finished), as when the process dies, and the runner is cancelled to end the attempt.
// Cancels instead (the runner's cancel token) at the `stop_at`-th learning-curve point.
class Driver : public RunListener {
 public:
  Driver(store::StoreWriter& writer, Runner& runner, int stop_at, bool kill)
      : writer_(writer), runner_(runner), stop_at_(stop_at), kill_(kill) {}
  std::int64_t stored_jobs = 0, stored_queries = 0;  // what reached the writer
  bool killed() const { return dead_; }              // false if the attempt ended before stop_at
  void on_start(const SearchResults& plan) override { writer_.on_start(plan); }
  void on_point(const PointEvent&) override {
    if (++points_ == stop_at_) {
      if (kill_) dead_ = true;
      runner_.cancel();
    }
  }
  void on_job_finished(const JobResult& job) override {
    if (dead_) return;
    writer_.on_job_finished(job);  // one thread: stored before the next job starts
    ++stored_jobs;
    stored_queries += job.queries;
  }
  void on_finished(const SearchResults& results, bool cancelled) override {
    if (!dead_) writer_.on_finished(results, cancelled);
  }

 private:
  store::StoreWriter& writer_;
  Runner& runner_;
  std::atomic<int> points_{0};
  int stop_at_;
  bool kill_;
  std::atomic<bool> dead_{false};
};

// The writer of run `id` is gone: same pid, another process start time (a pid reused later).
void mark_writer_gone(const std::string& path, std::int64_t id) {
  sqlite3* db = nullptr;
  QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  const std::string sql =
      "UPDATE experiments SET writer_start = writer_start + 1 WHERE id = " + std::to_string(id);
  QCOMPARE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

enum class Ending { kComplete, kCancel, kKill };

// What one attempt did, as the test saw it.
struct Attempt {
  std::int64_t queries_trained = 0;  // every query it made (stored or not)
  std::int64_t runs_trained = 0;
  std::int64_t charged_queries = 0;  // what the store must charge (kill: the upper bound)
  bool charged = false;
};

struct Outcome {
  std::int64_t id = -1;
  Attempt attempt;
  bool finished = false;
  bool killed = false;
};

// One attempt at the run `resume_id` (-1: a new run), ended as `ending` at the point `stop_at`.
Outcome run_attempt(store::Store& db, const experiment::ExperimentConfig& config,
                    std::int64_t resume_id, Ending ending, int stop_at) {
  const auto data = load_experiment_data(config);
  RunOptions options{1, true};
  const bool drawn = config.release.mode == experiment::ReleaseMode::kPrivate;
  if (drawn) {
    options.plan =
        draw_private_plan(config, static_cast<int>(experiment::expand_candidates(config).size()),
                          config.seed)
            .jobs;
  }
  Runner runner(config, data, options);
  if (resume_id >= 0) runner.resume_from(db.load_results(resume_id));
  const SearchResults plan = runner.plan();
  std::vector<bool> kept(plan.jobs.size());
  std::int64_t planned = 0;
  for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
    kept[i] = plan.jobs[i].status != JobStatus::kPending;
    planned += kept[i] ? 0 : 1;
  }
  store::StoreWriter writer(db);
  if (resume_id >= 0) writer.resume(resume_id);
  Driver driver(writer, runner, ending == Ending::kComplete ? -1 : stop_at,
                ending == Ending::kKill);
  runner.add_listener(&driver);
  const SearchResults results = runner.run();
  Outcome out;
  out.id = writer.experiment_id();
  for (std::size_t i = 0; i < results.jobs.size(); ++i) {
    if (kept[i] || results.jobs[i].queries <= 0) continue;
    out.attempt.queries_trained += results.jobs[i].queries;
    ++out.attempt.runs_trained;
  }
  out.attempt.charged_queries = out.attempt.queries_trained;
  out.attempt.charged = out.attempt.runs_trained > 0;
  out.killed = driver.killed();
  if (out.killed) {
    mark_writer_gone(db.path(), out.id);
    // Charged: the jobs it stored exactly, every other job it set out to train at T.
    out.attempt.charged_queries =
        driver.stored_queries + (planned - driver.stored_jobs) * config.privacy.steps;
    out.attempt.charged = planned > 0;
  }
  out.finished = true;
  for (const JobResult& job : db.load_results(out.id, false).jobs)
    out.finished = out.finished && job.status == JobStatus::kFinished;
  return out;
}

// The closed form of the composition of `attempts` (explore: one run of their summed queries;
// private ma: each charged attempt the whole selection, i.e. K*R runs of T steps). Not
// charged_side: the composition of every query truly trained.
double expected_epsilon(const experiment::ExperimentConfig& config, const SearchResults& run,
                        const std::vector<Attempt>& attempts, bool charged_side) {
  const RunMechanism& m = run.mechanism;
  const bool ma = config.release.mode == experiment::ReleaseMode::kPrivate;
  const std::int64_t per_selection =
      static_cast<std::int64_t>(run.candidates.size()) * config.repeats * m.steps;
  std::int64_t total = 0;
  int charged = 0;
  for (const Attempt& a : attempts) {
    // The truth: every query trained, composed (what any private selection's bound covers).
    const bool counts = charged_side ? a.charged : a.runs_trained > 0;
    if (!counts) continue;
    ++charged;
    total += !charged_side ? a.queries_trained : ma ? per_selection : a.charged_queries;
  }
  if (charged == 0) return 0.0;
  if (charged == 1) {
    // One attempt: its own epsilon (the accountant's, as the run's summary reports it).
    return privacy::epsilon_for_delta({m.noise_multiplier, m.sampling_rate, total}, m.delta)
        .epsilon;
  }
  const auto curve = privacy::rdp_curve(m.noise_multiplier, m.sampling_rate);
  std::vector<double> rdp(curve->rdp_per_step);
  for (double& r : rdp) r *= static_cast<double>(total);
  return privacy::epsilon_from_rdp(curve->orders, rdp, m.delta).epsilon;
}

bool close(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

}  // namespace

class TestAttemptCharges : public QObject {
  Q_OBJECT

 private slots:
  // Explore attempts at the same (sigma, q) with queries Q_i compose, order by order, to the
  // curve of one run of sum Q_i steps, so the composed epsilon is that run's.
  void explore_attempts_compose_to_one_run_of_the_summed_queries() {
    const auto config = explore_config();
    SearchResults run = Runner(config, load_experiment_data(config)).plan();
    const std::vector<std::int64_t> queries{37, 60, 5, 118};
    std::vector<store::AttemptCharge> attempts;
    for (const std::int64_t q : queries) {
      SearchResults one = run;
      for (auto& job : one.jobs) job.queries = 0;
      one.jobs[0].queries = q / 2;
      one.jobs[3].queries = q - q / 2;
      attempts.push_back(store::charge_of_jobs(one));
    }
    const RunMechanism& m = run.mechanism;
    const auto curve = privacy::rdp_curve(m.noise_multiplier, m.sampling_rate);
    const double sum = 37 + 60 + 5 + 118;
    for (std::size_t i = 0; i < curve->orders.size(); ++i) {
      double added = 0;
      for (const auto& a : attempts) added += a.rdp[i];
      QVERIFY(close(added, sum * curve->rdp_per_step[i]));
    }
    std::vector<double> one_run(curve->rdp_per_step);
    for (double& r : one_run) r *= sum;
    const store::SpentBudget spent = store::compose_attempts(attempts, m.delta);
    QCOMPARE(spent.composition, std::string("rdp"));
    QCOMPARE(spent.attempts, 4);
    QCOMPARE(spent.delta, m.delta);
    QVERIFY(
        close(spent.epsilon, privacy::epsilon_from_rdp(curve->orders, one_run, m.delta).epsilon));
    // Never below the accountant's epsilon of that one run (the interpolated order search).
    QVERIFY(
        spent.epsilon >=
        privacy::epsilon_for_delta({m.noise_multiplier, m.sampling_rate, 220}, m.delta).epsilon);
    // Attempts that trained nothing are the identity; without curves: basic composition.
    std::vector<store::AttemptCharge> with_idle = attempts;
    with_idle.push_back(store::AttemptCharge{});
    QCOMPARE(store::compose_attempts(with_idle, m.delta).epsilon, spent.epsilon);
    for (auto& a : attempts) a.rdp.clear();
    const store::SpentBudget basic = store::compose_attempts(attempts, m.delta);
    QCOMPARE(basic.composition, std::string("basic"));
    double eps = 0;
    for (const auto& a : attempts) eps += a.epsilon;
    QVERIFY(close(basic.epsilon, eps));
    QVERIFY(close(basic.delta, 4 * m.delta));
  }

  // Issue #42 finding 2: run, cancel, resume, cancel. The spent epsilon after the second cancel
  // was the second attempt's queries alone, below the first cancel's (main: 1.42 -> 1.34).
  void cancel_resume_cancel_never_lowers_the_spent_epsilon() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    store::Store db(path);
    const auto config = explore_config();
    // First attempt: cancelled late (many queries); the resume: cancelled early (few).
    const Outcome first = run_attempt(db, config, -1, Ending::kCancel, 40);
    const double before = db.list_experiments()[0].epsilon;
    QCOMPARE(db.list_experiments()[0].status, std::string("cancelled"));
    run_attempt(db, config, first.id, Ending::kCancel, 2);
    const double after = db.list_experiments()[0].epsilon;
    QVERIFY2(after >= before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
    QVERIFY(after > before);  // the second attempt trained something too
    QCOMPARE(db.spent_budget(first.id).attempts, 2);
    QCOMPARE(db.spent_budget(first.id).epsilon, after);
    // And complete: the first attempt's partial queries on the re-run jobs stay charged.
    run_attempt(db, config, first.id, Ending::kComplete, 0);
    const double complete = db.list_experiments()[0].epsilon;
    QVERIFY(complete >= after);
    const SearchResults full = db.load_results(first.id, false);
    QVERIFY(complete > release_cost(full).epsilon);
  }

  void random_sequences_only_add_data() {
    QTest::addColumn<bool>("private_ma");
    QTest::addColumn<unsigned>("seed");
    for (unsigned seed = 1; seed <= 8; ++seed) {
      QTest::addRow("explore, seed %u", seed) << false << seed;
      QTest::addRow("private ma, seed %u", seed) << true << seed;
    }
  }
  void random_sequences_only_add() {
    QFETCH(bool, private_ma);
    QFETCH(unsigned, seed);
    const auto config = private_ma ? private_ma_config() : explore_config();
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    std::mt19937 random(seed);
    std::int64_t id = -1;
    std::vector<Attempt> attempts;
    double last = 0;
    bool finished = false;
    int kills = 0;
    // After every step: the spent epsilon as predicted, >= the truth, never lower than before;
    // the same from a read-only open (nothing written) and from a read-write one.
    auto check = [&](const char* step, bool killed) {
      store::StoreOptions read_only;
      read_only.read_only = true;
      // Read-only first: nothing has marked a killed run yet (issue #45 item 8).
      const store::ExperimentRecord seen = store::Store(path, read_only).list_experiments()[0];
      const double seen_read_only = seen.epsilon;
      if (killed) QCOMPARE(seen.status, std::string("interrupted"));
      store::Store db(path);
      const SearchResults run = db.load_results(id, false);
      const store::SpentBudget spent = db.spent_budget(id);
      const double predicted = expected_epsilon(config, run, attempts, true);
      const double truth = expected_epsilon(config, run, attempts, false);
      const QString what = QStringLiteral("%1: spent %2, predicted %3, true %4, before %5")
                               .arg(step)
                               .arg(spent.epsilon, 0, 'g', 12)
                               .arg(predicted, 0, 'g', 12)
                               .arg(truth, 0, 'g', 12)
                               .arg(last, 0, 'g', 12);
      QCOMPARE(spent.attempts, static_cast<int>(attempts.size()));
      QVERIFY2(close(spent.epsilon, predicted), qPrintable(what));
      QVERIFY2(spent.epsilon >= truth * (1 - 1e-12), qPrintable(what));
      QVERIFY2(spent.epsilon >= last, qPrintable(what));
      QCOMPARE(seen_read_only, spent.epsilon);
      QCOMPARE(db.list_experiments()[0].epsilon, spent.epsilon);
      last = spent.epsilon;
    };
    for (int step = 0; step < 6 && !finished; ++step) {
      // Every sequence has a kill (odd seeds: first) and a cancel, then anything.
      const int forced = seed % 2 == 1 ? (step == 0 ? 2 : 1) : (step == 0 ? 1 : 2);
      const int drawn = static_cast<int>(random() % 3);
      const int pick = step < 2 ? forced : drawn;
      const Ending ending = pick == 0   ? Ending::kComplete
                            : pick == 1 ? Ending::kCancel
                                        : Ending::kKill;
      const int stop_at = 1 + static_cast<int>(random() % 50);  // 60 points in all
      Outcome out;
      {
        store::Store db(path);  // a new process for each attempt (a kill leaves it open)
        out = run_attempt(db, config, id, ending, stop_at);
      }
      id = out.id;
      attempts.push_back(out.attempt);
      finished = out.finished;
      check(out.killed ? "kill" : ending == Ending::kComplete ? "complete" : "cancel", out.killed);
      kills += out.killed ? 1 : 0;
    }
    if (!finished) {
      {
        store::Store db(path);
        const Outcome out = run_attempt(db, config, id, Ending::kComplete, 0);
        attempts.push_back(out.attempt);
        QVERIFY(out.finished);
      }
      check("final resume", false);
    }
    QVERIFY(attempts.size() >= 2);
    if (seed % 2 == 1) QVERIFY(kills > 0);  // the first attempt (60 points) always reaches it
    // A merge (history merge): the whole search as one attempt of a new run, charged it all.
    if (!private_ma) {
      store::Store db(path);
      const SearchResults whole = db.load_results(id);
      cluster::MergeReport merged;
      merged.results = whole;
      const std::int64_t merged_id =
          cluster::store_merged_run(cluster::SearchPlan{}, merged, db).run_id;
      const auto charges = db.attempts(merged_id);
      QCOMPARE(charges.size(), std::size_t{1});
      QCOMPARE(charges[0].kind, std::string("merge"));
      QCOMPARE(db.spent_budget(merged_id).epsilon, release_cost(whole).epsilon);
    }
  }
};

DPLAB_TEST_GUILESS_MAIN(TestAttemptCharges)
#include "test_attempt_charges.moc"
