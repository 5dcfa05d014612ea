// The explore side of `dplab-cli tune` after its jobs ended (tune_finish.h): selection, the
// release epsilon, summary.json, the CSVs, the run history's summary, the printed report and the
// exit status.
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/interrupt.h"
#include "cli/tune_finish.h"
#include "cli/tune_objpert.h"
#include "cli/tune_progress.h"
#include "cli/tune_release.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_text.h"
#include "privacy/accounting/epsilon_display.h"
#include "release/release_writer.h"
#include "release/search_release.h"
#include "store/store.h"
#include "tuning/honest_selection.h"
#include "tuning/release_cost.h"
#include "tuning/run_summary.h"
#include "tuning/search_efficiency.h"

namespace dplab::cli {
namespace {

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

// The jobs by final status; the first failed one (its reason is printed), or null.
struct JobCounts {
  std::int64_t finished = 0, failed = 0, diverged = 0;
  const tuning::JobResult* first_failure = nullptr;
};

JobCounts count_jobs(const tuning::SearchResults& results) {
  JobCounts n;
  for (const auto& job : results.jobs) {
    n.finished += job.status == tuning::JobStatus::kFinished;
    n.diverged += job.status == tuning::JobStatus::kDiverged;
    if (job.status == tuning::JobStatus::kFailed) {
      ++n.failed;
      if (!n.first_failure) n.first_failure = &job;
    }
  }
  return n;
}

// summary.json: the run, the per-optimizer reports with their three epsilons under the chosen
// accountant, the release (what the search costs) and the objective-perturbation search.
nlohmann::json explore_summary(const ExploreFinish& f, const tuning::ReleaseCost& cost,
                               const std::vector<tuning::SelectionReport>& reports,
                               const tuning::SelectionReport& overall, const JobCounts& n) {
  const tuning::SearchResults& results = f.results;
  const experiment::ExperimentConfig& config = results.config;
  nlohmann::json summary{{"experiment", config.name},
                         {"config", f.config_path},
                         {"cancelled", f.cancelled},
                         {"wall_seconds", f.wall_seconds},
                         {"threads", f.threads},
                         {"training_size", results.training_size},
                         {"delta", results.mechanism.delta},
                         {"noise_multiplier", results.mechanism.noise_multiplier},
                         {"sampling_rate", results.mechanism.sampling_rate},
                         {"steps", results.mechanism.steps},
                         {"jobs",
                          {{"total", results.jobs.size()},
                           {"finished", n.finished},
                           {"failed", n.failed},
                           {"diverged", n.diverged}}}};
  if (f.resume_id) summary["resumed_run"] = *f.resume_id;
  summary["data"]["notes"] = f.data_notes;
  summary["optimizers"] = nlohmann::json::array();
  // The three epsilons under the chosen accountant (RDP by default, PLD with --accountant pld).
  const privacy::SubsampledGaussian mechanism{
      results.mechanism.noise_multiplier, results.mechanism.sampling_rate, results.mechanism.steps};
  auto accounted = [&](const tuning::SelectionReport& r) {
    nlohmann::json j = report_json(results, r);
    put_selection_epsilons(j, mechanism, r.num_candidates, r.delta, r.gamma, r.delta2,
                           f.accountants, config.accounting.rdp_options(),
                           config.accounting.lt_log_base);
    return j;
  };
  for (const auto& r : reports) summary["optimizers"].push_back(accounted(r));
  summary["all"] = accounted(overall);
  summary["release"] = release_cost_json(cost, results);
  summary["not_covered"] = cost.not_covered;  // also in release.label's text
  if (!f.objpert.candidates.empty()) {
    summary["objective_perturbation"] = objpert_search_json(f.objpert);
    if (!f.objpert.jobs.empty())
      summary["release"]["recompute"] = nullptr;  // RDP sum, not `account`
  }
  summary["planning_figures"] =
      "optimizers[].epsilon_ma / epsilon_lt are PLANNING figures (if you ran MA over that "
      "optimizer's K "
      "candidates once each / LT with gamma, releasing only the winner), not the cost of this "
      "search: "
      "see release.epsilon";
  return summary;
}

// stdout: one line per optimizer, the objective-perturbation search, the release epsilon, the
// reproduction variants, the recompute command, and what was written.
void print_explore_report(const ExploreFinish& f, const tuning::ReleaseCost& cost,
                          const std::vector<tuning::SelectionReport>& reports,
                          const nlohmann::json& summary, const std::filesystem::path& summary_path,
                          std::size_t csv_files, const JobCounts& n) {
  const tuning::SearchResults& results = f.results;
  const experiment::ExperimentConfig& config = results.config;
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
        r.regression ? "val. MSE" : "accuracy", r.regression ? r.best_val_mse : r.best_accuracy,
        eps("epsilon_single_run").c_str(), eps("epsilon_ma").c_str(),
        accountant_text(j, "accountant").c_str(), r.gamma, eps("epsilon_lt").c_str(),
        accountant_text(j, "accountant_lt").c_str());
  }
  print_objpert_search(f.objpert);
  std::printf("%s\n", tuning::epsilon_label(cost, privacy::kEpsilonDigits).c_str());
  if (!config.variants.is_default()) {
    std::printf("reproduction variants (not dplab's defaults; docs/reproduction.md): %s\n",
                experiment::describe_variants(config.variants).c_str());
  }
  if (summary["release"].contains("epsilon_this_attempt")) {
    std::printf(
        "recompute: not one `account` command: the run spent over several attempts (their "
        "charges composed; dplab-cli history show --db DB --id ID lists them)\n");
  } else if (f.objpert.jobs.empty()) {
    std::printf("recompute: %s\n", recompute_command(cost, results).c_str());
  } else {
    std::printf(
        "recompute: not one `account` command: DP-SGD and objective perturbation are "
        "composed in RDP (tuning/objpert_search.h)\n");
  }
  std::printf("wrote %s and %zu CSV files; %lld of %zu jobs finished in %.1f s",
              summary_path.string().c_str(), csv_files, static_cast<long long>(n.finished),
              results.jobs.size(), f.wall_seconds);
  if (n.failed > 0) std::printf(", %lld failed", static_cast<long long>(n.failed));
  if (n.diverged > 0)
    std::printf(", %lld diverged (parameters not finite or too large; scored as the worst)",
                static_cast<long long>(n.diverged));
  std::printf("\n");
  std::fflush(stdout);
}

