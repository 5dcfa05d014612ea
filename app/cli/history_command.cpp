// dplab-cli history: the SQLite run history (written by `dplab-cli tune --db` and by the GUI)
// from the terminal.
//   history list   --db FILE [--json]          experiments, newest first
//   history show   --db FILE --id N [--json]   one experiment: mechanism, candidates' results,
//                                              and the stored summary (the epsilons it reported)
//   history export --db FILE --id N --out DIR  the same CSVs as `tune --out` (+ summary.json)
// Every run shows what it charged: its release mode, the runs trained and the runs its epsilon
// charges (schema v3). A private search shows and exports only its released winners, and never
// its number of runs K (jobs, runs trained: curator-only, docs/privacy-model.md).
// The file is opened read-write only to migrate an older schema; nothing is changed otherwise.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_text.h"
#include "privacy/accounting/epsilon_display.h"
#include "release/release_writer.h"
#include "release/search_release.h"
#include "store/run_history.h"
#include "store/store.h"
#include "tuning/private_release_view.h"

namespace dplab::cli {
namespace {

// Opens an existing history; a missing file is a usage error naming --db (Store would create it).
std::unique_ptr<store::Store> open_history(const Arguments& args) {
  const std::string path = args.required_text("db");
  if (path.empty()) throw UsageError(kEmptyDb);
  if (!std::filesystem::is_regular_file(path))
    throw UsageError("--db: no run history at '" + path + "'");
  // Read-only: list, show and export write nothing, so a history on a read-only disk (or without
  // write permission) can still be read.
  store::StoreOptions options;
  options.read_only = true;
  return std::make_unique<store::Store>(path, options);
}

store::ExperimentRecord find_experiment(const store::Store& db, const Arguments& args) {
  const std::int64_t id = args.required_integer("id");
  for (const auto& record : db.list_experiments()) {
    if (record.id == id) return record;
  }
  throw UsageError("--id " + std::to_string(id) + ": no such experiment in '" + db.path() +
                   "' (see 'dplab-cli history list')");
}

// A private release (tune --release private): the number of runs it trained (K) is curator-only
// (docs/privacy-model.md): neither `list` nor `show` prints it, nor the jobs done / total.
bool is_private_record(const store::ExperimentRecord& r) {
  return r.release_mode.rfind("private", 0) == 0;
}

constexpr const char* kWithheld =
    "withheld: a private release's number of runs is curator-only (docs/privacy-model.md)";

nlohmann::json record_json(const store::ExperimentRecord& r) {
  nlohmann::json j{
      {"id", r.id},
      {"name", r.name},
      {"created_at", r.created_at},
      {"status", r.status},
      {"candidates", r.num_candidates},
      {"release_mode", r.release_mode},
      {"runs_charged",
       r.runs_charged >= 0 ? nlohmann::json(r.runs_charged) : nlohmann::json(nullptr)},
      {"epsilon", std::isfinite(r.epsilon) ? nlohmann::json(r.epsilon) : nlohmann::json(nullptr)},
      // The epsilon is what the run SPENT: every attempt's charge (run, resumes) composed.
      {"spent_delta", r.spent_delta},
      {"attempts", r.attempts},
      {"composition", r.composition}};
  if (is_private_record(r)) {
    j["runs_note"] = kWithheld;
  } else {
    j["jobs_total"] = r.jobs_total;
    j["jobs_finished"] = r.jobs_finished;
    j["runs_trained"] = r.runs_trained;
  }
  return j;
}

// "12 / 40": runs trained / runs the epsilon charges ("random" for PS; "-" trained if private).
std::string charged_text(const store::ExperimentRecord& r) {
  return (is_private_record(r) ? std::string("-") : std::to_string(r.runs_trained)) + " / " +
         (r.runs_charged >= 0 ? std::to_string(r.runs_charged) : std::string("random"));
}

bool is_private(const tuning::SearchResults& results) {
  return results.config.release.mode == experiment::ReleaseMode::kPrivate;
}

int run_list(const Arguments& args) {
  const auto db = open_history(args);
  const auto records = db->list_experiments();
  if (args.has("json")) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : records) out.push_back(record_json(r));
    std::cout << json_text(out, 2) << "\n";
    return 0;
  }
  std::printf("%5s  %-20s  %-9s  %10s  %11s  %-18s  %15s  %8s  %s\n", "id", "created (UTC)",
              "status", "candidates", "jobs done", "release", "trained/charged", "eps <=", "name");
  for (const auto& r : records) {
    const std::string jobs =
        is_private_record(r) ? std::string("-")
                             : std::to_string(r.jobs_finished) + "/" + std::to_string(r.jobs_total);
    std::printf("%5lld  %-20s  %-9s  %10lld  %11s  %-18s  %15s  %8s  %s\n",
                static_cast<long long>(r.id), r.created_at.c_str(), r.status.c_str(),
                static_cast<long long>(r.num_candidates), jobs.c_str(), r.release_mode.c_str(),
                charged_text(r).c_str(),
                std::isfinite(r.epsilon) ? privacy::format_epsilon_up(r.epsilon).c_str() : "-",
                r.name.c_str());
  }
  if (records.empty()) std::printf("(no experiments in %s)\n", db->path().c_str());
  return 0;
}

