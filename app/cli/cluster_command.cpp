// Running a search on a cluster (issue #28; docs/guide/cluster.md):
//   dplab-cli run-jobs DIR --shard I --shards N   runs shard I of a plan (tune --plan) into
//                                                  DIR/stores/shard-I.sqlite; re-running it runs
//                                                  only the jobs that store does not hold yet
//   dplab-cli history merge DIR --db HISTORY      folds the shard stores into one run of HISTORY
//                                                  and writes what `tune --out` writes
// The plan, shard and merge rules are engine/cluster/search_plan.h; the outputs are tune's own
// (finish_explore_tune, finish_private_tune), so the merge equals a local run byte for byte.
// What Slurm sends before a time limit or a preemption (SIGTERM; SIGUSR1 via the generated
// script's --signal line) stops run-jobs at the next optimizer step of the jobs in flight (cli/
// interrupt.h): those jobs are dropped, not stored (a shard store holds only final results),
// and the process exits 143 / 138. Run again, the shard trains exactly the jobs it lacks, with
// their seeds, so its store, and the merge, equal those of an uninterrupted run byte for byte.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>

#include <nlohmann/json.hpp>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/run_config.h"
#include "cli/tune_finish.h"
#include "cli/tune_progress.h"
#include "cli/tune_release.h"
#include "cluster/merged_run.h"
#include "cluster/search_plan.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/validate.h"
#include "experiment/run_count_visibility.h"
#include "store/store.h"
#include "tuning/runner.h"

namespace dplab::cli {
namespace {

using cluster::SearchPlan;

// Tags a shard store with its plan, shard and shard count as soon as its run exists, so that
// even a shard killed after its first job is recognised (and a foreign one refused) at merge.
class ShardTag : public tuning::RunListener {
 public:
  ShardTag(store::Store& db, const store::StoreWriter& writer, nlohmann::json identity)
      : db_(db), writer_(writer), identity_(std::move(identity)) {}
  void on_start(const tuning::SearchResults&) override {
    db_.save_summary(writer_.experiment_id(), cluster::kShardSummaryKind, json_text(identity_));
  }

 private:
  store::Store& db_;
  const store::StoreWriter& writer_;
  nlohmann::json identity_;
};

// One stderr line per ended job (a batch system's log is a file, not a terminal). None for a
// private LT / PS plan: its job count is K, curator-only, and Slurm's logs are files users are
// handed; counting the lines of every shard's log would give it.
class JobLog : public tuning::RunListener {
 public:
  JobLog(int shard, std::int64_t total, bool hide_count)
      : shard_(shard), total_(total), hide_count_(hide_count) {}
  void on_job_finished(const tuning::JobResult& job) override {
    if (hide_count_) return;
    std::lock_guard lock(mutex_);
    ++done_;
    std::fprintf(stderr, "run-jobs shard %d: %lld/%lld ended: candidate %d, repeat %d: %s\n",
                 shard_, static_cast<long long>(done_), static_cast<long long>(total_),
                 job.candidate, job.repeat, tuning::to_string(job.status).c_str());
    std::fflush(stderr);
  }

 private:
  int shard_;
  std::int64_t total_;
  bool hide_count_;
  std::int64_t done_ = 0;
  std::mutex mutex_;
};

// The StoreWriter of a shard store, minus the jobs a signal cut short: a job stopped mid-run
// (kCancelled, a partial curve) is not a result; only what ended (finished, failed, diverged)
// reaches the store, so a rerun finds it missing and trains it again from its seed.
class FinalJobsOnly : public tuning::RunListener {
 public:
  explicit FinalJobsOnly(store::StoreWriter& writer) : writer_(writer) {}
  void on_start(const tuning::SearchResults& plan) override { writer_.on_start(plan); }
  void on_job_finished(const tuning::JobResult& job) override {
    if (job.status != tuning::JobStatus::kCancelled) writer_.on_job_finished(job);
  }
  void on_finished(const tuning::SearchResults& results, bool cancelled) override {
    writer_.on_finished(results, cancelled);
  }