// stderr: the jobs stored, a store error, the cancel line with the resume hint, the first failed
// job; returns the exit status.
int explore_exit_status(const ExploreFinish& f, const std::optional<std::string>& store_error,
                        const JobCounts& n) {
  const tuning::SearchResults& results = f.results;
  store::Store* db = f.db;
  store::StoreWriter* writer = f.writer;
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
    if (!f.cancelled) resume_hint();
  }
  if (f.cancelled) {
    // One count: the jobs with a final result (finished, diverged or failed) are kept and never
    // re-run; the others (cancelled mid-run or not started) run on --resume.
    const std::int64_t kept = n.finished + n.diverged + n.failed;
    std::cerr << "dplab-cli tune: " << interrupt_description(tune_cancel_signal()) << "; kept "
              << kept << " of " << results.jobs.size() << " jobs (" << n.finished << " finished, "
              << n.diverged << " diverged, " << n.failed << " failed); the other "
              << static_cast<std::int64_t>(results.jobs.size()) - kept
              << " run again on --resume\n";
    resume_hint();
    return interrupt_exit_status(tune_cancel_signal());
  }
  if (n.failed > 0) {
    const auto& c = results.candidates[static_cast<std::size_t>(n.first_failure->candidate)];
    std::cerr << "dplab-cli tune: error: " << n.failed << " of " << results.jobs.size()
              << " jobs failed; the first: candidate " << c.index << " (" << c.label()
              << "), repeat " << n.first_failure->repeat << ": " << n.first_failure->error << "\n";
    return 1;
  }
  if (store_error) return 1;
  if (n.finished == 0) {
    std::cerr << "dplab-cli tune: error: no job finished (all diverged?): nothing to select\n";
    return 1;
  }
  return 0;
}

}  // namespace

int finish_explore_tune(const ExploreFinish& f) {
  // Explore: every run is exported, so the search costs the composition of all runs trained.
  const tuning::ReleaseCost this_attempt = tuning::release_cost_with_objpert(f.results, f.objpert);
  // Selection and exports use only the finished jobs.
  const auto reports = tuning::honest_selection_per_optimizer(f.results);
  const auto overall = tuning::honest_selection_all(f.results);
  // A run in the history states what it spent over all its attempts (a resume after a cancel).
  const std::optional<release::SpentBudget> spent =
      f.writer ? std::optional(f.db->spent_budget(f.writer->experiment_id())) : std::nullopt;
  // What stdout and summary.json state is what the run spent over all its attempts (a resume
  // after a cancel charges the jobs re-run again), as release.json's card does.
  const tuning::ReleaseCost cost = spent && spent->attempts > 1
                                       ? release::with_spent_budget(this_attempt, *spent)
                                       : this_attempt;
  const auto written = release::write_release(
      release::explore_release(f.results, f.cancelled, spent, &f.objpert, f.save_models),
      f.out_dir);
  const JobCounts n = count_jobs(f.results);
  nlohmann::json summary = explore_summary(f, cost, reports, overall, n);
  // Where the CPU time went (issue #49): the jobs' steps and evaluations, over wall x threads.
  std::optional<tuning::SearchEfficiency> efficiency;
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - f.started).count();
  if (f.threads_used > 0 && wall > 0) {
    efficiency = tuning::search_efficiency(f.results, wall, f.threads_used);
    summary["cpu_time"] = {{"wall_seconds", efficiency->wall_seconds},
                           {"threads", efficiency->threads},
                           {"dp_step_share", efficiency->dp_step_share},
                           {"evaluation_share", efficiency->evaluation_share},
                           {"job_setup_share", efficiency->job_setup_share},
                           {"outside_jobs_share", efficiency->outside_jobs_share},
                           {"jobs_counted", efficiency->jobs_counted}};
  }
  if (spent && spent->attempts > 1) {
    summary["release"]["epsilon_this_attempt"] = std::isfinite(this_attempt.epsilon)
                                                     ? nlohmann::json(this_attempt.epsilon)
                                                     : nlohmann::json(nullptr);
    summary["release"]["recompute"] = nullptr;  // several attempts: not one `account` command
  }
  const std::filesystem::path summary_path = std::filesystem::path(f.out_dir) / "summary.json";
  write_text(summary_path, json_text(summary, 2) + "\n");
  std::optional<std::string> store_error;
  if (f.writer) {
    store_error = f.writer->first_error();
    try {
      f.db->save_summary(f.writer->experiment_id(), "summary", json_text(summary));
    } catch (const Error& e) {
      if (!store_error) store_error = e.what();
    }
  }
  // written: the CSVs and release.json.
  print_explore_report(f, cost, reports, summary, summary_path, written.size() - 1, n);
  if (efficiency && efficiency->jobs_counted > 0)
    std::printf("%s\n", tuning::describe(*efficiency).c_str());
  return explore_exit_status(f, store_error, n);
}

}  // namespace dplab::cli
