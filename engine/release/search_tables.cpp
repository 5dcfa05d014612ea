// The tables of a search's release. See search_tables.h.
#include "release/search_tables.h"

#include "core/number_text.h"

namespace dplab::release {

csv::CsvTable curves_table(const tuning::SearchResults& results) {
  csv::CsvTable table;
  table.header = {"candidate",       "repeat",    "optimizer",      "learning_rate", "clip",
                  "momentum",        "beta1",     "beta2",          "adam_epsilon",  "seed",
                  "status",          "iteration", "train_loss",     "val_loss",      "val_accuracy",
                  "epsilon_per_run", "step_size", "clip_threshold", "val_mse"};
  for (const auto& job : results.jobs) {
    const auto& c = results.candidates.at(static_cast<std::size_t>(job.candidate));
    const std::vector<std::string> run{std::to_string(job.candidate),
                                       std::to_string(job.repeat),
                                       experiment::entry_name(results.config.optimizers.at(
                                           static_cast<std::size_t>(c.optimizer_index))),
                                       number_text(c.optimizer.learning_rate),
                                       number_text(c.clip),
                                       number_text(c.optimizer.momentum),
                                       number_text(c.optimizer.beta1),
                                       number_text(c.optimizer.beta2),
                                       number_text(c.optimizer.epsilon),
                                       std::to_string(job.seed),
                                       tuning::to_string(job.status)};
    for (const auto& p : job.curve) {
      std::vector<std::string> row = run;
      for (std::string field :
           {std::to_string(p.iteration), number_text(p.train_loss), number_text(p.val_loss),
            number_text(p.val_accuracy), number_text(p.epsilon), number_text(p.step_size),
            number_text(p.clip), number_text(p.val_mse)}) {
        row.push_back(std::move(field));
      }
      table.rows.push_back(std::move(row));
    }
  }
  return table;
}

csv::CsvTable aggregate_curves_table(const std::vector<tuning::OptimizerAggregates>& aggregates,
                                     const std::string& metric) {
  csv::CsvTable table;
  table.header = {"optimizer", "iteration", "best", "median", "best_candidate", "metric"};
  for (const auto& a : aggregates) {
    for (std::size_t i = 0; i < a.curves.iterations.size(); ++i) {
      table.rows.push_back({a.optimizer, std::to_string(a.curves.iterations[i]),
                            number_text(a.curves.best[i]), number_text(a.curves.median[i]),
                            std::to_string(a.curves.best_candidate[i]), metric});
    }
  }
  return table;
}

csv::CsvTable alpha_clip_grid_table(const std::vector<tuning::OptimizerAggregates>& aggregates) {
  csv::CsvTable table;
  table.header = {"optimizer",        "learning_rate",  "clip",
                  "final_train_loss", "final_accuracy", "times_best"};
  for (const auto& a : aggregates) {
    const auto& g = a.grid;
    for (std::size_t i = 0; i < g.learning_rates.size(); ++i) {
      for (std::size_t j = 0; j < g.clips.size(); ++j) {
        const std::size_t cell = g.cell(i, j);
        table.rows.push_back({a.optimizer, number_text(g.learning_rates[i]),
                              number_text(g.clips[j]), number_text(g.final_train_loss[cell]),
                              number_text(g.final_accuracy[cell]),
                              std::to_string(g.times_best[cell])});
      }
    }
  }
  return table;
}

csv::CsvTable curve_table(const std::vector<training::CurvePoint>& curve) {
  csv::CsvTable table;
  table.header = {"iteration",       "train_loss", "val_loss", "val_accuracy",
                  "epsilon_per_run", "step_size",  "clip",     "val_mse"};
  for (const auto& p : curve) {
    table.rows.push_back({std::to_string(p.iteration), number_text(p.train_loss),
                          number_text(p.val_loss), number_text(p.val_accuracy),
                          number_text(p.epsilon), number_text(p.step_size), number_text(p.clip),
                          number_text(p.val_mse)});
  }
  return table;
}

csv::CsvTable winners_table(const tuning::SearchResults& results,
                            const tuning::PrivateRelease& release) {
  csv::CsvTable table;
  table.header = {"replicate", "candidate", "label", "iteration", "val_accuracy"};
  const bool accuracy_public =
      results.config.release.validation == experiment::ValidationAssumption::kPublic;
  for (std::size_t r = 0; r < release.replicates.size(); ++r) {
    const auto& rep = release.replicates[r];
    if (rep.winner_job < 0) continue;
    const auto& job = results.jobs.at(static_cast<std::size_t>(rep.winner_job));
    const std::string candidate = std::to_string(rep.winner_candidate);
    const std::string label =
        results.candidates.at(static_cast<std::size_t>(rep.winner_candidate)).label();
    if (!accuracy_public) {
      // The score was released with noise; the curve would be an unprotected statistic.
      table.rows.push_back({std::to_string(r), candidate, label, std::to_string(job.queries),
                            number_text(rep.released_score)});
      continue;
    }
    for (const auto& point : job.curve) {
      table.rows.push_back({std::to_string(r), candidate, label, std::to_string(point.iteration),
                            number_text(point.val_accuracy)});
    }
  }
  return table;
}

}  // namespace dplab::release
