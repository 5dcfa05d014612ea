#include "cluster/cluster_watch.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <utility>

#include "cluster/slurm_script.h"
#include "core/error.h"
#include "store/run_status.h"

namespace dplab::cluster {
namespace {

namespace fs = std::filesystem;

bool has_final_result(tuning::JobStatus s) {
  return s == tuning::JobStatus::kFinished || s == tuning::JobStatus::kDiverged ||
         s == tuning::JobStatus::kFailed;
}

}  // namespace

ClusterWatcher::ClusterWatcher(std::string dir, double stale_after_seconds)
    : dir_(std::move(dir)), stale_after_seconds_(stale_after_seconds), plan_(read_plan(dir_)) {
  delivered_.assign(plan_.search.jobs.size(), false);
}

ClusterPoll ClusterWatcher::poll() {
  ClusterPoll out;
  const auto now = fs::file_time_type::clock::now();
  // 1. Which store files exist, and which changed since the last poll.
  const fs::path folder = fs::path(dir_) / kStoresFolder;
  std::set<std::string> present;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (entry.path().extension() == ".sqlite") present.insert(entry.path().string());
  }
  if (ec && fs::exists(folder))
    out.errors.push_back(folder.string() + ": cannot list: " + ec.message());
  for (auto it = files_.begin(); it != files_.end();)
    it = present.count(it->first) ? std::next(it) : files_.erase(it);
  for (const std::string& path : present) {
    Cached& c = files_[path];
    FileStamp stamp;
    std::error_code e1, e2;
    stamp.size = fs::file_size(path, e1);
    stamp.time = fs::last_write_time(path, e1);
    const std::string wal = path + "-wal";
    if (fs::exists(wal, e2)) {
      stamp.wal_size = fs::file_size(wal, e2);
      stamp.wal_time = fs::last_write_time(wal, e2);
    }
    // A running store that has gone quiet is read again although unchanged: whether its writer
    // is alive (a killed task's run reads as interrupted, store_queries.cpp) is not in the file.
    const auto last_write = std::max(stamp.time, stamp.wal_time);
    const bool quiet =
        std::chrono::duration<double>(now - last_write).count() > stale_after_seconds_;
    const bool recheck_writer =
        c.store && !c.store->starting &&
        store::parse_run_status(c.store->status) == store::RunStatus::kRunning && quiet;
    if (c.read && stamp == c.stamp && c.error.empty() && !(c.store && c.store->starting) &&
        !recheck_writer)
      continue;
    const bool same_file = c.read && stamp == c.stamp;
    c.stamp = stamp;
    c.read = true;
    try {
      c.store = read_shard_store(plan_, path, /*allow_starting=*/true);
      c.error.clear();
      c.failures = 0;
    } catch (const std::exception& e) {
      // A file being created can be read half made: an error counts once it stays (the file
      // unchanged since the previous failure, or failing twice in a row).
      // Until then the last good read stands.
      c.failures = same_file || c.failures > 0 ? c.failures + 1 : 1;
      c.error = e.what();
    }
  }

  // 2. The split: slurm.json's, else the stores'.
  try {
    out.shards = read_slurm_record(dir_).shards;
  } catch (const std::exception& e) {
    out.errors.push_back(e.what());
  }
  if (out.shards == 0) {
    for (const auto& [path, c] : files_) {
      if (c.store && !c.store->starting) {
        out.shards = c.store->shards;
        break;
      }
    }
  }

  // 3. Each shard's store, and the search as it stands.
  auto results = std::make_shared<tuning::SearchResults>(plan_.search);
  std::vector<std::string> source(plan_.search.jobs.size());
  for (int i = 0; i < out.shards; ++i) {
    ShardState st;
    st.shard = i;
    st.jobs = static_cast<std::int64_t>(shard_jobs(plan_, i, out.shards).size());
    out.shard_states.push_back(st);
  }
  for (const auto& [path, c] : files_) {
    const bool reportable = !c.error.empty() && c.failures >= 2;
    int shard = -1;
    if (c.store && !c.store->starting && !reportable) {
      shard = c.store->shard;
      if (c.store->shards != out.shards) {
        out.errors.push_back(path + ": a store of shard " + std::to_string(shard) + " of " +
                             std::to_string(c.store->shards) + "; this folder's split is " +
                             std::to_string(out.shards) + " shards (a store of another split?)");
        continue;
      }
    } else {
      // Not readable (yet) or being created: shown under the shard its name says, if any.
      const std::string name = fs::path(path).stem().string();
      if (name.rfind("shard-", 0) == 0) {
        try {
          std::size_t used = 0;
          shard = std::stoi(name.substr(6), &used);
          if (used != name.size() - 6) shard = -1;
        } catch (const std::exception&) {
          shard = -1;
        }
      }
      if (shard < 0 || shard >= out.shards) {
        if (reportable) out.errors.push_back(c.error);
        continue;
      }
    }
    ShardState& st = out.shard_states[static_cast<std::size_t>(shard)];
    if (!st.path.empty() && st.path != path) {
      out.errors.push_back("duplicate store: " + st.path + " and " + path + " both hold shard " +
                           std::to_string(shard) + ": remove one");
      continue;
    }
    st.store_exists = true;
    st.path = path;
    const auto last = std::max(c.stamp.time, c.stamp.wal_time);
    st.seconds_since_write = std::chrono::duration<double>(now - last).count();
    if (reportable) {
      st.error = c.error;
      continue;
    }
    if (!c.store || c.store->starting) continue;
    st.run_status = c.store->status;
    try {
      place_shard_jobs(plan_, *c.store, *results, source);
    } catch (const std::exception& e) {
      st.error = e.what();
      continue;
    }
    for (const auto& job : c.store->stored.jobs) {
      if (job.status == tuning::JobStatus::kFailed) {
        ++st.failed;
      } else if (has_final_result(job.status)) {
        ++st.finished;
      }
    }
  }
  for (ShardState& st : out.shard_states) {
    const std::optional<store::RunStatus> status = store::parse_run_status(st.run_status);
    const bool ended = status && store::has_ended(*status);
    st.stale = st.store_exists && st.missing() > 0 &&
               (ended || st.seconds_since_write > stale_after_seconds_);
  }

  // 4. What is new since the last poll, and whether the merge can run.
  out.jobs_total = static_cast<std::int64_t>(results->jobs.size());
  for (std::size_t i = 0; i < results->jobs.size(); ++i) {
    if (source[i].empty()) continue;
    ++out.jobs_done;
    if (!delivered_[i]) {
      delivered_[i] = true;
      out.new_jobs.push_back(results->jobs[i]);
    }
  }
  bool all_ok = out.errors.empty() && out.shards > 0;
  for (const ShardState& st : out.shard_states) all_ok = all_ok && st.complete();
  out.complete = all_ok && out.jobs_done == out.jobs_total;
  if (plan_.search.jobs.empty()) out.complete = out.errors.empty();  // PS drew no run
  if (out.complete && plan_.private_plan) {
    out.release = tuning::select_private_winners(
        *results, *plan_.private_plan, tuning::score_noise_seed(plan_.search.config.seed));
  }
  out.results = std::move(results);
  return out;
}

}  // namespace dplab::cluster