int run_show(const Arguments& args) {
  const auto db = open_history(args);
  const auto record = find_experiment(*db, args);
  const auto summary = db->load_summary(record.id, "summary");
  if (args.has("json")) {
    nlohmann::json out = record_json(record);
    out["summary"] = summary ? store::parse_stored_json(*db, record.id, "summary", *summary)
                             : nlohmann::json(nullptr);
    std::cout << json_text(out, 2) << "\n";
    return 0;
  }
  const tuning::SearchResults results = db->load_results(record.id);
  const auto& m = results.mechanism;
  std::printf("experiment %lld \"%s\": %s, created %s\n", static_cast<long long>(record.id),
              record.name.c_str(), record.status.c_str(), record.created_at.c_str());
  std::printf("mechanism: n = %lld, noise multiplier %g, sampling rate %g, %lld steps, delta %g\n",
              static_cast<long long>(results.training_size), m.noise_multiplier, m.sampling_rate,
              static_cast<long long>(m.steps), m.delta);
  std::string eps_text =
      std::isfinite(record.epsilon) ? privacy::format_epsilon_up(record.epsilon) : "-";
  if (record.attempts > 1)  // spent over its attempts (Store::spent_budget)
    eps_text += " spent over " + std::to_string(record.attempts) + " attempts (" +
                record.composition + " composition)";
  if (is_private_record(record)) {
    std::printf("release: %s, runs charged: %s (%s), eps <= %s (rounded up)\n",
                record.release_mode.c_str(),
                record.runs_charged >= 0 ? std::to_string(record.runs_charged).c_str() : "random",
                kWithheld, eps_text.c_str());
  } else {
    std::printf("release: %s, runs trained / charged: %s, eps <= %s (rounded up)\n",
                record.release_mode.c_str(), charged_text(record).c_str(), eps_text.c_str());
  }
  const char* metric = results.is_regression ? "mean final val MSE" : "mean final val accuracy";
  if (is_private(results)) {
    // Only the released winners (their released, possibly noisy, scores): the other runs of a
    // private selection were not released.
    std::printf("\nreleased winner(s) (%s as released):\n", metric);
    int shown = 0;
    if (const auto release = store::load_private_release(*db, record.id)) {
      for (std::size_t r = 0; r < release->replicates.size(); ++r) {
        const auto& rep = release->replicates[r];
        if (rep.winner_candidate < 0 ||
            rep.winner_candidate >= static_cast<int>(results.candidates.size()))
          continue;
        ++shown;
        std::printf(
            "  replicate %zu: %-40s  %.4f\n", r + 1,
            results.candidates[static_cast<std::size_t>(rep.winner_candidate)].label().c_str(),
            rep.released_score);
      }
    }
    if (shown == 0) std::printf("(none recorded)\n");
  }
  if (!is_private(results))
    std::printf("\n%5s  %-36s  %9s  %s\n", "cand", "hyperparameters", "finished", metric);
  const int repeats = is_private(results) ? 0 : results.config.repeats;
  for (std::size_t c = 0; repeats > 0 && c < results.candidates.size(); ++c) {
    int finished = 0;
    double sum = 0;
    for (int r = 0; r < repeats; ++r) {
      const auto& job = results.job(static_cast<int>(c), r);
      if (job.status != tuning::JobStatus::kFinished) continue;
      ++finished;
      sum += tuning::scored_metric(job, results.is_regression);
    }
    if (finished > 0) {
      std::printf("%5zu  %-40s  %4d/%-4d  %.4f\n", c, results.candidates[c].label().c_str(),
                  finished, repeats, sum / finished);
    } else {
      std::printf("%5zu  %-40s  %4d/%-4d  -\n", c, results.candidates[c].label().c_str(), finished,
                  repeats);
    }
  }
  if (summary) {
    std::printf(
        "\nstored summary (the report of the run, including its honest epsilons):\n%s\n",
        json_text(store::parse_stored_json(*db, record.id, "summary", *summary), 2).c_str());
  } else {
    std::printf("\nno stored summary for this experiment\n");
  }
  return 0;
}

int run_export(const Arguments& args) {
  const auto db = open_history(args);
  const auto record = find_experiment(*db, args);
  const std::string out_dir = args.required_text("out");
  require_writable_folder(out_dir, "--out");  // before any file is written
  // The same Release as the run's own door (tune, the GUI): explore every run; a private search
  // its stored winners only (winners.csv), nothing of a run that did not finish.
  const tuning::SearchResults runs = db->load_results(record.id);
  const bool finished = record.status == store::to_string(store::RunStatus::kFinished);
  const auto written = release::write_release(
      release::search_release(runs, store::load_private_release(*db, record.id), !finished,
                              db->spent_budget(record.id)),
      out_dir);
  std::size_t files = written.size();
  if (const auto summary = db->load_summary(record.id, "summary")) {
    const auto path = std::filesystem::path(out_dir) / "summary.json";
    write_json_file(path, store::parse_stored_json(*db, record.id, "summary", *summary));
    ++files;
  }
  std::printf("wrote %zu files of experiment %lld into %s\n", files,
              static_cast<long long>(record.id), out_dir.c_str());
  return 0;
}

}  // namespace

void add_history_command(CLI::App& cli) {
  CLI::App* history = add_history_group(cli);
  const std::pair<const char*, int (*)(const Arguments&)> runs[] = {
      {"list", run_list}, {"show", run_show}, {"export", run_export}};
  for (const auto& query : runs) {
    auto args = std::make_shared<Arguments>();
    on_run(*add_history_query_flags(*history, query.first, *args),
           [args, run = query.second] { return run(*args); });
  }
  add_history_merge_command(*history);
}

}  // namespace dplab::cli
