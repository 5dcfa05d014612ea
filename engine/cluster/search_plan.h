// A search written down as files, so that its jobs can run anywhere (a Slurm job array, several
// machines, one machine in pieces) and be merged into the result a local `tune` gives (issue #28).
//
// Why this is exact: every job of a search is independent and fully determined by (experiment,
// candidate, repeat, seed) — runner.h — and a private release's stopping time K and candidate
// draws never look at the data (private_search.h: Liu & Talwar's Alg. 1 and Papernot & Steinke
// draw them up front). The plan holds the resolved job list (candidate, repeat, seed) and, for a
// private release, the draws made by the SAME draw_private_plan(config, #candidates, config.seed)
// a local run makes; the merged jobs then go through the same selection and release code. So
// which machine ran which job changes nothing that is released, and the epsilon is the local one.
//
// Files of a plan folder DIR (the folder is the curator's: plan.json holds K and the draws):
//   DIR/plan.json                 this plan (format kPlanFormat; plan_id = sha256 of its content)
//   DIR/stores/shard-I.sqlite     shard I's jobs: one store, one writer (engine/store)
// Shards: job j (its index in plan.json's "jobs") belongs to shard j mod N. A shard store names
// its plan, shard and shard count in its "cluster_shard" summary, so a store of another plan or
// a second store of the same shard is refused at merge.
//
// Errors: IoError / ParseError naming the file and the field or job.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "data/dataset.h"
#include "experiment/experiment_config.h"
#include "tuning/private_search.h"
#include "tuning/results.h"
#include "tuning/runner.h"

namespace dplab::cluster {

inline constexpr int kPlanFormat = 1;
inline constexpr const char* kPlanFile = "plan.json";
inline constexpr const char* kStoresFolder = "stores";
inline constexpr const char* kShardSummaryKind = "cluster_shard";
inline constexpr int kMaxShards = 10000;

struct SearchPlan {
  // The search as a local run starts it (Runner::plan()): config (release flags applied),
  // candidates, mechanism, n, n_val, scoring, and every job pending with its seed.
  tuning::SearchResults search;
  std::optional<tuning::PrivatePlan> private_plan;  // --release private: the draws (K)
  std::string config_path;  // as given to `tune --plan` (summary.json's "config")
  // The output options of the local run that the merge must reproduce (tune's --accountant,
  // --pld-precision texts; empty = the default).
  std::string accountant;
  std::string pld_precision;
  // sha256 of the training and validation sets as loaded and split (data_fingerprint): a
  // machine whose data file differs, even with the same sizes, is refused by run-jobs.
  std::string data_sha256;
  // What loading the data changed (Dataset::notes), for the merged run's summary.json as tune's.
  std::vector<std::string> data_notes;
  std::string plan_id;  // sha256 of the plan's content (set by plan_json / read_plan)
};

// The SHA-256 of the split's training and validation features (or pixels) and targets.
std::string data_fingerprint(const data::TrainValidationSplit& data);

// Builds a plan from a Runner's starting point. Throws InvalidArgument for a search the plan
// cannot reproduce elsewhere: secure noise (its seeds must never be written) or objective-
// perturbation candidates (run after the DP-SGD jobs by tune itself).
SearchPlan make_plan(const tuning::SearchResults& search,
                     std::optional<tuning::PrivatePlan> private_plan, std::string config_path,
                     std::string accountant, std::string pld_precision, std::string data_sha256);

// plan.json's text (sets plan.plan_id) and the plan read back from a folder. read_plan checks the
// format, that the jobs are the config's (explore: every (candidate, repeat) with its derived
// seed; private: the draws draw_private_plan makes again from the config), and the plan id.
std::string plan_json_text(SearchPlan& plan);
void write_plan(const std::string& dir, SearchPlan& plan);
SearchPlan read_plan(const std::string& dir);

// The jobs of shard `shard` of `shards` (job j goes to shard j mod shards), as planned jobs for
// RunOptions::plan. Throws InvalidArgument for shard outside [0, shards) or shards < 1.
std::vector<tuning::PlannedJob> shard_jobs(const SearchPlan& plan, int shard, int shards);
std::string shard_store_path(const std::string& dir, int shard);
// The "cluster_shard" summary a shard store carries.
nlohmann::json shard_identity(const SearchPlan& plan, int shard, int shards);

// Throws IoError if the store's run is not this plan's search (config, mechanism, n) or its
// identity names another plan, shard or shard count. `what` names the store in the message.
void check_shard_store(const SearchPlan& plan, const tuning::SearchResults& stored,
                       const std::optional<std::string>& identity, int shard, int shards,
                       const std::string& what);

// What a shard store holds, mapped onto this shard's job list (`jobs`, RunOptions::plan order):
// a SearchResults for Runner::resume_from with the stored final results in place.
tuning::SearchResults shard_resume_state(const tuning::SearchResults& shard_start,
                                         const tuning::SearchResults& stored);

// One shard store as the merge and the GUI's watch read it (read-only).
struct ShardStore {
  std::string path;
  int shard = -1;   // from its "cluster_shard" identity
  int shards = -1;  // the split it belongs to
  // The run's status in the store (running, finished, cancelled, interrupted, incomplete).
  std::string status;
  tuning::SearchResults stored;  // its jobs; never recorded = kPending
  // allow_starting only: no run yet, or a run not tagged yet that holds no job (run-jobs has just
  // created the file); shard, shards and stored are then unset.
  bool starting = false;
};

// Opens `path` read-only and checks that it is one shard store of `plan` (check_shard_store).
// Throws IoError naming the file (unreadable, not a store, a store of another plan, of several
// runs). With allow_starting, a store that run-jobs is creating right now is not an error.
ShardStore read_shard_store(const SearchPlan& plan, const std::string& path,
                            bool allow_starting = false, bool with_curves = true);

// Puts the jobs of `store` that have a final result (finished, diverged, failed) at their index
// in the plan's job list: into.jobs[i] = the job, source[i] = store.path (into = plan.search,
// source sized like its jobs). Throws IoError naming the file and the job for a job not in the
// plan, a seed not the plan's, a job of another shard, or a job `source` already has from
// another file. Returns the jobs placed and adds their wall times to *job_seconds (if given).
std::size_t place_shard_jobs(const SearchPlan& plan, const ShardStore& store,
                             tuning::SearchResults& into, std::vector<std::string>& source,
                             double* job_seconds = nullptr);

struct MergeReport {
  tuning::SearchResults results;  // the whole search, every planned job from its shard
  int shards = 0;
  std::vector<std::string> stores;  // the files merged
  double job_seconds = 0;           // the jobs' wall times, summed
};

// Folds DIR/stores/*.sqlite into the whole search. Refuses (IoError naming the job or the file):
// a store of another plan, two stores of one shard, different shard counts, a job stored twice,
// a job whose candidate or seed is not the plan's, a job in the wrong shard, and any planned job
// without a final result (with the run-jobs command that runs it).
MergeReport merge_shards(const SearchPlan& plan, const std::string& dir);

// What each shard's store holds now (read-only; a shard being written is read as it stands).
struct ShardProgress {
  int shard = 0;
  std::int64_t jobs = 0;      // planned for this shard
  std::int64_t finished = 0;  // with a final result: finished or diverged
  std::int64_t failed = 0;
  bool store_exists = false;
  std::int64_t missing() const { return jobs - finished - failed; }
};
std::vector<ShardProgress> shard_progress(const SearchPlan& plan, const std::string& dir,
                                          int shards);

}  // namespace dplab::cluster
