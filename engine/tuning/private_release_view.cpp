#include "tuning/private_release_view.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_guard.h"

namespace dplab::tuning {
namespace {

nlohmann::json number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

double number_at(const nlohmann::json& j, const char* key, const std::string& path) {
  if (!j.contains(key)) throw ParseError(path + "." + key + ": missing");
  const auto& v = j.at(key);
  if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!v.is_number())
    throw ParseError(path + "." + key + ": expected a number, got " + json_excerpt(v));
  return v.get<double>();
}

std::int64_t integer_at(const nlohmann::json& j, const char* key, const std::string& path) {
  if (!j.contains(key)) throw ParseError(path + "." + key + ": missing");
  const auto& v = j.at(key);
  if (!v.is_number_integer())
    throw ParseError(path + "." + key + ": expected an integer, got " + json_excerpt(v));
  return v.get<std::int64_t>();
}

bool boolean_at(const nlohmann::json& j, const char* key, const std::string& path) {
  if (!j.contains(key)) throw ParseError(path + "." + key + ": missing");
  const auto& v = j.at(key);
  if (!v.is_boolean()) throw ParseError(path + "." + key + ": expected true or false");
  return v.get<bool>();
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
  return {{"replicates", replicates},         {"runs_trained", release.runs_trained},
          {"released", release.released},     {"mean_score", number(release.mean_score)},
          {"ci_low", number(release.ci_low)}, {"ci_high", number(release.ci_high)}};
}

PrivateRelease parse_private_release(const nlohmann::json& j) {
  const std::string path = "private_release";
  if (!j.is_object()) throw ParseError(path + ": expected an object");
  if (!j.contains("replicates") || !j.at("replicates").is_array())
    throw ParseError(path + ".replicates: expected an array");
  PrivateRelease out;
  std::size_t i = 0;
  for (const auto& item : j.at("replicates")) {
    const std::string at = path + ".replicates[" + std::to_string(i++) + "]";
    if (!item.is_object()) throw ParseError(at + ": expected an object");
    ReplicateRelease rep;
    rep.runs_trained = integer_at(item, "runs_trained", at);
    rep.complete = boolean_at(item, "complete", at);
    rep.winner_candidate = static_cast<int>(integer_at(item, "winner_candidate", at));
    rep.winner_job = integer_at(item, "winner_job", at);
    rep.released_score = number_at(item, "released_score", at);
    rep.hit_hard_stop = boolean_at(item, "hit_hard_stop", at);
    out.replicates.push_back(rep);
  }
  out.runs_trained = integer_at(j, "runs_trained", path);
  out.released = static_cast<int>(integer_at(j, "released", path));
  out.mean_score = number_at(j, "mean_score", path);
  out.ci_low = number_at(j, "ci_low", path);
  out.ci_high = number_at(j, "ci_high", path);
  return out;
}

}  // namespace dplab::tuning
