// The explore side of `dplab-cli tune` after its jobs ended: selection, the release epsilon,
// summary.json, the CSVs, the run history's summary, the printed report and the exit status.
// One function for a local run and for `history merge` of a plan's shard stores (issue #28), so
// both write the same bytes for the same jobs. (The private side: finish_private_tune,
// tune_release.h.)
#pragma once

#include <chrono>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "release/search_release.h"
#include "tuning/objpert_search.h"
#include "tuning/results.h"

namespace dplab::store {
class Store;
class StoreWriter;
}  // namespace dplab::store

namespace dplab::cli {

struct ExploreFinish {
  const tuning::SearchResults& results;
  const tuning::ObjpertSearch& objpert;  // empty when the experiment has no objpert entries
  std::string out_dir;
  std::string config_path;  // summary.json's "config"
  AccountantFlags accountants;
  std::optional<std::int64_t> resume_id;  // summary.json's "resumed_run"
  bool cancelled = false;
  double wall_seconds = 0;
  std::int64_t threads = 0;  // the --threads flag (0 = all cores)
  store::Store* db = nullptr;
  store::StoreWriter* writer = nullptr;  // the run in db (its experiment id), or null
  release::SaveModels save_models = release::SaveModels::kNone;  // --save-models
  // What loading the data changed (Dataset::notes: rows dropped, values imputed, the encoding);
  // summary.json's data.notes.
  std::vector<std::string> data_notes;
  // For the CPU-time shares (tuning/search_efficiency.h): when the jobs started and on how many
  // threads; the shares run to the moment summary.json is written (outputs included).
  std::chrono::steady_clock::time_point started;
  int threads_used = 0;
};

// Returns tune's exit status (0; 1 a job failed, nothing finished, or the store failed; 130/143
// cancelled).
int finish_explore_tune(const ExploreFinish& finish);

// The whole `tune` command on parsed flags (`slurm` plans with it: --config, --plan and the
// release flags).
int run_tune_command(const Arguments& args);

}  // namespace dplab::cli
