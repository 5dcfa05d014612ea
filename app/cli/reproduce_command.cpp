// dplab-cli reproduce ITEM|all --out DIR: runs the main paper's items from their presets
// (engine/reproduction/reproduction_items.h), one search per item and data version, and writes
// per item and version its figures (SVG + PDF + PNG, engine/figures), the CSV files behind them and
// the search's curves, then REPORT.md with the "paper vs dplab" table, verdicts and wall times
// (rewritten after every item). Progress goes to stderr. Ctrl-C, SIGTERM or SIGUSR1
// (cli/interrupt.h, the long commands' one rule) cancels the running search within one optimizer
// step; every finished item keeps its files and REPORT.md lists the interrupted one; exit 130
// (143, 138).
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>

#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/figure_file.h"
#include "cli/interrupt.h"
#include "cli/output_files.h"
#include "cli/poll_thread.h"
#include "cli/progress_line.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/validate.h"
#include "data/dataset_catalog.h"
#include "data/preset_files.h"
#include "figures/plot.h"
#include "release/release_writer.h"
#include "release/search_release.h"
#include "reproduction/item_outcome.h"
#include "reproduction/kk23_comparison.h"
#include "reproduction/reproduction_items.h"
#include "reproduction/reproduction_report.h"
#include "tuning/pruned_comparison.h"
#include "tuning/runner.h"
#include "tuning/search_efficiency.h"

namespace dplab::cli {
namespace {

namespace fs = std::filesystem;
using reproduction::ItemRun;
using reproduction::Scale;

// Ctrl-C, SIGTERM and SIGUSR1 follow the long commands' one rule (cli/interrupt.h): the signal
// sets a flag; a watcher thread cancels the runner in flight (its jobs stop at their next step),
// and the items finished so far and REPORT.md are kept. The runner is registered under a mutex,
// so the watcher never cancels one that has been destroyed.
class RunnerInFlight {
 public:
  explicit RunnerInFlight(const InterruptScope& interrupt) : interrupt_(interrupt) {}
  void set(tuning::Runner* runner) {
    const std::lock_guard lock(mutex_);
    runner_ = runner;
    if (runner_ && interrupt_.interrupted()) runner_->cancel();  // the signal came in between
  }
  void cancel_if_interrupted() {
    const std::lock_guard lock(mutex_);
    if (runner_ && interrupt_.interrupted()) runner_->cancel();  // idempotent
  }
  bool interrupted() const { return interrupt_.interrupted(); }

 private:
  const InterruptScope& interrupt_;
  std::mutex mutex_;
  tuning::Runner* runner_ = nullptr;
};
RunnerInFlight* g_in_flight = nullptr;  // lives while `reproduce` runs (reproduce_command)

// One item's progress on stderr (cli/progress_line.h): steps with rate and ETA, runs finished
// (listener calls come from workers; the line is thread-safe).
class ProgressPrinter : public tuning::RunListener {
 public:
  explicit ProgressPrinter(const std::string& what) : line_("reproduce " + what, "steps") {}
  void on_progress(const tuning::Progress& p) override {
    line_.update(static_cast<double>(p.steps_done), static_cast<double>(p.steps_total),
                 runs_text(p));
  }
  void finish(const tuning::Progress& p) {
    line_.finish(static_cast<double>(p.steps_done), static_cast<double>(p.steps_total),
                 runs_text(p));
  }

