// dplab-cli tune: run an honest hyperparameter search from an experiment file (main paper
// sections 3-5). Trains every (candidate, repeat) job in parallel, shows progress, optionally
// records the run history in SQLite (--db), and writes CSVs and summary.json into --out:
// per optimizer the best candidate, its accuracy, the "dishonest" epsilon of the single best run,
// the honest epsilon under MA and LT (K = that optimizer's candidate count, gamma = 1/K), the
// LT algorithm's pick, and the section 5.2 random-subset table.
// Ctrl-C (SIGTERM alike) cancels cleanly (within one optimizer step), keeps what finished, and
// exits 130 (143). Exit 1 when any job failed or a finished job could not be stored (--db);
// --resume RUN_ID runs only the jobs an interrupted or cancelled run is missing.
// This file reads the flags and the experiment and runs the search; the progress and Ctrl-C live
// in tune_progress.cpp, the explore outputs in tune_outputs.cpp, the private release's in
// tune_release.cpp.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/run_config.h"
#include "cli/tune_dataset.h"
#include "cli/tune_finish.h"
#include "cli/tune_progress.h"
#include "cli/tune_release.h"
#include "cluster/search_plan.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/memory_check.h"
#include "core/message_text.h"
#include "core/os_entropy.h"
#include "core/validate.h"
#include "data/file_reader.h"
#include "data/preset_files.h"
#include "experiment/experiment_config.h"
#include "experiment/run_count_visibility.h"
#include "release/release_writer.h"
#include "release/search_release.h"
#include "store/store.h"
#include "tuning/objpert_search.h"
#include "tuning/private_search.h"
#include "tuning/runner.h"

