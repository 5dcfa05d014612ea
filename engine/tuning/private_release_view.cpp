#include "tuning/private_release_view.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"

namespace dplab::tuning {
namespace {

nlohmann::json number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

constexpr std::int64_t kIntMin = std::numeric_limits<int>::min();
constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

// A required number; null (how nlohmann writes NaN: no CI, no score) reads back as NaN.
double number_or_nan(JsonReader& r, const std::string& key) {
  const nlohmann::json& v = r.require(key);
  return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : r.number(v, key);
}

std::int64_t integer(JsonReader& r, const std::string& key, std::int64_t min = INT64_MIN,
                     std::int64_t max = INT64_MAX) {
  r.require(key);
  return *r.optional_integer(key, min, max);
}

bool boolean(JsonReader& r, const std::string& key) {
  r.require(key);
  return *r.optional_bool(key);
}

}  // namespace

std::vector<std::int64_t> released_jobs(const PrivateRelease& release) {
  std::vector<std::int64_t> out;
  for (const auto& rep : release.replicates) {
    if (rep.winner_job >= 0) out.push_back(rep.winner_job);
  }
  return out;
}

std::vector<std::int64_t> trained_jobs(const SearchResults& runs) {
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < runs.jobs.size(); ++i) {
    if (runs.jobs[i].status != JobStatus::kPending) out.push_back(static_cast<std::int64_t>(i));
  }
  return out;
}

SearchResults grid_shaped_runs(const SearchResults& runs, const std::vector<std::int64_t>& jobs) {
  SearchResults out;
  out.config = runs.config;
  out.candidates = runs.candidates;
  out.mechanism = runs.mechanism;
  out.training_size = runs.training_size;
  out.validation_size = runs.validation_size;
  out.is_regression = runs.is_regression;
  // The chosen runs of each candidate, in draw order.
  std::map<int, std::vector<const JobResult*>> per_candidate;
  for (const std::int64_t index : jobs) {
    if (index < 0 || index >= static_cast<std::int64_t>(runs.jobs.size())) {
      throw InvalidArgument("grid_shaped_runs: run " + std::to_string(index) + " out of range");
    }
    const JobResult& job = runs.jobs[static_cast<std::size_t>(index)];
    per_candidate[job.candidate].push_back(&job);
  }
  // At least R rows: the released winners (at most one per replicate) always fit, so
  // config.repeats stays the release's R and its epsilon still composes all R replicate searches
  // (release_cost.h). Only the teaching view of every run may need more rows; its epsilon label
  // then composes more replicates than ran (an overstatement, on a view that is not private).
  std::size_t repeats = static_cast<std::size_t>(std::max(1, runs.config.repeats));
  for (const auto& [candidate, list] : per_candidate) repeats = std::max(repeats, list.size());
  out.config.repeats = static_cast<int>(repeats);
  out.jobs.resize(out.candidates.size() * repeats);
  for (std::size_t i = 0; i < out.jobs.size(); ++i) {
    out.jobs[i].candidate = static_cast<int>(i / repeats);
    out.jobs[i].repeat = static_cast<int>(i % repeats);
  }
  for (const auto& [candidate, list] : per_candidate) {
    for (std::size_t r = 0; r < list.size(); ++r) {
      JobResult& slot = out.jobs.at(static_cast<std::size_t>(candidate) * repeats + r);
      slot = *list[r];
      slot.repeat = static_cast<int>(r);
    }
  }
  return out;
}

std::string noise_source_text(const experiment::ReleaseConfig& release) {
  return release.secure
             ? "secure: lots, noise and the selection's draws from the OS (getrandom) and "
               "ChaCha20, no seed was written; a noisy validation score is a discrete Gaussian on "
               "the integer correct-count"
             : "not secure: the seed in the config reproduces the noise (the lots, the gradient "
               "noise, the number of runs K, the candidate draws and the validation-score "
               "noise): whoever holds the config can undo it";
}

nlohmann::json private_release_json(const PrivateRelease& release) {
  nlohmann::json replicates = nlohmann::json::array();
  for (const auto& rep : release.replicates) {
    replicates.push_back({{"runs_trained", rep.runs_trained},
                          {"complete", rep.complete},
                          {"winner_candidate", rep.winner_candidate},
                          {"winner_job", rep.winner_job},
                          {"released_score", number(rep.released_score)},
                          {"hit_hard_stop", rep.hit_hard_stop}});
  }
  nlohmann::json out{{"replicates", replicates},         {"runs_trained", release.runs_trained},
                     {"released", release.released},     {"mean_score", number(release.mean_score)},
                     {"ci_low", number(release.ci_low)}, {"ci_high", number(release.ci_high)}};
  if (!release.released_facts.empty())
    out["released_facts"] = parse_json_text(release.released_facts, "released facts");
  return out;
}

// Stored summaries (the store, history export): keys of other dplab versions are tolerated, so
// no reject_unknown here; every key read is checked and named.
PrivateRelease parse_private_release(const nlohmann::json& j) {
  JsonReader r(j, "private_release");
  r.require("replicates");
  const nlohmann::json& replicates = *r.optional_array("replicates");
  PrivateRelease out;
  for (std::size_t i = 0; i < replicates.size(); ++i) {
    JsonReader item(replicates[i], r.element_path("replicates", i));
    ReplicateRelease rep;
    rep.runs_trained = integer(item, "runs_trained");
    rep.complete = boolean(item, "complete");
    rep.winner_candidate = static_cast<int>(integer(item, "winner_candidate", kIntMin, kIntMax));
    rep.winner_job = integer(item, "winner_job");
    rep.released_score = number_or_nan(item, "released_score");
    rep.hit_hard_stop = boolean(item, "hit_hard_stop");
    out.replicates.push_back(rep);
  }
  out.runs_trained = integer(r, "runs_trained");
  out.released = static_cast<int>(integer(r, "released", kIntMin, kIntMax));
  out.mean_score = number_or_nan(r, "mean_score");
  out.ci_low = number_or_nan(r, "ci_low");
  out.ci_high = number_or_nan(r, "ci_high");
  if (j.contains("released_facts")) {
    const nlohmann::json& facts = j["released_facts"];
    if (!facts.is_object()) json_fail(r.key_path("released_facts"), "expected an object");
    out.released_facts = facts.dump();
  }
  return out;
}

}  // namespace dplab::tuning
