// CSV writers for searches and their aggregates. See csv_export.h.
#include "store/csv_export.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "tuning/release_cost.h"

namespace dplab::store {
namespace {

// The shortest text that reads back as the same double ("0.1", not "0.10000000000000001").
std::string num(double v) {
  if (std::isnan(v)) return "";
  char buffer[40];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  return std::string(buffer, end);
}

// Atomically (temp file + rename): a failed write never leaves a truncated CSV behind.
template <typename Writer>
std::string write_file(const std::filesystem::path& path, Writer&& writer) {
  std::ostringstream out;
  writer(out);
  write_file_atomically(path.string(), out.str());
  return path.string();
}

}  // namespace

void write_curves_csv(const tuning::SearchResults& results, std::ostream& out) {
  out << "candidate,repeat,optimizer,learning_rate,clip,momentum,beta1,beta2,adam_epsilon,seed,"
         "status,"
         "iteration,train_loss,val_loss,val_accuracy,epsilon_per_run,step_size,clip_threshold,val_"
         "mse\n";
  for (const auto& job : results.jobs) {
    const auto& c = results.candidates.at(static_cast<std::size_t>(job.candidate));
    const std::string prefix = std::to_string(job.candidate) + "," + std::to_string(job.repeat) +
                               "," + optim::to_string(c.optimizer.kind) + "," +
                               num(c.optimizer.learning_rate) + "," + num(c.clip) + "," +
                               num(c.optimizer.momentum) + "," + num(c.optimizer.beta1) + "," +
                               num(c.optimizer.beta2) + "," + num(c.optimizer.epsilon) + "," +
                               std::to_string(job.seed) + "," + tuning::to_string(job.status) + ",";
    for (const auto& p : job.curve) {
      out << prefix << p.iteration << ',' << num(p.train_loss) << ',' << num(p.val_loss) << ','
          << num(p.val_accuracy) << ',' << num(p.epsilon) << ',' << num(p.step_size) << ','
          << num(p.clip) << ',' << num(p.val_mse) << '\n';
    }
  }
}

void write_aggregate_curves_csv(const std::vector<tuning::OptimizerAggregates>& aggregates,
                                bool regression, std::ostream& out) {
  out << "optimizer,iteration,best,median,best_candidate,metric\n";
  const char* metric = tuning::curve_metric_column(regression);
  for (const auto& a : aggregates) {
    for (std::size_t i = 0; i < a.curves.iterations.size(); ++i) {
      out << a.optimizer << ',' << a.curves.iterations[i] << ',' << num(a.curves.best[i]) << ','
          << num(a.curves.median[i]) << ',' << a.curves.best_candidate[i] << ',' << metric << '\n';
    }
  }
}

CsvTable alpha_clip_grid_table(const std::vector<tuning::OptimizerAggregates>& aggregates) {
  CsvTable table;
  table.header = {"optimizer",        "learning_rate",  "clip",
                  "final_train_loss", "final_accuracy", "times_best"};
  for (const auto& a : aggregates) {
    const auto& g = a.grid;
    for (std::size_t i = 0; i < g.learning_rates.size(); ++i) {
      for (std::size_t j = 0; j < g.clips.size(); ++j) {
        const std::size_t cell = g.cell(i, j);
        table.rows.push_back({a.optimizer, num(g.learning_rates[i]), num(g.clips[j]),
                              num(g.final_train_loss[cell]), num(g.final_accuracy[cell]),
                              std::to_string(g.times_best[cell])});
      }
    }
  }
  return table;
}

void write_alpha_clip_grid_csv(const std::vector<tuning::OptimizerAggregates>& aggregates,
                               std::ostream& out) {
  out << csv_text(alpha_clip_grid_table(aggregates));
}

std::vector<std::string> export_csv(const tuning::SearchResults& results,
                                    const std::string& directory) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) throw IoError(directory + ": cannot create the output folder: " + ec.message());
  const std::filesystem::path dir(directory);
  const auto aggregates = tuning::aggregate_all(results);
  // Every file's numbers depend on the search: each starts with its epsilon label.
  std::string comment;
  try {
    comment = tuning::epsilon_csv_comment(tuning::release_cost(results)) + "\n";
  } catch (const Error& e) {
    comment = std::string("# dplab: eps not available: ") + e.what() + "\n";
  }
  std::vector<std::string> written;
  written.push_back(write_file(dir / "curves.csv", [&](std::ostream& o) {
    o << comment;
    write_curves_csv(results, o);
  }));
  written.push_back(write_file(dir / "aggregate_curves.csv", [&](std::ostream& o) {
    o << comment;
    write_aggregate_curves_csv(aggregates, results.is_regression, o);
  }));
  written.push_back(write_file(dir / "alpha_clip_grid.csv", [&](std::ostream& o) {
    o << comment;
    write_alpha_clip_grid_csv(aggregates, o);
  }));
  return written;
}

}  // namespace dplab::store