namespace dplab::cli {
namespace {

struct TuneFlags {
  std::optional<std::string> plan_dir;  // --plan: write the search, train nothing
  AccountantFlags accountants;
  double db_retry = 60;
  std::int64_t threads = 0;
  std::optional<std::int64_t> resume_id;
  // --show-curator: print the curator-only facts (K, the wall time) on stderr, on purpose; by
  // default a private LT / PS search prints nothing that reveals K (experiment::hides_run_count).
  bool show_curator = false;
  // --save-models: which trained models an explore release writes (a private one writes the
  // released winner's, always).
  release::SaveModels save_models = release::SaveModels::kNone;
};

// The flags and how they combine; UsageError naming the flag.
TuneFlags read_tune_flags(const Arguments& args) {
  TuneFlags flags;
  flags.plan_dir = args.text("plan");
  if (flags.plan_dir) {
    // --plan writes the search and trains nothing: the flags of running and storing belong to
    // run-jobs and history merge.
    args.require_only({"config", "plan", "release", "strategy", "validation", "validation-noise",
                       "ps-distribution", "ps-mu", "ps-eta", "ps-gamma", "repeats", "secure",
                       "accountant", "pld-precision", "max-memory", "show-curator"},
                      "--plan");
    // A plan folder is written once: its stores belong to that plan (and a new plan would
    // make them foreign, refused at merge).
    if (std::filesystem::exists(std::filesystem::path(*flags.plan_dir) / cluster::kPlanFile)) {
      throw UsageError("--plan: " + cut_for_message(*flags.plan_dir) +
                       " already holds a plan; plan into a new folder");
    }
  }
  apply_max_memory_flag(args);
  flags.show_curator = args.has("show-curator");
  if (const auto save = args.text("save-models")) {
    try {
      flags.save_models = release::parse_save_models(*save);
    } catch (const InvalidArgument& e) {
      throw UsageError(e.what());
    }
  }
  flags.accountants =
      parse_accountant_flags(args.text_or("accountant", ""), args.text_or("pld-precision", ""));
  flags.db_retry = args.number_or("db-retry", kDefaultDbRetrySeconds);
  if (!(flags.db_retry >= 0 && flags.db_retry <= 86400))
    throw UsageError("--db-retry: expected 0..86400 seconds");
  flags.threads = args.threads();
  if (args.text("resume")) flags.resume_id = args.required_integer("resume");
  if (args.text("db") && args.text("db")->empty()) throw UsageError(kEmptyDb);
  if (flags.resume_id && !args.text("db"))
    throw UsageError("--resume needs --db (the run history holding the run)");
  if (flags.resume_id && args.text("config"))
    throw UsageError("--resume takes the experiment from --db; drop --config");
  // Resuming reads an existing history: a missing one is an error, not a new empty database.
  if (flags.resume_id && !std::filesystem::is_regular_file(*args.text("db"))) {
    throw UsageError("--resume: no run history at '" + cut_for_message(*args.text("db")) +
                     "' (--db must name the history holding run " +
                     std::to_string(*flags.resume_id) + ")");
  }
  return flags;
}

struct TuneExperiment {
  experiment::ExperimentConfig config;  // with the release flags applied
  std::string config_path;              // summary.json's "config": the file, or HISTORY#RUN
  std::optional<tuning::SearchResults> earlier;  // the run --resume continues
};

// The experiment from --config, or from the history's run with --resume; nullopt when --config
// does not parse (said on stderr; exit status 2).
std::optional<TuneExperiment> read_tune_experiment(const Arguments& args, const TuneFlags& flags,
                                                   store::Store* db) {
  TuneExperiment e;
  if (flags.resume_id) {
    try {
      e.earlier = db->load_results(*flags.resume_id);
    } catch (const IoError& error) {
      throw UsageError(std::string("--resume: ") + error.what());
    }
    e.config = e.earlier->config;
    e.config_path = *args.text("db") + "#" + std::to_string(*flags.resume_id);
  } else {
    try {
      e.config_path = data::resolve_preset_path(args.required_text("config"));
      e.config = experiment::load_experiment_file(e.config_path);
    } catch (const ParseError& error) {
      std::cerr << "dplab-cli tune: --config: " << error.what() << "\n";
      return std::nullopt;
    } catch (const IoError& error) {
      throw UsageError(std::string("--config: ") + error.what());
    }
  }
  apply_tune_dataset_flags(args, e.config);
  if (flags.resume_id) {
    for (const auto& flag : csv_reading_flags()) {
      if (args.has(flag)) {
        throw UsageError("--" + flag +
                         " is not used with --resume: the run reads its data as it did (its "
                         "stored experiment)");
      }
    }
  }
  apply_csv_reading_flags(args, e.config.dataset.csv);
  apply_release_flags(args, e.config);
  if (flags.accountants.run == privacy::Accountant::kPld &&
      e.config.accounting.conversion == privacy::Conversion::kClassic) {
    throw UsageError(
        "--accountant pld: the experiment's accounting.conversion \"classic\" is an RDP "
        "setting; drop one of them");
  }
  if (e.config.release.secure) e.config.seed = os_random_u64();  // never printed nor written
  return e;
}

// A private release's jobs, drawn up front (tuning::draw_private_jobs, the engine's rules).
tuning::PrivatePlan draw_jobs_saying_none(const experiment::ExperimentConfig& config,
                                          const data::TrainValidationSplit& data,
                                          tuning::RunOptions& options) {
  tuning::PrivatePlan plan = tuning::draw_private_jobs(config, data, options);
  if (options.plan.empty()) {
    std::fprintf(stderr, "tune %s: %s drew 0 runs: nothing is trained or released\n",
                 config.name.c_str(), experiment::describe_release(config.release).c_str());
  }
  return plan;
}

// --plan: the resolved jobs and the private draws (the same `plan` as a local run) as files.
int write_tune_plan(const Arguments& args, const std::string& plan_dir,
                    const tuning::Runner& runner, const std::optional<tuning::PrivatePlan>& plan,
                    const std::string& config_path, const data::TrainValidationSplit& data,
                    bool show_curator) {
  cluster::SearchPlan search_plan;
  try {
    search_plan =
        cluster::make_plan(runner.plan(), plan, config_path, args.text_or("accountant", ""),
                           args.text_or("pld-precision", ""), cluster::data_fingerprint(data));
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
  search_plan.data_notes = data.notes;
  cluster::write_plan(plan_dir, search_plan);
  // A private LT / PS plan's job count is K: named only on request.
  const std::string jobs = experiment::hides_run_count(runner.config().release) && !show_curator
                               ? std::string()
                               : " of " + std::to_string(runner.total_jobs()) + " jobs";
  std::fprintf(stderr,
               "tune %s: wrote the plan%s into %s (curator only: it holds the "
               "draws); run shard I of N with: dplab-cli run-jobs %s --shard I --shards N; "
               "then: dplab-cli history merge %s --db HISTORY\n",
               runner.config().name.c_str(), jobs.c_str(), plan_dir.c_str(), plan_dir.c_str(),
               plan_dir.c_str());
  return 0;
}

// --show-curator after a private release: curator-only.json (the one place K lives) on stderr.
void print_curator_facts(const std::string& out_dir) {
  const std::filesystem::path path = std::filesystem::path(out_dir) / release::kCuratorOnlyFile;
  if (!std::filesystem::exists(path)) return;  // a search that released nothing before the files
  std::cerr << "dplab-cli tune: --show-curator: curator only, NOT FOR RELEASE (" << path.string()
            << "):\n"
            << json_text(data::read_json_file(path.string()), 2) << "\n";
}

int run_tune(const Arguments& args) {
  const TuneFlags flags = read_tune_flags(args);
  std::unique_ptr<store::Store> db;
  if (auto db_path = args.text("db")) db = std::make_unique<store::Store>(*db_path);
  const std::optional<TuneExperiment> experiment = read_tune_experiment(args, flags, db.get());
  if (!experiment) return 2;
  const experiment::ExperimentConfig& config = experiment->config;
  const std::string& config_path = experiment->config_path;
  const bool private_release = config.release.mode == experiment::ReleaseMode::kPrivate;
  const std::string out_dir = args.text_or("out", config.name + "-results");
  if (flags.plan_dir && config.release.linear_scaling) {
    throw UsageError(
        "--plan (and slurm, which plans with it): release mode private-linear-scaling runs in "
        "three phases (two trial rounds, then a final run whose learning rate the trials "
        "decide) and cannot be written as a plan; run it with `dplab-cli tune --config "
        "EXPERIMENT --out DIR` on one machine");
  }
  if (flags.plan_dir && config.release.subsampled) {
    // Before any data is loaded or any folder made: the second phase (the final run) depends on
    // the winner of the first, so the procedure is not a fixed list of jobs run-jobs could run.
    throw UsageError(
        "--plan (and slurm, which plans with it): release mode private-subsampled "
        "(--release private-subsampled, or \"mode\": \"private-subsampled\" in the "
        "experiment's release) runs in two phases, a search on a subsample and then one final "
        "run with the winner's hyperparameters, and cannot be written as a plan; run it with "
        "`dplab-cli tune --config EXPERIMENT --out DIR` on one machine");
  }
  // Before any job: a read-only or full --out must not be found out after hours of training.
  require_writable_folder(flags.plan_dir ? *flags.plan_dir : out_dir,
                          flags.plan_dir ? "--plan" : "--out");
  const bool tty = isatty(STDERR_FILENO) != 0;

  const auto data = tuning::load_experiment_data(config);
  for (const auto& note : data->notes) std::cerr << "dplab-cli tune: note: " << note << "\n";
  std::cerr << "dplab-cli tune: note: preprocessing: " << data->preprocessing.description << "\n";
  std::cerr << "dplab-cli tune: note: " << memory_budget_description() << "\n";
  tuning::RunOptions options;
  options.threads = static_cast<int>(flags.threads);
  options.secure = config.release.secure;
  if (private_release && args.text("save-models")) {
    throw UsageError(
        "--save-models: a private release writes the released winner's model only "
        "(model/); the other runs' models are not covered by its epsilon");
  }
  // The models a release writes: the private winner's (chosen after the runs), or explore's asked.
  options.keep_models = private_release || flags.save_models != release::SaveModels::kNone;
  if (config.release.subsampled) {  // tune_subsampled.cpp: two phases, two runners
    if (flags.resume_id) throw UsageError("--resume: a private-subsampled run cannot be resumed");
    const int status = run_subsampled_tune(config, data, options, out_dir, config_path, db.get(),
                                           flags.db_retry, flags.show_curator);
    if (flags.show_curator) print_curator_facts(out_dir);
    return status;
  }
  if (config.release.linear_scaling) {  // tune_linear_scaling.cpp: three phases
    if (flags.resume_id)
      throw UsageError("--resume: a private-linear-scaling run cannot be resumed");
    return run_linear_scaling_tune(config, data, options, out_dir, config_path, db.get(),
                                   flags.db_retry);
  }
  tuning::PrivatePlan plan;
  if (private_release) plan = draw_jobs_saying_none(config, *data, options);
  tuning::Runner runner(config, data, options);
  if (flags.plan_dir) {
    return write_tune_plan(args, *flags.plan_dir, runner,
                           private_release ? std::optional(plan) : std::nullopt, config_path, *data,
                           flags.show_curator);
  }
  if (experiment->earlier) runner.resume_from(*experiment->earlier);
  std::unique_ptr<store::StoreWriter> writer;
  if (db) {
    writer = std::make_unique<store::StoreWriter>(*db, flags.db_retry);
    if (flags.resume_id) writer->resume(*flags.resume_id);
    runner.add_listener(writer.get());
  }

  print_search_header(config, runner, *data, flags.show_curator);
  const TuneRun run = run_with_progress(
      runner, tty, experiment::hides_run_count(config.release) && !flags.show_curator);
  print_job_warnings(run.results, "dplab-cli tune");
  if (private_release) {
    const int status =
        finish_private_tune(run.results, plan, out_dir, config_path, run.wall_seconds,
                            run.cancelled, db.get(), writer ? writer->experiment_id() : 0);
    if (flags.show_curator) print_curator_facts(out_dir);
    return status;
  }
  // Explore: every run is exported, so the search costs the composition of all runs trained.
  // Objective-perturbation candidates (if any) run after the DP-SGD jobs and are charged with them.
  const tuning::ObjpertSearch objpert =
      run.cancelled ? tuning::ObjpertSearch{} : tuning::run_objpert_search(config, *data);
  return finish_explore_tune({run.results, objpert, out_dir, config_path, flags.accountants,
                              flags.resume_id, run.cancelled, run.wall_seconds, flags.threads,
                              db.get(), writer.get(), flags.save_models, data->notes, run.started,
                              run.threads});
}

}  // namespace

int run_tune_command(const Arguments& args) {
  return run_tune(args);
}

void add_tune_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_tune_flags(cli, *args), [args] { return run_tune(*args); });
}

}  // namespace dplab::cli
