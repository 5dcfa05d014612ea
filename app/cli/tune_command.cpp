// dplab-cli tune: run an honest hyperparameter search from an experiment file (main paper
// sections 3-5). Trains every (candidate, repeat) job in parallel, shows progress, optionally
// records the run history in SQLite (--db), and writes CSVs and summary.json into --out:
// per optimizer the best candidate, its accuracy, the "dishonest" epsilon of the single best run,
// the honest epsilon under MA and LT (K = that optimizer's candidate count, gamma = 1/K), the
// LT algorithm's pick, and the section 5.2 random-subset table.
// Ctrl-C (SIGTERM alike) cancels cleanly (within one optimizer step), keeps what finished, and
// exits 130 (143). Exit 1 when any job failed or a finished job could not be stored (--db);
// --resume RUN_ID runs only the jobs an interrupted or cancelled run is missing.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/run_config.h"
#include "cli/tune_finish.h"
#include "cli/tune_objpert.h"
#include "cli/tune_release.h"
#include "cluster/search_plan.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/message_text.h"
#include "core/os_entropy.h"
#include "experiment/experiment_config.h"
#include "privacy/accounting/epsilon_display.h"
#include "store/csv_export.h"
#include "store/store.h"
#include "tuning/honest_selection.h"
#include "tuning/private_search.h"
#include "tuning/release_cost.h"
#include "tuning/run_summary.h"
#include "tuning/runner.h"

