// `dplab-cli leaderboard`: what accuracy each honest procedure gives at a TOTAL epsilon that
// includes its search (issue #47). For each task (data set + model), total epsilon, method and
// optimizer family, the whole procedure — search and release — runs once per seed, and the
// released model's accuracy on a held-out TEST split (never seen by the search, whose selection
// uses the validation split) is averaged over the seeds.
//
// Methods (every one honest: its printed epsilon covers everything it trained):
//   ma              private ma over the family's fixed grid (K runs, the best released);
//   lt              Liu-Talwar random stopping over the grid (gamma = 1/K, integer hard stop);
//   ps              Papernot-Steinke, K ~ Poisson(mu = K_grid);
//   subsampled      Koskela-Kulkarni: Papernot-Steinke on a Poisson-q subsample, one final run;
//   linear-scaling  Panda et al.: two trial rounds at fractions of the final run's epsilon, one
//                   final run at the extrapolated learning rate.
// Calibration (leaderboard_noise): each procedure's noise multiplier sigma is the smallest (to
// 1e-3 relative, from the safe side) whose procedure epsilon (tuning::planned_release_cost, the
// cost every door prints) is <= the target; so each cell's procedure meets its total epsilon.
// The procedure's epsilon does not depend on the seed or the optimizer family, only on the
// method, its grid size K and the task's n, L, T, delta.
//
// Compute: full-data-run equivalents, from the procedure's EXPECTED number of runs (public:
// ma K; lt E[min(Geom(1/K), Upsilon)]; ps mu; subsampled q mu + 1; linear scaling 2K + 1), never
// from a realised K.
//
// "Best" (the rule stated before any run, printed with the table): for each task and total
// epsilon, the (method, family) with the highest mean test accuracy; a cell whose 95% interval
// overlaps the best's is reported as "tied with the best".
//
// The table is the curator's evaluation (many procedures on the same data): NOT covered by any
// epsilon; a deployment releases one procedure. Pure apart from the training; thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/csv_table.h"
#include "data/dataset.h"
#include "experiment/experiment_config.h"
#include "figures/plot.h"
#include "reproduction/reproduction_items.h"

namespace dplab::reproduction {

enum class LeaderboardMethod { kMa, kLt, kPs, kSubsampled, kLinearScaling };
inline constexpr LeaderboardMethod kLeaderboardMethods[] = {
    LeaderboardMethod::kMa, LeaderboardMethod::kLt, LeaderboardMethod::kPs,
    LeaderboardMethod::kSubsampled, LeaderboardMethod::kLinearScaling};
std::string to_string(LeaderboardMethod method);  // "ma", "lt", "ps", "subsampled", ...

// An optimizer family: one optimizer entry with its grid (K candidates).
struct LeaderboardFamily {
  std::string name;  // "dpsgd", "dpadam", ...
  experiment::OptimizerConfig entry;
};

// A task: the data set, model and run shape (n is what the data gives after the test split).
struct LeaderboardTask {
  std::string label;                  // "adult-logistic"
  experiment::ExperimentConfig base;  // dataset, model, privacy (L, T, delta), eval_every
  std::int64_t max_rows = 0;          // > 0: a seeded subsample of the rows (smaller scales)
};

struct LeaderboardSpec {
  std::string scale;  // "tiny", "small", "small-cnn", "paper"
  std::vector<LeaderboardTask> tasks;
  std::vector<double> total_epsilons{1, 3, 8};
  std::vector<LeaderboardMethod> methods;
  std::vector<LeaderboardFamily> families;
  std::vector<std::uint64_t> seeds;  // >= 5: the seeds of the whole procedure
  double test_fraction = 0.2;        // held out before the search, with a fixed seed
  double tuning_fraction = 0.25;     // subsampled's q
};

// The spec of a scale: "tiny" (CI: synthetic-size subsamples, T = 20), "small" (Adult and
// Fashion-MNIST subsamples, the page's table), "small-cnn" (the CNN on small's Fashion-MNIST
// subsample and shape), "paper" (the full data sets, the CNN). Throws
// InvalidArgument naming the scale otherwise.
LeaderboardSpec leaderboard_spec(const std::string& scale);

// The experiment of one procedure: the task's base with the family's grid, the method's release
// and the given sigma and seed (no test split: that is the data's business).
experiment::ExperimentConfig leaderboard_config(const LeaderboardSpec& spec,
                                                const LeaderboardTask& task,
                                                const LeaderboardFamily& family,
                                                LeaderboardMethod method, double sigma,
                                                std::uint64_t seed);

// The smallest sigma (safe side) whose procedure epsilon on n training rows is <= target.
// Throws Error when no sigma up to 1e4 reaches it.
double leaderboard_noise(const experiment::ExperimentConfig& config, std::int64_t training_size,
                         std::int64_t validation_size, double target_epsilon);

struct LeaderboardCell {
  std::string task, method, family;
  double target_epsilon = 0.0;
  double epsilon = 0.0;  // the procedure's epsilon at the calibrated sigma (<= target)
  double delta = 0.0;
  double noise_multiplier = 0.0;
  int candidates = 0;  // K of the grid
  int seeds_run = 0, seeds_released = 0;
  double mean_accuracy = 0.0;          // test accuracy over the released seeds
  double ci_low = 0.0, ci_high = 0.0;  // mean +- 1.96 sd / sqrt(seeds) (NaN below 2 seeds)
  double compute = 0.0;                // expected full-data-run equivalents per procedure
  double wall_seconds = 0.0;           // all seeds
  bool best = false;                   // the best mean of its (task, target epsilon)
  bool tied_with_best = false;         // its 95% interval overlaps the best's
};

struct LeaderboardProgress {
  std::int64_t done = 0, total = 0;  // procedures
  std::string current;               // "adult-logistic eps 3 ma dpsgd seed 2"
};

struct LeaderboardOptions {
  int threads = 0;
  std::function<void(const LeaderboardProgress&)> on_progress;  // may be empty
  const std::atomic<bool>* cancel = nullptr;                    // checked between procedures
};

// Runs every procedure of the spec; cells in the order task, epsilon, method, family. A
// cancelled run returns the cells finished so far (the caller says so).
std::vector<LeaderboardCell> run_leaderboard(const LeaderboardSpec& spec,
                                             const LeaderboardOptions& options);

// Marks best / tied_with_best per (task, target epsilon) by the rule above.
void mark_best(std::vector<LeaderboardCell>& cells);

// leaderboard.csv: one row per cell (the columns of LeaderboardCell).
csv::CsvTable leaderboard_table(const std::vector<LeaderboardCell>& cells);

// The figure of one task: test accuracy vs total epsilon (log x), one line per method at its
// best family for each epsilon, with the 95% intervals as error bars.
figures::Plot leaderboard_plot(const std::vector<LeaderboardCell>& cells, const std::string& task,
                               const std::string& scale);

// The rule for "best", printed with the table, is the rule file resources/rules/leaderboard.md
// (rule_files.h).

}  // namespace dplab::reproduction
