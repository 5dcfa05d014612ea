// The release-mode side of `dplab-cli tune` (engine/experiment/release_config.h): the flags that
// choose it, and the outputs of a PRIVATE search (only each replicate's winner is written).
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/release_flags.h"
#include "experiment/experiment_config.h"
#include "tuning/private_search.h"
#include "tuning/release_cost.h"
#include "tuning/results.h"
#include "tuning/runner.h"

namespace dplab::store {
class Store;
}

namespace dplab::cli {

// summary.json's "release" object: mode, epsilon (exact and rounded up), delta, validation,
// what it covers, the command that recomputes it.
nlohmann::json release_cost_json(const tuning::ReleaseCost& cost,
                                 const tuning::SearchResults& results);

// `dplab-cli account ...` that reproduces cost.epsilon, or "" if no single command does.
std::string recompute_command(const tuning::ReleaseCost& cost,
                              const tuning::SearchResults& results);

// Writes summary.json, winners.csv (released) and curator-only.json (not for release) into
// out_dir, prints the released winners and the epsilon (total over the R replicate searches,
// one replicate beside it); returns the exit status (130 when cancelled: nothing is released).
// extra_curator (may be null): more curator-only entries (private-subsampled: its tuning phase).
// extra_released (may be null): more released entries, in release.json's "released" and in
// summary.json (private-linear-scaling: its fit, covered by the epsilon).
int finish_private_tune(const tuning::SearchResults& results, const tuning::PrivatePlan& plan,
                        const std::string& out_dir, const std::string& config_path,
                        double wall_seconds, bool cancelled, store::Store* db,
                        std::int64_t experiment_id, const nlohmann::json* extra_curator = nullptr,
                        const nlohmann::json* extra_released = nullptr);

// Release mode private-subsampled (tuning/subsampled_search.h): the tuning search on a Poisson
// subsample, then the final run; writes what finish_private_tune writes (released: the final
// run's results only; curator-only: K, |X1| and the tuning winner). Returns the exit status.
// `show_curator` (tune --show-curator): also prints |X1| and K on stderr.
int run_subsampled_tune(const experiment::ExperimentConfig& config,
                        std::shared_ptr<const data::TrainValidationSplit> data,
                        const tuning::RunOptions& options, const std::string& out_dir,
                        const std::string& config_path, store::Store* db, double db_retry,
                        bool show_curator);

// Release mode private-linear-scaling (tuning/linear_scaling_search.h): two trial rounds over the
// grid, then the final run at the extrapolated learning rate; writes what finish_private_tune
// writes plus the fit (released); the trial rounds' winners and scores go to curator-only.json.
int run_linear_scaling_tune(const experiment::ExperimentConfig& config,
                            std::shared_ptr<const data::TrainValidationSplit> data,
                            const tuning::RunOptions& options, const std::string& out_dir,
                            const std::string& config_path, store::Store* db, double db_retry);

}  // namespace dplab::cli
