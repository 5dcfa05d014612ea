#include "release/release_figure.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "core/error.h"
#include "core/number_text.h"
#include "data/text_number.h"

namespace dplab::release {
namespace {

const csv::CsvTable* find_table(const ReleaseFolder& folder, const std::string& file) {
  for (const auto& t : folder.tables)
    if (t.file == file) return &t.table;
  return nullptr;
}

std::size_t column(const csv::CsvTable& table, const std::string& file, const std::string& name) {
  const auto it = std::find(table.header.begin(), table.header.end(), name);
  if (it == table.header.end()) throw InvalidArgument(file + ": no column '" + name + "' to plot");
  return static_cast<std::size_t>(it - table.header.begin());
}

// A released number; an empty field (NaN) is skipped by the caller.
double cell_number(const std::vector<std::string>& row, std::size_t col) {
  if (col >= row.size() || row[col].empty()) return std::nan("");
  return data::parse_number(row[col]).value_or(std::nan(""));
}

void add_point(figures::Series& s, double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) return;
  s.x.push_back(x);
  s.y.push_back(y);
}

// Series grouped by a column's value, in the order the values first appear: the index in
// plot.series of `key`'s first series; a new key appends make(g) (g = the group's number).
template <class Make>
std::size_t group_series(std::map<std::string, std::size_t>& groups, const std::string& key,
                         figures::Plot& plot, Make make) {
  const auto [entry, inserted] = groups.try_emplace(key, plot.series.size());
  if (inserted) {
    for (auto& series : make(groups.size() - 1)) plot.series.push_back(std::move(series));
  }
  return entry->second;
}

// winners.csv: one curve per released winner (one point each when validation is private).
void plot_winners(const csv::CsvTable& t, figures::Plot& plot) {
  const std::size_t rep = column(t, "winners.csv", "replicate");
  const std::size_t label = column(t, "winners.csv", "label");
  const std::size_t it = column(t, "winners.csv", "iteration");
  const std::size_t acc = column(t, "winners.csv", "val_accuracy");
  std::map<std::string, std::size_t> replicates;
  for (const auto& row : t.rows) {
    figures::Series& s = plot.series[group_series(replicates, row.at(rep), plot, [](std::size_t g) {
      figures::Series winner;
      winner.color = figures::palette(g);
      winner.marker = 2;
      return std::vector<figures::Series>{winner};
    })];
    s.label = row.at(label);
    add_point(s, cell_number(row, it), cell_number(row, acc));
  }
  if (replicates.size() > 1) {
    for (const auto& [r, index] : replicates)
      plot.series[index].label = "replicate " + r + ": " + plot.series[index].label;
  }
  plot.title = "Released winner";
  plot.y_label = "validation accuracy";
}

// aggregate_curves.csv: best (solid) and median (dashed) per optimizer.
void plot_aggregates(const csv::CsvTable& t, figures::Plot& plot) {
  const std::string file = "aggregate_curves.csv";
  const std::size_t opt = column(t, file, "optimizer");
  const std::size_t it = column(t, file, "iteration");
  const std::size_t best = column(t, file, "best");
  const std::size_t median = column(t, file, "median");
  const std::size_t metric = column(t, file, "metric");
  std::map<std::string, std::size_t> optimizers;
  std::string metric_name;
  for (const auto& row : t.rows) {
    const std::string& name = row.at(opt);
    const std::size_t g = group_series(optimizers, name, plot, [&](std::size_t n) {
      figures::Series solid, dashed;
      solid.label = name + " best";
      dashed.label = name + " median";
      solid.color = dashed.color = figures::palette(n);
      dashed.dash = 4;
      return std::vector<figures::Series>{solid, dashed};
    });
    metric_name = row.at(metric);
    add_point(plot.series[g], cell_number(row, it), cell_number(row, best));
    add_point(plot.series[g + 1], cell_number(row, it), cell_number(row, median));
  }
  const std::string metric_label = metric_name == "val_mse"      ? "validation MSE"
                                   : metric_name == "train_loss" ? "training loss"
                                   : metric_name.empty() || metric_name == "val_accuracy"
                                       ? "validation accuracy"
                                       : metric_name;
  plot.title = "Best and median of every run";
  plot.y_label = metric_label;
}

// curve.csv of one training run: validation accuracy, or the validation MSE without classes.
void plot_curve(const csv::CsvTable& t, figures::Plot& plot) {
  const std::size_t it = column(t, "curve.csv", "iteration");
  const std::size_t acc = column(t, "curve.csv", "val_accuracy");
  figures::Series accuracy, mse;
  const auto mse_col = std::find(t.header.begin(), t.header.end(), "val_mse");
  for (const auto& row : t.rows) {
    add_point(accuracy, cell_number(row, it), cell_number(row, acc));
    if (mse_col != t.header.end()) {
      add_point(mse, cell_number(row, it),
                cell_number(row, static_cast<std::size_t>(mse_col - t.header.begin())));
    }
  }
  const bool classifier = !accuracy.x.empty();
  figures::Series s = classifier ? accuracy : mse;
  s.label = "";
  s.marker = 2;
  plot.series.push_back(std::move(s));
  plot.title = "Training run";
  plot.y_label = classifier ? "validation accuracy" : "validation MSE";
}

}  // namespace

figures::Plot release_plot(const ReleaseFolder& folder) {
  figures::Plot plot;
  plot.x_label = "iteration (noisy-gradient queries)";
  const std::string mode = folder.manifest.value("mode", std::string("?"));
  if (const auto* t = find_table(folder, "winners.csv")) {
    plot_winners(*t, plot);
  } else if (const auto* a = find_table(folder, "aggregate_curves.csv")) {
    plot_aggregates(*a, plot);
  } else if (const auto* c = find_table(folder, "curve.csv")) {
    plot_curve(*c, plot);
  } else {
    throw InvalidArgument("this release (" + mode +
                          ") holds no curve to plot (winners.csv, aggregate_curves.csv or "
                          "curve.csv)" +
                          (folder.manifest.value("cancelled", false)
                               ? ": a cancelled private search releases nothing"
                               : ""));
  }
  const bool any = std::any_of(plot.series.begin(), plot.series.end(),
                               [](const figures::Series& s) { return !s.x.empty(); });
  if (!any) throw InvalidArgument("this release (" + mode + ") has no point to plot");
  const auto& privacy = folder.manifest.value("privacy", nlohmann::json::object());
  const std::string experiment = folder.manifest.value("experiment", std::string());
  plot.title = (experiment.empty() ? "" : experiment + ": ") + plot.title;
  // The headline of the label ("eps <= 2.31") with delta and the mode on one line; the whole
  // label (what is and is not covered) is every released CSV's epsilon_label.
  if (privacy.is_object() && privacy.contains("epsilon_label") &&
      privacy["epsilon_label"].is_string()) {
    const std::string label = privacy["epsilon_label"].get<std::string>();
    plot.subtitle = label.substr(0, label.find(" ("));
    if (privacy.contains("delta") && privacy["delta"].is_number())
      plot.subtitle += ", delta = " + number_text(privacy["delta"].get<double>());
    plot.subtitle += " (" + mode + ")";
  }
  return plot;
}

}  // namespace dplab::release
