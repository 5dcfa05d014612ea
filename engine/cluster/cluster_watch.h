// Watching a plan folder while its shards run elsewhere (issue #28, "the GUI attaches"): the
// shard stores are read READ-ONLY, as they stand, and turned into the search as far as it has
// gone — the same SearchResults the merge builds (read_shard_store, place_shard_jobs), with the
// jobs not stored yet pending — plus each shard's progress. Nothing here talks to the cluster:
// a plan folder on a shared file system is all it reads (plan.json, slurm.json when `slurm`
// wrote it, stores/*.sqlite). Qt-free; the GUI calls poll() on a worker thread.
//
// A store is read again only when its file or its WAL changed (size or modification time), so a
// poll of a quiet folder costs a few stat() calls — except a store whose run still says running
// and that has been quiet longer than stale_after: it is read again each poll, because whether its
// writer lives (a killed task's run reads as interrupted) is not in the file. A store that cannot
// be read is an error only when it still cannot be read at the next poll with an unchanged file:
// run-jobs creates its file, schema and run in a few milliseconds, and a reader may see it half
// made.
//
// Privacy: the folder is the curator's (plan.json holds K and the draws for a private release);
// per-shard job counts reveal K. What a poll returns is for the curator's screen only
// (docs/privacy-model.md, "GUI cluster run").
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cluster/search_plan.h"
#include "tuning/private_search.h"
#include "tuning/results.h"

namespace dplab::cluster {

struct ShardState {
  int shard = 0;
  std::int64_t jobs = 0;      // planned for this shard
  std::int64_t finished = 0;  // with a final result: finished or diverged
  std::int64_t failed = 0;
  bool store_exists = false;        // DIR/stores/ holds this shard's store (read at least once)
  std::string path;                 // that store ("" when none yet)
  std::string run_status;           // the store's run status ("" when none yet)
  double seconds_since_write = -1;  // since the store (or its WAL) last changed; -1: no store
  // Incomplete, and either its writer ended (run status cancelled, interrupted or incomplete) or
  // nothing was written for stale_after_seconds: the task may have died (re-run the shard).
  bool stale = false;
  std::string error;  // the store is unreadable or not this plan's (message names the file)
  std::int64_t missing() const { return jobs - finished - failed; }
  bool complete() const { return error.empty() && missing() == 0; }
};

struct ClusterPoll {
  // The split: slurm.json's "shards", else the one the stores name; 0 = not known yet (a plan of
  // `tune --plan` before its first shard store appears).
  int shards = 0;
  std::vector<ShardState> shard_states;  // one per shard (empty while shards is 0)
  // Errors not of one shard: stores of another split or a second store of one shard; each names
  // its file.
  std::vector<std::string> errors;
  // The jobs that reached a final result since the previous poll (each once), in plan order.
  std::vector<tuning::JobResult> new_jobs;
  // The search as it stands: plan.search with every stored final result in place (what
  // merge_shards returns once complete).
  std::shared_ptr<const tuning::SearchResults> results;
  std::int64_t jobs_total = 0;
  std::int64_t jobs_done = 0;  // with a final result
  // Every planned job has a final result and nothing is in error: merge_shards will succeed.
  bool complete = false;
  // When complete and the plan is a private release: the winners the merge releases
  // (select_private_winners with the plan's draws and seed, as `history merge` and tune).
  std::optional<tuning::PrivateRelease> release;
};

class ClusterWatcher {
 public:
  // Reads DIR/plan.json (read_plan: throws IoError / ParseError naming the file).
  explicit ClusterWatcher(std::string dir, double stale_after_seconds = 900);

  const SearchPlan& plan() const { return plan_; }
  const std::string& dir() const { return dir_; }
  // Reads what changed since the previous call. Never throws for a store: its error goes into
  // the poll. Not thread-safe: one caller at a time (the GUI's one worker).
  ClusterPoll poll();

 private:
  struct FileStamp {
    std::uintmax_t size = 0, wal_size = 0;
    std::filesystem::file_time_type time{}, wal_time{};
    bool operator==(const FileStamp&) const = default;
  };
  struct Cached {
    FileStamp stamp;
    bool read = false;  // stamp was read into store / error
    std::optional<ShardStore> store;
    std::string error;
    int failures = 0;  // consecutive polls that could not read it
  };

  std::string dir_;
  double stale_after_seconds_;
  SearchPlan plan_;
  std::map<std::string, Cached> files_;  // DIR/stores/*.sqlite
  std::vector<bool> delivered_;          // job i was in some poll's new_jobs
};

}  // namespace dplab::cluster