 private:
  static std::string runs_text(const tuning::Progress& p) {
    return "runs " + std::to_string(p.jobs_done) + "/" + std::to_string(p.jobs_total);
  }
  ProgressLine line_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Writes the outcome's files and figures into out/ITEM/VERSION and lists the figures in `run`.
void write_outcome(const reproduction::ReproductionItem& item,
                   const reproduction::DataVersion& version, const fs::path& out, ItemRun& run) {
  const fs::path folder = out / item.name / reproduction::version_folder(version);
  fs::create_directories(folder);
  for (const auto& [name, text] : run.outcome.files)
    write_text_file_atomically(folder / name, text);
  for (const auto& [stem, plot] : run.outcome.figures) {
    for (const char* extension : {".svg", ".pdf", ".png"}) {
      write_figure(plot, folder / (stem + extension));
      run.figure_files.push_back(
          (fs::path(item.name) / reproduction::version_folder(version) / (stem + extension))
              .string());
    }
  }
}

// The kk23 item (reproduction/kk23_comparison.h): every (method, sigma, seed) one whole
// procedure, the data loaded once per seed (the seed sets the split).
void run_kk23_item(const reproduction::ReproductionItem& item,
                   const reproduction::DataVersion& version, Scale scale, const fs::path& presets,
                   const fs::path& out, int threads, bool data_was_asked, ItemRun& run) {
  const auto started = std::chrono::steady_clock::now();
  const experiment::ExperimentConfig preset =
      experiment::load_experiment_file((presets / (version.preset + ".json")).string());
  const reproduction::Kk23Sweep sweep = reproduction::kk23_sweep(preset, scale);
  const std::size_t total =
      sweep.seeds.size() * (sweep.ps_sigmas.size() + sweep.kk23_sigmas.size());
  run.scaling = "T = " + std::to_string(sweep.kk23.privacy.steps) +
                (sweep.kk23.privacy.steps != preset.privacy.steps
                     ? " (preset " + std::to_string(preset.privacy.steps) + ")"
                     : "") +
                ", " + std::to_string(sweep.seeds.size()) + " seed(s), " + std::to_string(total) +
                " procedures";
  tuning::RunOptions options;
  options.threads = threads;
  options.keep_models = false;  // the reproductions write figures and tables, not models
  const auto watch = [](tuning::Runner* runner) { g_in_flight->set(runner); };
  std::vector<reproduction::Kk23Procedure> procedures;
  double ps_wall = 0, kk23_wall = 0;
  std::fprintf(stderr, "reproduce %s %s: %s\n", item.name.c_str(), version.key.c_str(),
               run.scaling.c_str());
  ProgressLine progress("reproduce " + item.name + " " + version.key, "procedures");
  progress.update(0, static_cast<double>(total));
  for (const std::uint64_t seed : sweep.seeds) {
    std::shared_ptr<const data::TrainValidationSplit> data;
    try {
      data = tuning::load_experiment_data(
          reproduction::kk23_procedure_config(sweep, true, sweep.kk23_sigmas.front(), seed));
    } catch (const IoError& e) {
      if (data_was_asked) throw;
      run.status = std::string("skipped: ") + e.what();
      run.wall_seconds = seconds_since(started);
      return;
    }
    for (const bool kk23 : {false, true}) {
      for (const double sigma : kk23 ? sweep.kk23_sigmas : sweep.ps_sigmas) {
        bool cancelled = false;
        const reproduction::Kk23Procedure p = reproduction::run_kk23_procedure(
            sweep, kk23, sigma, seed, data, options, watch, cancelled);
        if (cancelled || g_in_flight->interrupted()) {
          run.status = "interrupted";
          run.wall_seconds = seconds_since(started);
          return;
        }
        (kk23 ? kk23_wall : ps_wall) += p.wall_seconds;
        procedures.push_back(p);
        progress.update(static_cast<double>(procedures.size()), static_cast<double>(total));
      }
    }
  }
  progress.finish(static_cast<double>(procedures.size()), static_cast<double>(total));
  run.wall_seconds = seconds_since(started);
  run.outcome = reproduction::analyse_kk23(procedures, sweep, scale, ps_wall, kk23_wall);
  write_outcome(item, version, out, run);
  run.status = "done";
}

// Section 5.2's pooled pruning (issue #31): DPSGD's times-best scores of every search of this
// invocation that has DPSGD's (alpha, C) grid (figure4, figure8, figure9, section5.2), one entry
// per distinct setting "data, model, sigma" (figure4 and section5.2 at sigma = 4 are the same
// setting: the first search counts), and the section 5.2 searches to compare on the pooled pool
// once every item ran.
struct PooledPruningInputs {
  std::vector<tuning::PruningScores> settings;
  struct Section52 {
    std::size_t run_index = 0;
    const reproduction::ReproductionItem* item = nullptr;
    reproduction::DataVersion version;
    tuning::SearchResults results;
  };
  std::vector<Section52> section52;