 private:
  store::StoreWriter& writer_;
};

void check_same_data(const SearchPlan& plan, const tuning::SearchResults& here,
                     const data::TrainValidationSplit& data, const std::string& dir) {
  const auto& p = plan.search;
  const std::string fingerprint = cluster::data_fingerprint(data);
  if (fingerprint != plan.data_sha256) {
    throw IoError(dir + "/" + cluster::kPlanFile + ": the data set loaded here (sha256 " +
                  fingerprint.substr(0, 12) + "...) is not the one the plan was made with (" +
                  plan.data_sha256.substr(0, 12) +
                  "...): another data file or version on this machine?");
  }
  if (p.training_size != here.training_size || p.validation_size != here.validation_size ||
      p.is_regression != here.is_regression ||
      p.mechanism.sampling_rate != here.mechanism.sampling_rate ||
      p.mechanism.delta != here.mechanism.delta) {
    throw IoError(dir + "/" + cluster::kPlanFile +
                  ": the data set here gives n = " + std::to_string(here.training_size) +
                  ", n_val = " + std::to_string(here.validation_size) +
                  "; the plan was made with n = " + std::to_string(p.training_size) + ", n_val = " +
                  std::to_string(p.validation_size) + " (another data file on this machine?)");
  }
}

int run_run_jobs(const Arguments& args) {
  apply_max_memory_flag(args);
  const std::string dir = args.required_text("dir");
  const std::int64_t shard = args.required_integer("shard");
  const std::int64_t shards = args.required_integer("shards");
  const int threads = args.threads();
  const double db_retry = args.number_or("db-retry", kDefaultDbRetrySeconds);
  if (!(db_retry >= 0 && db_retry <= 86400))
    throw UsageError("--db-retry: expected 0..86400 seconds");
  if (shards < 1 || shards > cluster::kMaxShards || shard < 0 || shard >= shards) {
    throw UsageError("--shard " + std::to_string(shard) + " --shards " + std::to_string(shards) +
                     ": expected 0 <= I < N <= " + std::to_string(cluster::kMaxShards));
  }
  const SearchPlan plan = cluster::read_plan(dir);
  const int i = static_cast<int>(shard), n = static_cast<int>(shards);
  tuning::RunOptions options;
  options.threads = threads;
  options.plan = cluster::shard_jobs(plan, i, n);
  // A private plan's winner is chosen at merge: every shard keeps (and stores) its models.
  options.keep_models = plan.private_plan.has_value();
  const std::string path = cluster::shard_store_path(dir, i);
  // A private LT / PS plan's job counts reveal K (experiment::hides_run_count): its lines name
  // none (`history show` on the shard store tells the curator).
  const bool hide = experiment::hides_run_count(plan.search.config.release);
  if (options.plan.empty()) {
    // An empty plan would mean "the whole grid" to the Runner: nothing to run, no store.
    if (hide) {
      std::fprintf(stderr, "run-jobs shard %d of %d: nothing to run in this shard\n", i, n);
    } else {
      std::fprintf(stderr, "run-jobs shard %d of %d: no job (the plan has %zu jobs)\n", i, n,
                   plan.search.jobs.size());
    }
    return 0;
  }
  const auto& config = plan.search.config;
  const auto data = tuning::load_experiment_data(config);
  tuning::Runner runner(config, data, options);
  check_same_data(plan, runner.plan(), *data, dir);

  store::Store db(path);
  store::StoreWriter writer(db, db_retry);
  const auto runs = db.list_experiments();
  if (runs.size() > 1) {
    throw IoError(path + ": holds " + std::to_string(runs.size()) +
                  " runs; a shard store holds one (is this a run history, not a shard store?)");
  }
  std::int64_t kept = 0;
  if (runs.size() == 1) {
    const std::int64_t id = runs[0].id;
    const tuning::SearchResults stored = db.load_results(id);
    auto identity = db.load_summary(id, cluster::kShardSummaryKind);
    if (!identity && db.stored_jobs(id) == 0) {
      // Killed between creating its run and tagging it: nothing stored yet, tag it now (the
      // config and mechanism are still checked below).
      identity = json_text(cluster::shard_identity(plan, i, n));
      db.save_summary(id, cluster::kShardSummaryKind, *identity);
    }
    cluster::check_shard_store(plan, stored, identity, i, n, path);
    const tuning::SearchResults state = cluster::shard_resume_state(runner.plan(), stored);
    std::int64_t failed = 0;
    for (const auto& job : state.jobs) {
      kept += job.status != tuning::JobStatus::kPending;
      failed += job.status == tuning::JobStatus::kFailed;
    }
    if (kept == static_cast<std::int64_t>(state.jobs.size())) {
      if (hide) {
        std::fprintf(stderr, "run-jobs shard %d of %d: all its jobs already in %s%s\n", i, n,
                     path.c_str(), failed > 0 ? " (some failed: see history show)" : "");
      } else {
        std::fprintf(stderr, "run-jobs shard %d of %d: all %lld jobs already in %s%s\n", i, n,
                     static_cast<long long>(kept), path.c_str(),
                     failed > 0 ? " (some failed: see history show)" : "");
      }
      return failed > 0 ? 1 : 0;
    }
    runner.resume_from(state);
    writer.resume(id);
  }
  ShardTag tag(db, writer, cluster::shard_identity(plan, i, n));
  JobLog log(i, runner.total_jobs(), hide);
  FinalJobsOnly final_jobs(writer);
  runner.add_listener(&final_jobs);
  runner.add_listener(&tag);
  runner.add_listener(&log);
  if (hide) {
    std::fprintf(stderr, "run-jobs shard %d of %d: its share of a private plan into %s\n", i, n,
                 path.c_str());
  } else {
    std::fprintf(stderr, "run-jobs shard %d of %d: %lld jobs (%lld already stored) into %s\n", i, n,
                 static_cast<long long>(runner.total_jobs()), static_cast<long long>(kept),
                 path.c_str());
  }
  const tuning::SearchResults results = run_cancellable(runner, {});
  print_job_warnings(results, "run-jobs");
  std::int64_t failed = 0;
  const tuning::JobResult* first_failure = nullptr;
  for (const auto& job : results.jobs) {
    if (job.status != tuning::JobStatus::kFailed) continue;
    if (!first_failure) first_failure = &job;
    ++failed;
  }
  if (hide) {
    std::fprintf(stderr, "run-jobs shard %d of %d: %s in %s\n", i, n,
                 failed > 0 ? "ended with failed jobs" : "its jobs stored", path.c_str());
  } else {
    std::fprintf(stderr, "run-jobs shard %d of %d: %lld of %lld jobs stored in %s\n", i, n,
                 static_cast<long long>(db.stored_results(writer.experiment_id())),
                 static_cast<long long>(results.jobs.size()), path.c_str());
  }
  if (const auto error = writer.first_error()) {
    std::cerr << "run-jobs: error: " << path << ": " << *error << "\n";
    return 1;
  }
  const bool incomplete =
      std::any_of(results.jobs.begin(), results.jobs.end(), [](const auto& job) {
        return job.status == tuning::JobStatus::kCancelled ||
               job.status == tuning::JobStatus::kPending;
      });
  if (runner.cancel_requested() && incomplete) {  // a signal after the last job changes nothing
    const int signal = tune_cancel_signal();
    std::fprintf(stderr,
                 "run-jobs shard %d of %d: %s; the jobs in flight stopped at a step boundary and "
                 "were not stored; run the shard again to train the jobs it lacks\n",
                 i, n, interrupt_description(signal).c_str());
    return interrupt_exit_status(signal);
  }
  if (first_failure) {
    std::cerr << "run-jobs: error: " << (hide ? std::string("some") : std::to_string(failed))
              << " job(s) failed; the first: candidate " << first_failure->candidate << ", repeat "
              << first_failure->repeat << ": " << first_failure->error << "\n";
    return 1;
  }
  return 0;
}

int run_history_merge(const Arguments& args) {
  const std::string dir = args.required_text("dir");
  const std::string db_path = args.required_text("db");
  if (db_path.empty()) throw UsageError(kEmptyDb);
  const std::string out_dir =
      args.text_or("out", (std::filesystem::path(dir) / "results").string());
  const SearchPlan plan = cluster::read_plan(dir);
  const AccountantFlags accountants = parse_accountant_flags(plan.accountant, plan.pld_precision);
  const cluster::MergeReport merged = cluster::merge_shards(plan, dir);
  require_writable_folder(out_dir, "--out");
  const tuning::SearchResults& results = merged.results;

  // Into the history as a local run with --db stores it (engine: the GUI's Merge does the same).
  store::Store history(db_path);
  const cluster::MergedRun run = cluster::store_merged_run(plan, merged, history);
  store::StoreWriter writer(history);  // finish_explore_tune's handle on the stored run
  writer.resume(run.run_id);
  // A private LT / PS plan's job count is K (experiment::hides_run_count): not in this line.
  const std::string jobs = experiment::hides_run_count(results.config.release)
                               ? std::string()
                               : std::to_string(results.jobs.size()) + " jobs of ";
  std::fprintf(stderr, "history merge: %s%zu store(s) (%d shards) merged into run %lld of %s\n",
               jobs.c_str(), merged.stores.size(), merged.shards,
               static_cast<long long>(run.run_id), db_path.c_str());
  // wall_seconds of a merged run: the jobs' wall times summed (they ran on other machines).
  if (plan.private_plan) {
    return finish_private_tune(results, *plan.private_plan, out_dir, plan.config_path,
                               merged.job_seconds, false, &history, run.run_id);
  }
  const tuning::ObjpertSearch no_objpert;
  return finish_explore_tune({results, no_objpert, out_dir, plan.config_path, accountants,
                              std::nullopt, false, merged.job_seconds, 0, &history, &writer,
                              release::SaveModels::kNone, plan.data_notes,
                              // The jobs ran on other machines: no CPU-time shares here.
                              std::chrono::steady_clock::time_point{}, 0});
}

}  // namespace

void add_run_jobs_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_run_jobs_flags(cli, *args), [args] { return run_run_jobs(*args); });
}

void add_history_merge_command(CLI::App& history) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_history_merge_flags(history, *args), [args] { return run_history_merge(*args); });
}

}  // namespace dplab::cli