namespace dplab::cli {
namespace {

// The runner's cancel flag, reachable from the SIGINT handler (an atomic store is signal-safe).
std::atomic<tuning::Runner*> g_runner{nullptr};
std::atomic<int> g_signal{0};

extern "C" void on_sigint(int signal) {
  g_signal.store(signal);
  if (tuning::Runner* runner = g_runner.load()) runner->cancel();
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  const long s = std::lround(seconds);
  char buffer[32];
  if (s >= 3600)
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld", s / 60, s % 60);
  return buffer;
}

void print_progress(const tuning::Progress& p, bool tty, bool final_line) {
  const double fraction = p.steps_total > 0 ? static_cast<double>(p.steps_done) / p.steps_total : 0;
  char line[256];
  if (tty) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(kWidth, '.');
    std::snprintf(line, sizeof line, "\r[%s] %3.0f%%  jobs %lld/%lld  %.0f steps/s  ETA %s   ",
                  bar.c_str(), 100 * fraction, static_cast<long long>(p.jobs_done),
                  static_cast<long long>(p.jobs_total), p.steps_per_second,
                  format_duration(p.eta_seconds).c_str());
    std::fputs(line, stderr);
    if (final_line) std::fputs("\n", stderr);
  } else {
    std::snprintf(
        line, sizeof line, "progress: %.1f%%, jobs %lld/%lld, %.0f steps/s, elapsed %s, ETA %s\n",
        100 * fraction, static_cast<long long>(p.jobs_done), static_cast<long long>(p.jobs_total),
        p.steps_per_second, format_duration(p.elapsed_seconds).c_str(),
        format_duration(p.eta_seconds).c_str());
    std::fputs(line, stderr);
  }
  std::fflush(stderr);
}

// The engine's per-optimizer report (tuning/run_summary.h) plus the LT algorithm's own pick.
nlohmann::json report_json(const tuning::SearchResults& results, const tuning::SelectionReport& r) {
  nlohmann::json j = tuning::selection_report_json(results, r);
  j["lt_run"] = {{"selected_candidate", tuning::candidate_json(results, r.lt.selected_candidate)},
                 {"selected_metric", r.lt.selected_metric},
                 {"draws", r.lt.draws},
                 {"hard_stop", r.lt.hard_stop},
                 {"stopped_by_hard_limit", r.lt.stopped_by_hard_limit}};
  return j;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  write_file_atomically(path.string(), text);  // temp + rename; errno text on failure
}

int run_tune(const Arguments& args) {
  const std::optional<std::string> plan_dir = args.text("plan");
  if (plan_dir) {
    // --plan writes the search and trains nothing: the flags of running and storing belong to
    // run-jobs and history merge.
    args.require_only({"config", "plan", "release", "strategy", "validation", "validation-noise",
                       "ps-distribution", "ps-mu", "ps-eta", "ps-gamma", "repeats", "secure",
                       "accountant", "pld-precision", "max-memory"},
                      "--plan");
    // A plan folder is written once: its stores belong to that plan (and a new plan would
    // make them foreign, refused at merge).
    if (std::filesystem::exists(std::filesystem::path(*plan_dir) / cluster::kPlanFile)) {
      throw UsageError("--plan: " + cut_for_message(*plan_dir) +
                       " already holds a plan; plan into a new folder");
    }
  }
  apply_max_memory_flag(args);
  const AccountantFlags accountants =
      parse_accountant_flags(args.text_or("accountant", ""), args.text_or("pld-precision", ""));
  const double db_retry = args.number_or("db-retry", 60);
  if (!(db_retry >= 0 && db_retry <= 86400))
    throw UsageError("--db-retry: expected 0..86400 seconds");
  const std::int64_t threads = args.integer_or("threads", 0);
  if (threads < 0 || threads > 1024)
    throw UsageError("--threads: expected 0..1024, got " + std::to_string(threads));
  std::optional<std::int64_t> resume_id;
  if (args.text("resume")) resume_id = args.required_integer("resume");
  if (resume_id && !args.text("db"))
    throw UsageError("--resume needs --db (the run history holding the run)");
  if (resume_id && args.text("config"))
    throw UsageError("--resume takes the experiment from --db; drop --config");

  // Resuming reads an existing history: a missing one is an error, not a new empty database.
  if (resume_id && !std::filesystem::is_regular_file(*args.text("db"))) {
    throw UsageError("--resume: no run history at '" + cut_for_message(*args.text("db")) +
                     "' (--db must name the history holding run " + std::to_string(*resume_id) +
                     ")");
  }
  std::unique_ptr<store::Store> db;
  if (auto db_path = args.text("db")) db = std::make_unique<store::Store>(*db_path);
  std::optional<tuning::SearchResults> earlier;
  experiment::ExperimentConfig config;
  std::string config_path;
  if (resume_id) {
    try {
      earlier = db->load_results(*resume_id);
    } catch (const IoError& e) {
      throw UsageError(std::string("--resume: ") + e.what());
    }
    config = earlier->config;
    config_path = *args.text("db") + "#" + std::to_string(*resume_id);
  } else {
    config_path = args.required_text("config");
    try {
      config = experiment::load_experiment_file(config_path);
    } catch (const ParseError& e) {
      std::cerr << "dplab-cli tune: --config: " << e.what() << "\n";
      return 2;
    } catch (const IoError& e) {
      throw UsageError(std::string("--config: ") + e.what());
    }
  }
  apply_release_flags(args, config);
  if (accountants.run == privacy::Accountant::kPld &&
      config.accounting.conversion == privacy::Conversion::kClassic) {
    throw UsageError(
        "--accountant pld: the experiment's accounting.conversion \"classic\" is an RDP "
        "setting; drop one of them");
  }
  const bool private_release = config.release.mode == experiment::ReleaseMode::kPrivate;
  if (config.release.secure) config.seed = os_random_u64();  // never printed nor written
  const std::string out_dir = args.text_or("out", config.name + "-results");
  // Before any job: a read-only or full --out must not be found out after hours of training.
  require_writable_folder(plan_dir ? *plan_dir : out_dir, plan_dir ? "--plan" : "--out");
  const bool tty = isatty(STDERR_FILENO) != 0;

  const auto data = tuning::load_experiment_data(config);
  for (const auto& note : data->notes) std::cerr << "dplab-cli tune: note: " << note << "\n";
  std::cerr << "dplab-cli tune: note: preprocessing: " << data->preprocessing.description << "\n";
  tuning::RunOptions options;
  options.threads = static_cast<int>(threads);
  options.secure = config.release.secure;
  if (config.release.subsampled) {  // tune_subsampled.cpp: two phases, two runners
    if (resume_id) throw UsageError("--resume: a private-subsampled run cannot be resumed");
    return run_subsampled_tune(config, data, options, out_dir, config_path, db.get(), db_retry);
  }
  tuning::PrivatePlan plan;
  if (private_release && !config.objective_perturbation.empty()) {
    throw UsageError(
        "--release private: objpert entries are searched in explore mode only (the private "
        "release modes do not draw objective-perturbation candidates yet)");
  }
  if (private_release) {
    if (data->train.is_regression()) {
      throw UsageError(
          "--release private needs a classification data set: the regression score (final "
          "training loss) is computed on the private training set and is not covered by epsilon");
    }
    // The stopping time and candidate draws do not depend on the data: drawn up front.
    plan = tuning::draw_private_plan(
        config, static_cast<int>(experiment::expand_candidates(config).size()), config.seed);
    options.plan = plan.jobs;
    if (options.plan.empty()) {
      std::fprintf(stderr, "tune %s: %s drew 0 runs: nothing is trained or released\n",
                   config.name.c_str(), experiment::describe_release(config.release).c_str());
    }
  }
  tuning::Runner runner(config, data, options);
  if (plan_dir) {
    // The resolved jobs and the private draws (the same `plan` as a local run) as files.
    cluster::SearchPlan search_plan;
    try {
      search_plan =
          cluster::make_plan(runner.plan(), private_release ? std::optional(plan) : std::nullopt,
                             config_path, args.text_or("accountant", ""),
                             args.text_or("pld-precision", ""), cluster::data_fingerprint(*data));
    } catch (const InvalidArgument& e) {
      throw UsageError(e.what());
    }
    cluster::write_plan(*plan_dir, search_plan);
    std::fprintf(stderr,
                 "tune %s: wrote the plan of %lld jobs into %s (curator only: it holds the "
                 "draws); run shard I of N with: dplab-cli run-jobs %s --shard I --shards N; "
                 "then: dplab-cli history merge %s --db HISTORY\n",
                 config.name.c_str(), static_cast<long long>(runner.total_jobs()),
                 plan_dir->c_str(), plan_dir->c_str(), plan_dir->c_str());
    return 0;
  }
  if (earlier) runner.resume_from(*earlier);

  std::unique_ptr<store::StoreWriter> writer;
  if (db) {
    writer = std::make_unique<store::StoreWriter>(*db, db_retry);
    if (resume_id) writer->resume(*resume_id);
    runner.add_listener(writer.get());
  }

  if (private_release) {
    // stderr is the curator's console: the number of runs drawn (and the progress) reveal K,
    // which no released output may contain (docs/privacy-model.md).
    std::fprintf(stderr,
                 "tune %s: %s, %d replicate search(es) over %zu candidates of %lld steps, n = "
                 "%lld, delta = %g; curator only, not for release: %lld runs drawn\n",
                 config.name.c_str(), experiment::describe_release(config.release).c_str(),
                 config.repeats, runner.candidates().size(),
                 static_cast<long long>(config.privacy.steps),
                 static_cast<long long>(data->train.size()), runner.mechanism().delta,
                 static_cast<long long>(runner.total_jobs()));
  } else {
    std::fprintf(
        stderr,
        "tune %s: %zu candidates x %d repeats = %lld jobs of %lld steps, n = %lld, delta = %g\n",
        config.name.c_str(), runner.candidates().size(), config.repeats,
        static_cast<long long>(runner.total_jobs()), static_cast<long long>(config.privacy.steps),
        static_cast<long long>(data->train.size()), runner.mechanism().delta);
  }

  g_runner.store(&runner);
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  struct sigaction previous {};
  struct sigaction previous_term {};
  sigaction(SIGINT, &action, &previous);
  sigaction(SIGTERM, &action, &previous_term);

  tuning::SearchResults results;
  std::exception_ptr failure;
  std::atomic<bool> done{false};
  const auto started = std::chrono::steady_clock::now();
  std::thread worker([&] {
    try {
      results = runner.run();
    } catch (...) {
      failure = std::current_exception();
    }
    done.store(true);
  });
  // Progress: a redrawn bar on a terminal; otherwise a plain line every few seconds.
  auto last_line = std::chrono::steady_clock::now();
  while (!done.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto now = std::chrono::steady_clock::now();
    if (tty || now - last_line >= std::chrono::seconds(5)) {
      print_progress(runner.progress(), tty, false);
      last_line = now;
    }
  }
  worker.join();
  sigaction(SIGINT, &previous, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
  g_runner.store(nullptr);
  if (failure) std::rethrow_exception(failure);
  print_progress(runner.progress(), tty, true);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const bool cancelled = runner.cancel_requested();

  if (private_release) {
    return finish_private_tune(results, plan, out_dir, config_path, wall, cancelled, db.get(),
                               writer ? writer->experiment_id() : 0);
  }
  // Explore: every run is exported, so the search costs the composition of all runs trained.
  // Objective-perturbation candidates (if any) run after the DP-SGD jobs and are charged with them.
  const tuning::ObjpertSearch objpert =
      cancelled ? tuning::ObjpertSearch{} : tuning::run_objpert_search(config, *data);
  return finish_explore_tune({results, objpert, out_dir, config_path, accountants, resume_id,
                              cancelled, wall, threads, db.get(), writer.get()});
}

}  // namespace

int finish_explore_tune(const ExploreFinish& f) {
  // Explore: every run is exported, so the search costs the composition of all runs trained.
  const tuning::SearchResults& results = f.results;
  const experiment::ExperimentConfig& config = results.config;
  const tuning::ObjpertSearch& objpert = f.objpert;
  const std::string& out_dir = f.out_dir;
  const std::string& config_path = f.config_path;
  const AccountantFlags& accountants = f.accountants;
  const std::optional<std::int64_t>& resume_id = f.resume_id;
  const bool cancelled = f.cancelled;
  const double wall = f.wall_seconds;
  const std::int64_t threads = f.threads;
  store::Store* db = f.db;
  store::StoreWriter* writer = f.writer;
  const tuning::ReleaseCost cost = tuning::release_cost_with_objpert(results, objpert);
  // Selection and exports use only the finished jobs.
  const auto reports = tuning::honest_selection_per_optimizer(results);
  const auto overall = tuning::honest_selection_all(results);
  const auto written = store::export_csv(results, out_dir);
  std::int64_t finished = 0, failed = 0, diverged = 0;
  const tuning::JobResult* first_failure = nullptr;
  for (const auto& job : results.jobs) {
    finished += job.status == tuning::JobStatus::kFinished;
    diverged += job.status == tuning::JobStatus::kDiverged;
    if (job.status == tuning::JobStatus::kFailed) {
      ++failed;
      if (!first_failure) first_failure = &job;
    }
  }

  nlohmann::json summary{{"experiment", config.name},
                         {"config", config_path},
                         {"cancelled", cancelled},
                         {"wall_seconds", wall},
                         {"threads", threads},
                         {"training_size", results.training_size},
                         {"delta", results.mechanism.delta},
                         {"noise_multiplier", results.mechanism.noise_multiplier},
                         {"sampling_rate", results.mechanism.sampling_rate},
                         {"steps", results.mechanism.steps},
                         {"jobs",
                          {{"total", results.jobs.size()},
                           {"finished", finished},
                           {"failed", failed},
                           {"diverged", diverged}}}};
  if (resume_id) summary["resumed_run"] = *resume_id;
  summary["optimizers"] = nlohmann::json::array();
  // The three epsilons under the chosen accountant (RDP by default, PLD with --accountant pld).
  const privacy::SubsampledGaussian mechanism{
      results.mechanism.noise_multiplier, results.mechanism.sampling_rate, results.mechanism.steps};
  auto accounted = [&](const tuning::SelectionReport& r) {
    nlohmann::json j = report_json(results, r);
    put_selection_epsilons(j, mechanism, r.num_candidates, r.delta, r.gamma, r.delta2, accountants,
                           config.accounting.rdp_options(), config.accounting.lt_log_base);
    return j;
  };
  for (const auto& r : reports) summary["optimizers"].push_back(accounted(r));
  summary["all"] = accounted(overall);
  summary["release"] = release_cost_json(cost, results);
  summary["not_covered"] = cost.not_covered;  // also in release.label's text
  if (!objpert.candidates.empty()) {
    summary["objective_perturbation"] = objpert_search_json(objpert);
    if (!objpert.jobs.empty()) summary["release"]["recompute"] = nullptr;  // RDP sum, not `account`
  }
  summary["planning_figures"] =
      "optimizers[].epsilon_ma / epsilon_lt are PLANNING figures (if you ran MA over that "
      "optimizer's K "
      "candidates once each / LT with gamma, releasing only the winner), not the cost of this "
      "search: "
      "see release.epsilon";
  const std::filesystem::path summary_path = std::filesystem::path(out_dir) / "summary.json";
  write_text(summary_path, summary.dump(2) + "\n");
  std::optional<std::string> store_error;
  if (writer) {
    store_error = writer->first_error();
    try {
      db->save_summary(writer->experiment_id(), "summary", summary.dump());
    } catch (const Error& e) {
      if (!store_error) store_error = e.what();
    }
  }

  for (std::size_t i = 0; i < reports.size(); ++i) {
    const auto& r = reports[i];
    const auto& j = summary["optimizers"][i];
    auto eps = [&](const char* key) {
      return privacy::format_epsilon_up(j[key].is_number() ? j[key].get<double>() : INFINITY);
    };
    std::printf(
        "%-10s K=%-3d best %-32s %s %.4f  eps single run %s | planning: MA over K %s (accountant: "
        "%s), LT gamma=%g %s (accountant: %s)\n",
        r.scope.c_str(), r.num_candidates,
        r.best_candidate >= 0
            ? results.candidates[static_cast<std::size_t>(r.best_candidate)].label().c_str()
            : "(none finished)",
        r.regression ? "train loss" : "accuracy",
        r.regression ? r.best_train_loss : r.best_accuracy, eps("epsilon_single_run").c_str(),
        eps("epsilon_ma").c_str(), accountant_text(j, "accountant").c_str(), r.gamma,
        eps("epsilon_lt").c_str(), accountant_text(j, "accountant_lt").c_str());
  }
  print_objpert_search(objpert);
  std::printf("%s\n", tuning::epsilon_label(cost, privacy::kEpsilonDigits).c_str());
  if (!config.variants.is_default()) {
    std::printf("reproduction variants (not dplab's defaults; docs/reproduction.md): %s\n",
                experiment::describe_variants(config.variants).c_str());
  }
  if (objpert.jobs.empty()) {
    std::printf("recompute: %s\n", recompute_command(cost, results).c_str());
  } else {
    std::printf(
        "recompute: not one `account` command: DP-SGD and objective perturbation are "
        "composed in RDP (tuning/objpert_search.h)\n");
  }
  std::printf("wrote %s and %zu CSV files; %lld of %zu jobs finished in %.1f s",
              summary_path.string().c_str(), written.size(), static_cast<long long>(finished),
              results.jobs.size(), wall);
  if (failed > 0) std::printf(", %lld failed", static_cast<long long>(failed));
  if (diverged > 0)
    std::printf(", %lld diverged (parameters not finite or too large; scored as the worst)",
                static_cast<long long>(diverged));
  std::printf("\n");
  std::fflush(stdout);
  if (writer) {
    // The same count as the cancel line below: jobs with a result (a cancelled job's row is
    // re-run on --resume, so it is not counted as kept).
    std::cerr << "dplab-cli tune: run " << writer->experiment_id() << " in " << db->path() << ": "
              << db->stored_results(writer->experiment_id()) << " of " << results.jobs.size()
              << " jobs stored\n";
  }
  const auto resume_hint = [&] {
    if (writer) {
      std::cerr << "dplab-cli tune: resume with: dplab-cli tune --resume "
                << writer->experiment_id() << " --db " << db->path() << "\n";
    }
  };
  if (store_error) {
    std::cerr << "dplab-cli tune: error: run history " << db->path() << ": " << *store_error
              << "\n";
    // The run is "incomplete": once there is room (or the lock is gone), resuming stores what
    // is missing by running those jobs again with their seeds.
    if (!cancelled) resume_hint();
  }
  if (cancelled) {
    // One count: the jobs with a final result (finished, diverged or failed) are kept and never
    // re-run; the others (cancelled mid-run or not started) run on --resume.
    const std::int64_t kept = finished + diverged + failed;
    std::cerr << "dplab-cli tune: " << (g_signal.load() == SIGTERM ? "terminated" : "cancelled")
              << "; kept " << kept << " of " << results.jobs.size() << " jobs (" << finished
              << " finished, " << diverged << " diverged, " << failed << " failed); the other "
              << static_cast<std::int64_t>(results.jobs.size()) - kept
              << " run again on --resume\n";
    resume_hint();
    return g_signal.load() == SIGTERM ? 143 : 130;
  }
  if (failed > 0) {
    const auto& c = results.candidates[static_cast<std::size_t>(first_failure->candidate)];
    std::cerr << "dplab-cli tune: error: " << failed << " of " << results.jobs.size()
              << " jobs failed; the first: candidate " << c.index << " (" << c.label()
              << "), repeat " << first_failure->repeat << ": " << first_failure->error << "\n";
    return 1;
  }
  if (store_error) return 1;
  if (finished == 0) {
    std::cerr << "dplab-cli tune: error: no job finished (all diverged?): nothing to select\n";
    return 1;
  }
  return 0;
}

int run_tune_command(const Arguments& args) {
  return run_tune(args);
}

void add_tune_command(CLI::App& cli) {
  CLI::App* cmd =
      cli.add_subcommand("tune", "run an honest hyperparameter search from an experiment file");
  auto args = std::make_shared<Arguments>();
  add_value(*cmd, *args, "config", "experiment file (see resources/presets/); not with --resume",
            "EXPERIMENT.json");
  add_value(
      *cmd, *args, "resume",
      "finish an interrupted or cancelled run of --db: only its missing jobs run, with the same "
      "seeds, so the result equals an uninterrupted run",
      "RUN_ID");
  add_value(*cmd, *args, "plan",
            "write the search as files into DIR without training (plan.json: the jobs with their "
            "seeds and, for --release private, the draws; curator only) for run-jobs and "
            "history merge",
            "DIR");
  add_value(*cmd, *args, "threads", "worker threads (default: all cores)", "N");
  add_max_memory_flag(*cmd, *args);
  add_value(*cmd, *args, "db", "SQLite run history to append this run to (created if missing)",
            "FILE");
  add_value(*cmd, *args, "db-retry",
            "seconds to keep retrying finished jobs --db could not take (locked, full; default 60)",
            "S");
  add_value(*cmd, *args, "out",
            "folder for curves.csv, aggregate_curves.csv, alpha_clip_grid.csv, summary.json "
            "(default: <experiment name>-results)",
            "DIR");
  add_release_flags(*cmd, *args);
  add_value(*cmd, *args, "accountant",
            "rdp or pld: epsilon of the single run and of MA and of LT's base run (default rdp)",
            "rdp|pld");
  add_value(*cmd, *args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  cmd->footer(
      "Exit status: 0 ok; 1 a job failed (the first reason on stderr), a finished job could not be "
      "stored in --db, or another run-time error; 2 bad usage; 130 Ctrl-C, 143 SIGTERM (finished "
      "jobs are kept; continue with --resume). Diverged candidates are reported, not an error.");
  on_run(*cmd, [args] { return run_tune(*args); });
}

}  // namespace dplab::cli