  void add_scores(const reproduction::ReproductionItem& item,
                  const reproduction::DataVersion& version, const tuning::SearchResults& results) {
    using reproduction::ItemId;
    if (item.id != ItemId::kFigure4Table1 && item.id != ItemId::kFigure8 &&
        item.id != ItemId::kFigure9 && item.id != ItemId::kSection52)
      return;
    for (std::size_t i = 0; i < results.config.optimizers.size(); ++i) {
      if (results.config.optimizers[i].kind != optim::OptimizerKind::kDpSgd) continue;
      const std::string setting =
          version.label + ", " + models::to_string(results.config.model.kind) +
          ", sigma = " + format_number(results.config.privacy.noise_multiplier);
      for (const auto& s : settings)
        if (s.setting == setting) return;
      settings.push_back(tuning::pruning_scores(results, static_cast<int>(i), setting));
    }
  }
};

// Runs one item on one data version; fills `run` (status, files, outcome) and gives the finished
// search to `pooled`.
void run_item(const reproduction::ReproductionItem& item, const reproduction::DataVersion& version,
              Scale scale, const fs::path& presets, const fs::path& out, int threads,
              bool data_was_asked, ItemRun& run, PooledPruningInputs& pooled,
              std::size_t run_index) {
  if (item.id == reproduction::ItemId::kKk23) {
    run_kk23_item(item, version, scale, presets, out, threads, data_was_asked, run);
    return;
  }
  const auto started = std::chrono::steady_clock::now();
  experiment::ExperimentConfig paper =
      experiment::load_experiment_file((presets / (version.preset + ".json")).string());
  const double sigma =
      version.noise_multiplier > 0 ? version.noise_multiplier : item.noise_multiplier;
  if (sigma > 0) paper.privacy.noise_multiplier = sigma;
  const experiment::ExperimentConfig scaled = reproduction::scaled_experiment(paper, scale);
  run.scaling = reproduction::describe_scaling(paper, scaled);
  if (sigma > 0)
    run.scaling += ", sigma = " + format_number(sigma) + " (the preset's sigma replaced)";
  std::shared_ptr<const data::TrainValidationSplit> data;
  try {
    data = tuning::load_experiment_data(scaled);
  } catch (const IoError& e) {
    if (data_was_asked) throw;
    run.status = std::string("skipped: ") + e.what();
    run.wall_seconds = seconds_since(started);
    return;
  }
  tuning::RunOptions options;
  options.threads = threads;
  options.keep_models = false;  // the reproductions write figures and tables, not models
  tuning::Runner runner(scaled, data, options);
  ProgressPrinter printer(item.name + " " + version.key);
  runner.add_listener(&printer);
  std::fprintf(stderr, "reproduce %s %s: %s\n", item.name.c_str(), version.key.c_str(),
               run.scaling.c_str());
  g_in_flight->set(&runner);  // cancels it at once after a Ctrl-C while the data loaded
  const tuning::SearchResults results = runner.run();
  g_in_flight->set(nullptr);
  printer.finish(runner.progress());
  run.wall_seconds = seconds_since(started);
  if (runner.cancel_requested()) {
    run.status = "interrupted";
    return;
  }
  run.outcome = reproduction::analyse_item(item, version, paper, results, scale);
  pooled.add_scores(item, version, results);
  if (item.id == reproduction::ItemId::kSection52)
    pooled.section52.push_back({run_index, &item, version, results});
  const fs::path folder = out / item.name / reproduction::version_folder(version);
  fs::create_directories(folder);
  release::write_release(release::explore_release(results, false), folder.string());
  write_outcome(item, version, out, run);
  // Where the item's CPU time went, from its start (the data's loading) to its outputs.
  run.cpu_time = tuning::describe(
      tuning::search_efficiency(results, seconds_since(started), runner.threads()));
  run.status = "done";
}

int run_reproduce(const std::string& what, const Arguments& args) {
  const auto started = std::chrono::steady_clock::now();
  const std::string out_text = args.required_text("out");
  Scale scale = Scale::kQuick;
  try {
    scale = reproduction::parse_scale(args.text_or("scale", kDefaultScale));
  } catch (const Error& e) {
    throw UsageError(std::string("--scale: ") + e.what());
  }
  const std::string data_filter = args.text_or("data", kDefaultData);
  if (data_filter != "all" && data_filter != "adult" && data_filter != "fashion-mnist")
    throw UsageError("--data: expected adult, fashion-mnist or all, got '" + data_filter + "'");
  // --sigma: only the versions that set this sigma (items with one version per sigma).
  std::optional<double> sigma_filter;
  if (auto text = args.text("sigma")) {
    sigma_filter = parse_number("--sigma", *text);
    if (!(*sigma_filter > 0))
      throw UsageError("--sigma: expected a number > 0, got '" + *text + "'");
  }
  const int threads = args.threads();
  std::vector<const reproduction::ReproductionItem*> items;
  if (what == "all") {
    for (const auto& item : reproduction::reproduction_items()) items.push_back(&item);
  } else {
    try {
      items.push_back(&reproduction::find_item(what));
    } catch (const Error& e) {
      throw UsageError(std::string("ITEM: ") + e.what());
    }
  }
  std::string presets;
  if (auto given = args.text("presets")) {
    presets = *given;
    if (!fs::is_directory(presets))
      throw UsageError("--presets: '" + presets + "' is not a folder");
  } else {
    presets = data::find_presets_dir();
  }
  require_writable_folder(out_text, "--out");
  const fs::path out(out_text);
  const std::string command_line =
      "dplab-cli reproduce " + what + " --scale " + reproduction::to_string(scale) +
      (data_filter == "all" ? "" : " --data " + data_filter) +
      (sigma_filter ? " --sigma " + format_number(*sigma_filter) : "") +
      (args.text("presets") ? " --presets " + presets : "");

  const InterruptScope interrupt;
  RunnerInFlight in_flight(interrupt);
  g_in_flight = &in_flight;
  struct ForgetInFlight {
    ~ForgetInFlight() { g_in_flight = nullptr; }  // after the watcher below has stopped
  } forget_in_flight;
  const PollThread watcher(kPollPeriod, [&] { in_flight.cancel_if_interrupted(); });

  std::vector<ItemRun> runs;
  PooledPruningInputs pooled;
  bool interrupted = false;
  auto write_report = [&] {
    write_text_file_atomically(
        out / "REPORT.md",
        reproduction::report_markdown(runs, scale, command_line, seconds_since(started)));
  };
  for (const auto* item : items) {
    for (const auto& version : item->versions) {
      if (data_filter != "all" && version.key != "synthetic" && version.key != data_filter)
        continue;
      if (sigma_filter && version.noise_multiplier > 0 && version.noise_multiplier != *sigma_filter)
        continue;
      if (interrupted) break;
      ItemRun run;
      run.item = item->name;
      run.title = item->title;
      run.data = version.label;
      try {
        run_item(*item, version, scale, presets, out, threads, data_filter != "all", run, pooled,
                 runs.size());
      } catch (const Error& e) {
        in_flight.set(nullptr);
        run.status = std::string("failed: ") + e.what();
      }
      interrupted = run.status == "interrupted";
      std::fprintf(stderr, "reproduce %s %s: %s (%.1f s)\n", item->name.c_str(),
                   version.key.c_str(), run.status.c_str(), run.wall_seconds);
      runs.push_back(std::move(run));
      write_report();
    }
  }
  // Section 5.2 on the pooled pool, once every search of this invocation has its scores.
  if (!interrupted) {
    for (auto& entry : pooled.section52) {
      ItemRun& run = runs[entry.run_index];
      try {
        const std::size_t figures_before = run.outcome.figures.size();
        const std::size_t files_before = run.outcome.files.size();
        reproduction::add_pooled_section52(run.outcome, entry.version, entry.results,
                                           pooled.settings, scale);
        // Write only what the pooled comparison added (the rest is on disk already).
        ItemRun added;
        added.outcome.figures.assign(run.outcome.figures.begin() + figures_before,
                                     run.outcome.figures.end());
        added.outcome.files.assign(run.outcome.files.begin() + files_before,
                                   run.outcome.files.end());
        write_outcome(*entry.item, entry.version, out, added);
        run.figure_files.insert(run.figure_files.end(), added.figure_files.begin(),
                                added.figure_files.end());
      } catch (const Error& e) {
        run.status = std::string("failed (pooled pruning): ") + e.what();
      }
    }
    if (!pooled.section52.empty()) write_report();
  }
  bool failed = false;
  for (const auto& run : runs) {
    failed |= run.status.rfind("failed", 0) == 0;
    for (const auto& row : run.outcome.rows) {
      std::printf("%-10s %-13s %-55s paper %-32s dplab %s -> %s\n", row.item.c_str(),
                  row.data.c_str(), row.quantity.c_str(), row.paper.c_str(), row.dplab.c_str(),
                  row.verdict.c_str());
    }
  }
  std::printf("wrote %s (%zu item runs, %.1f s)\n", (out / "REPORT.md").string().c_str(),
              runs.size(), seconds_since(started));
  std::fflush(stdout);
  if (interrupted) {
    std::cerr << "dplab-cli reproduce: " << interrupt.what_happened() << "; finished items kept in "
              << out.string() << "\n";
    return interrupt.exit_status();
  }
  if (failed) {
    std::cerr << "dplab-cli reproduce: error: an item failed (see REPORT.md)\n";
    return 1;
  }
  return 0;
}

}  // namespace

void add_reproduce_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_reproduce_flags(cli, *args),
         [args] { return run_reproduce(args->required_text("item"), *args); });
}

}  // namespace dplab::cli
