#include "cli/tune_objpert.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace dplab::cli {

nlohmann::json objpert_search_json(const tuning::ObjpertSearch& search) {
  nlohmann::json candidates = nlohmann::json::array();
  for (const auto& c : search.candidates) {
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& job : search.jobs) {
      if (job.candidate != c.index) continue;
      nlohmann::json run{{"repeat", job.repeat},
                         {"status", tuning::to_string(job.status)},
                         {"iterations", job.iterations},
                         {"finished_by_lbfgs", job.finished_by_lbfgs},
                         {"wall_seconds", job.wall_seconds}};
      if (job.status == tuning::JobStatus::kFinished) run["val_accuracy"] = job.val_accuracy;
      if (!job.error.empty()) run["error"] = job.error;
      runs.push_back(run);
    }
    candidates.push_back({{"label", c.label()},
                          {"entry", c.entry},
                          {"learning_rate", c.learning_rate},
                          {"max_iterations", c.max_iterations},
                          {"runs", runs}});
  }
  nlohmann::json out{{"candidates", candidates}};
  if (search.best_candidate >= 0) {
    out["best"] = {
        {"label", search.candidates[static_cast<std::size_t>(search.best_candidate)].label()},
        {"val_accuracy", search.best_accuracy}};
  }
  return out;
}

void print_objpert_search(const tuning::ObjpertSearch& search) {
  for (const auto& c : search.candidates) {
    double sum = 0;
    int finished = 0, by_lbfgs = 0;
    for (const auto& job : search.jobs) {
      if (job.candidate != c.index || job.status != tuning::JobStatus::kFinished) continue;
      sum += job.val_accuracy;
      ++finished;
      by_lbfgs += job.finished_by_lbfgs;
    }
    if (finished == 0) {
      std::printf("%-34s no finished run\n", c.label().c_str());
      continue;
    }
    std::printf("%-34s accuracy %.4f (mean of %d run(s)%s)\n", c.label().c_str(), sum / finished,
                finished, by_lbfgs ? ", gradient descent finished by L-BFGS" : "");
  }
  if (search.best_candidate >= 0) {
    std::printf("objpert    best %s accuracy %.4f\n",
                search.candidates[static_cast<std::size_t>(search.best_candidate)].label().c_str(),
                search.best_accuracy);
  }
}

}  // namespace dplab::cli
