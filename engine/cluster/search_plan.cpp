#include "cluster/search_plan.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "core/json_text.h"
#include "core/random.h"
#include "core/sha256.h"
#include "data/file_reader.h"
#include "store/store.h"

namespace dplab::cluster {
namespace {

namespace fs = std::filesystem;

std::string job_name(const tuning::SearchResults& search, std::size_t index) {
  const auto& job = search.jobs[index];
  return "job " + std::to_string(index) + " (candidate " + std::to_string(job.candidate) +
         ", repeat " + std::to_string(job.repeat) + ")";
}

nlohmann::json private_plan_json(const tuning::PrivatePlan& p) {
  nlohmann::json replicates = nlohmann::json::array();
  for (const auto& rep : p.replicates) {
    replicates.push_back({{"candidates", rep.candidates},
                          {"first_job", rep.first_job},
                          {"hit_hard_stop", rep.hit_hard_stop}});
  }
  return {{"gamma", p.gamma}, {"hard_stop", p.hard_stop}, {"replicates", replicates}};
}

// The content of plan.json without its id (the id is the hash of this text).
nlohmann::json plan_content(const SearchPlan& plan) {
  const auto& s = plan.search;
  nlohmann::json jobs = nlohmann::json::array();
  for (const auto& job : s.jobs) jobs.push_back({job.candidate, job.repeat, job.seed});
  nlohmann::json j{
      {"format", kPlanFormat},
      {"curator_only",
       "NOT FOR RELEASE: for --release private this file holds the number of runs K and the "
       "candidates drawn, which the released epsilon does not cover (docs/privacy-model.md)"},
      {"config_path", plan.config_path},
      {"accountant", plan.accountant},
      {"pld_precision", plan.pld_precision},
      {"experiment", experiment::to_json(s.config)},
      {"training_size", s.training_size},
      {"validation_size", s.validation_size},
      {"is_regression", s.is_regression},
      {"data_sha256", plan.data_sha256},
      {"mechanism",
       {{"noise_multiplier", s.mechanism.noise_multiplier},
        {"sampling_rate", s.mechanism.sampling_rate},
        {"steps", s.mechanism.steps},
        {"delta", s.mechanism.delta}}},
      {"shard_rule", "job j (its index in jobs) runs in shard j mod N"},
      {"jobs", jobs}};
  if (plan.private_plan) j["private_draws"] = private_plan_json(*plan.private_plan);
  // Only when there are notes: a plan written before they were recorded keeps its plan_id.
  if (!plan.data_notes.empty()) j["data_notes"] = plan.data_notes;
  return j;
}

// Jobs a local run would run: the same Runner construction rules (runner.cpp), without data.
std::vector<tuning::PlannedJob> expected_jobs(const SearchPlan& plan) {
  std::vector<tuning::PlannedJob> jobs;
  const auto& config = plan.search.config;
  if (plan.private_plan) return plan.private_plan->jobs;
  const int repeats = config.repeats;
  const std::size_t total = plan.search.candidates.size() * static_cast<std::size_t>(repeats);
  for (std::size_t i = 0; i < total; ++i) {
    tuning::PlannedJob job;
    job.candidate = static_cast<int>(i) / repeats;
    job.repeat = static_cast<int>(i) % repeats;
    job.seed = derive_seed(config.seed, static_cast<std::uint64_t>(job.candidate),
                           static_cast<std::uint64_t>(job.repeat));
    jobs.push_back(job);
  }
  return jobs;
}

bool final_result(tuning::JobStatus s) {
  return s == tuning::JobStatus::kFinished || s == tuning::JobStatus::kFailed ||
         s == tuning::JobStatus::kDiverged;
}

std::string_view bytes_of(const void* data, std::size_t size) {
  return {static_cast<const char*>(data), size};
}

std::string dataset_digest(const data::Dataset& d) {
  const std::string features = d.stores_pixels()
                                   ? sha256_hex(bytes_of(d.pixels.data(), d.feature_bytes()))
                                   : sha256_hex(bytes_of(d.features.data(), d.feature_bytes()));
  const std::string targets = sha256_hex(
      bytes_of(d.targets.data(), static_cast<std::size_t>(d.targets.size()) * sizeof(float)));
  return std::to_string(d.size()) + "x" + std::to_string(d.dim()) + ":" + features + ":" + targets;
}

}  // namespace

std::string data_fingerprint(const data::TrainValidationSplit& data) {
  return sha256_hex("train " + dataset_digest(data.train) + " validation " +
                    dataset_digest(data.validation));
}

SearchPlan make_plan(const tuning::SearchResults& search,
                     std::optional<tuning::PrivatePlan> private_plan, std::string config_path,
                     std::string accountant, std::string pld_precision, std::string data_sha256) {
  if (search.config.release.secure) {
    throw InvalidArgument(
        "--plan: a secure release draws its noise from the OS and writes no seed; a plan "
        "must write every job's seed (drop --secure, or run it with tune on one machine)");
  }
  if (!search.config.objective_perturbation.empty()) {
    throw InvalidArgument(
        "--plan: objective-perturbation entries run inside tune after the DP-SGD jobs; a plan "
        "holds DP-SGD jobs only (remove the objpert entries or run tune)");
  }
  SearchPlan plan;
  plan.search = search;
  for (auto& job : plan.search.jobs) {
    tuning::JobResult pending;
    pending.candidate = job.candidate;
    pending.repeat = job.repeat;
    pending.seed = job.seed;
    job = pending;
  }
  plan.private_plan = std::move(private_plan);
  plan.config_path = std::move(config_path);
  plan.accountant = std::move(accountant);
  plan.pld_precision = std::move(pld_precision);
  plan.data_sha256 = std::move(data_sha256);
  return plan;
}

std::string plan_json_text(SearchPlan& plan) {
  nlohmann::json j = plan_content(plan);
  // json_text, not dump(): a config path (or a data note) holding bytes that are not UTF-8 (a
  // Latin-1 folder name) made dump() throw nlohmann's type_error 316, so `tune --plan` and
  // `slurm` ended in "internal error". Valid UTF-8 is written as dump() wrote it (same plan ids).
  plan.plan_id = sha256_hex(json_text(j));
  j["plan_id"] = plan.plan_id;
  return json_text(j, 1) + "\n";
}

void write_plan(const std::string& dir, SearchPlan& plan) {
  fs::create_directories(fs::path(dir) / kStoresFolder);
  write_file_atomically((fs::path(dir) / kPlanFile).string(), plan_json_text(plan));
}

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

// plan.json's fields (plan_content) into `plan`; throws ParseError "<key path>: <what>". The
// checks against the experiment (jobs, draws, plan_id) are read_plan's.
void read_plan_fields(const nlohmann::json& j, SearchPlan& plan, std::string& plan_id) {
  JsonReader r(j, "");
  const auto required_integer = [](JsonReader& in, const std::string& key) {
    in.require(key);
    return *in.optional_integer(key);
  };
  const std::int64_t format = required_integer(r, "format");
  if (format != kPlanFormat) {
    json_fail("format",
              std::to_string(format) + ", this dplab reads " + std::to_string(kPlanFormat));
  }
  r.find("curator_only");  // text for whoever opens the file
  r.find("shard_rule");
  auto& s = plan.search;
  try {
    s.config = experiment::parse_experiment(r.require("experiment"));
  } catch (const Error& e) {
    json_fail("experiment", e.what());
  }
  s.candidates = experiment::expand_candidates(s.config);
  plan.config_path = r.required_string("config_path");
  plan.accountant = r.required_string("accountant");
  plan.pld_precision = r.required_string("pld_precision");
  s.training_size = required_integer(r, "training_size");
  s.validation_size = required_integer(r, "validation_size");
  r.require("is_regression");
  s.is_regression = *r.optional_bool("is_regression");
  plan.data_sha256 = r.required_string("data_sha256");
  // Plans written before the notes were recorded have none.
  plan.data_notes = r.optional_strings("data_notes").value_or(std::vector<std::string>{});
  JsonReader m(r.require("mechanism"), "mechanism");
  s.mechanism = {m.required_number("noise_multiplier"), m.required_number("sampling_rate"),
                 required_integer(m, "steps"), m.required_number("delta")};
  m.reject_unknown();
  r.require("jobs");
  const nlohmann::json& jobs = *r.optional_array("jobs");
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const auto& item = jobs[i];
    const auto in_int = [](const nlohmann::json& v) {
      return v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
             v.get<std::int64_t>() <= kIntMax;
    };
    if (!item.is_array() || item.size() != 3 || !in_int(item[0]) || !in_int(item[1]) ||
        !item[2].is_number_unsigned()) {
      json_fail(r.element_path("jobs", i),
                "expected [candidate, repeat, seed], got " + json_excerpt(item));
    }
    tuning::JobResult job;
    job.candidate = item[0].get<int>();
    job.repeat = item[1].get<int>();
    job.seed = item[2].get<std::uint64_t>();
    s.jobs.push_back(job);
  }
  r.find("private_draws");  // checked against the experiment's draws by read_plan
  plan_id = r.required_string("plan_id");
  r.reject_unknown();
}

}  // namespace

SearchPlan read_plan(const std::string& dir) {
  const std::string origin = (fs::path(dir) / kPlanFile).string();
  std::error_code ec;
  if (!fs::exists(origin, ec))
    throw IoError(origin + ": cannot read (is '" + dir + "' a plan folder of tune --plan?)");
  // The one reader: a FIFO or /dev/zero as plan.json used to block or grow for ever.
  const nlohmann::json j = data::read_json_file(origin);
  SearchPlan plan;
  std::string id;
  try {
    read_plan_fields(j, plan, id);
  } catch (const ParseError& e) {
    throw ParseError(origin + ": " + e.what());
  }
  auto& s = plan.search;
  if (s.config.release.mode == experiment::ReleaseMode::kPrivate) {
    if (!j.contains("private_draws"))
      throw ParseError(origin + ": a private release's plan needs \"private_draws\"");
    // The draws are a pure function of the config: draw them again and require the same K
    // and candidates, so an edited plan cannot release a winner of other draws.
    plan.private_plan =
        tuning::draw_private_plan(s.config, static_cast<int>(s.candidates.size()), s.config.seed);
    if (plan_content(plan).at("private_draws") != j.at("private_draws")) {
      throw ParseError(origin +
                       ": \"private_draws\" are not the draws of this experiment and seed (was "
                       "the plan edited?)");
    }
  }
  const auto expected = expected_jobs(plan);
  if (expected.size() != s.jobs.size()) {
    throw ParseError(origin + ": " + std::to_string(s.jobs.size()) + " jobs, the experiment has " +
                     std::to_string(expected.size()));
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (expected[i].candidate != s.jobs[i].candidate || expected[i].repeat != s.jobs[i].repeat ||
        expected[i].seed != s.jobs[i].seed) {
      throw ParseError(origin + ": " + job_name(s, i) +
                       " is not the experiment's (candidate, repeat, seed)");
    }
  }
  plan_json_text(plan);
  if (id != plan.plan_id)
    throw ParseError(origin + ": plan_id does not match the content (was the plan edited?)");
  return plan;
}

std::vector<tuning::PlannedJob> shard_jobs(const SearchPlan& plan, int shard, int shards) {
  if (shards < 1 || shards > kMaxShards) {
    throw InvalidArgument("--shards = " + std::to_string(shards) + " must be in [1, " +
                          std::to_string(kMaxShards) + "]");
  }
  if (shard < 0 || shard >= shards) {
    throw InvalidArgument("--shard = " + std::to_string(shard) + " must be in [0, " +
                          std::to_string(shards - 1) + "]");
  }
  std::vector<tuning::PlannedJob> jobs;
  for (std::size_t i = static_cast<std::size_t>(shard); i < plan.search.jobs.size();
       i += static_cast<std::size_t>(shards)) {
    const auto& job = plan.search.jobs[i];
    jobs.push_back({job.candidate, job.repeat, job.seed});
  }
  return jobs;
}

std::string shard_store_path(const std::string& dir, int shard) {
  return (fs::path(dir) / kStoresFolder / ("shard-" + std::to_string(shard) + ".sqlite")).string();
}

nlohmann::json shard_identity(const SearchPlan& plan, int shard, int shards) {
  return {{"plan_id", plan.plan_id}, {"shard", shard}, {"shards", shards}};
}

namespace {

// A shard store's identity summary (shard_identity: {"plan_id", "shard", "shards"}); IoError
// "<what>: bad shard identity: <key>: ..." when it is not one (a mistyped shard used to escape
// as nlohmann::type_error).
struct ShardIdentity {
  std::string plan_id;
  int shard = -1, shards = -1;
};
ShardIdentity read_shard_identity(const std::string& text, const std::string& what) {
  try {
    const nlohmann::json j = parse_json_text(text, what);
    JsonReader r(j, "");
    ShardIdentity id;
    id.plan_id = r.required_string("plan_id");
    r.require("shard");
    r.require("shards");
    id.shard = static_cast<int>(*r.optional_integer("shard", -1, kMaxShards));
    id.shards = static_cast<int>(*r.optional_integer("shards", -1, kMaxShards));
    r.reject_unknown();
    return id;
  } catch (const ParseError& e) {
    throw IoError(what + ": bad shard identity: " + e.what());
  }
}

}  // namespace

void check_shard_store(const SearchPlan& plan, const tuning::SearchResults& stored,
                       const std::optional<std::string>& identity, int shard, int shards,
                       const std::string& what) {
  if (!identity) {
    throw IoError(what + ": not a shard store of a plan (no \"" + kShardSummaryKind +
                  "\" summary)");
  }
  const ShardIdentity id = read_shard_identity(*identity, what);
  if (id.plan_id != plan.plan_id) {
    throw IoError(what + ": a store of another plan (plan_id " + id.plan_id.substr(0, 12) +
                  "..., this plan " + plan.plan_id.substr(0, 12) + "...): refused");
  }
  if (id.shard != shard || id.shards != shards) {
    throw IoError(what + ": holds shard " + std::to_string(id.shard) + " of " +
                  std::to_string(id.shards) + ", not shard " + std::to_string(shard) + " of " +
                  std::to_string(shards));
  }
  const auto& s = plan.search;
  if (experiment::to_json(stored.config) != experiment::to_json(s.config))
    throw IoError(what + ": its experiment config differs from the plan's");
  const auto& a = stored.mechanism;
  const auto& b = s.mechanism;
  if (a.noise_multiplier != b.noise_multiplier || a.sampling_rate != b.sampling_rate ||
      a.steps != b.steps || a.delta != b.delta || stored.training_size != s.training_size) {
    throw IoError(what + ": its mechanism (sigma, q, T, delta) or n differs from the plan's");
  }
}

tuning::SearchResults shard_resume_state(const tuning::SearchResults& shard_start,
                                         const tuning::SearchResults& stored) {
  std::map<std::pair<int, int>, const tuning::JobResult*> by_key;
  for (const auto& job : stored.jobs)
    if (final_result(job.status)) by_key[{job.candidate, job.repeat}] = &job;
  tuning::SearchResults state = shard_start;
  for (auto& job : state.jobs) {
    const auto it = by_key.find({job.candidate, job.repeat});
    if (it != by_key.end()) job = *it->second;
  }
  return state;
}

ShardStore read_shard_store(const SearchPlan& plan, const std::string& path, bool allow_starting,
                            bool with_curves) {
  store::StoreOptions options;
  options.read_only = true;
  store::Store db(path, options);
  const auto runs = db.list_experiments();
  ShardStore out;
  out.path = path;
  if (runs.empty() && allow_starting) {
    out.starting = true;
    return out;
  }
  if (runs.size() != 1) {
    throw IoError(path + ": holds " + std::to_string(runs.size()) +
                  " runs; a shard store holds exactly one");
  }
  const auto identity = db.load_summary(runs[0].id, kShardSummaryKind);
  if (!identity && allow_starting && db.stored_jobs(runs[0].id) == 0) {
    out.starting = true;  // run-jobs tags its run when the run starts
    return out;
  }
  if (identity) {
    const ShardIdentity id = read_shard_identity(*identity, path);
    out.shard = id.shard;
    out.shards = id.shards;
  }
  out.status = runs[0].status;
  out.stored = db.load_results(runs[0].id, with_curves);
  check_shard_store(plan, out.stored, identity, out.shard, out.shards, path);
  if (out.shards < 1 || out.shards > kMaxShards || out.shard < 0 || out.shard >= out.shards) {
    throw IoError(path + ": its identity names shard " + std::to_string(out.shard) + " of " +
                  std::to_string(out.shards) + ", not a shard of a split");
  }
  return out;
}

std::size_t place_shard_jobs(const SearchPlan& plan, const ShardStore& store,
                             tuning::SearchResults& into, std::vector<std::string>& source,
                             double* job_seconds) {
  const auto& s = plan.search;
  const std::string& file = store.path;
  std::map<std::pair<int, int>, std::size_t> index_of;
  for (std::size_t i = 0; i < s.jobs.size(); ++i)
    index_of[{s.jobs[i].candidate, s.jobs[i].repeat}] = i;
  const auto shards = static_cast<std::size_t>(std::max(1, store.shards));
  std::size_t placed = 0;
  for (const auto& job : store.stored.jobs) {
    if (!final_result(job.status)) continue;
    const auto where = index_of.find({job.candidate, job.repeat});
    if (where == index_of.end()) {
      throw IoError(file + ": job (candidate " + std::to_string(job.candidate) + ", repeat " +
                    std::to_string(job.repeat) + ") is not in the plan");
    }
    const std::size_t i = where->second;
    if (job.seed != s.jobs[i].seed) {
      throw IoError(file + ": " + job_name(s, i) + " has seed " + std::to_string(job.seed) +
                    ", the plan's is " + std::to_string(s.jobs[i].seed));
    }
    if (static_cast<int>(i % shards) != store.shard) {
      throw IoError(file + ": " + job_name(s, i) + " belongs to shard " +
                    std::to_string(i % shards) + ", not " + std::to_string(store.shard));
    }
    if (!source[i].empty() && source[i] != file) {
      throw IoError(job_name(s, i) + " is stored twice: in " + source[i] + " and " + file);
    }
    source[i] = file;
    into.jobs[i] = job;
    if (job_seconds) *job_seconds += job.wall_seconds;
    ++placed;
  }
  return placed;
}

MergeReport merge_shards(const SearchPlan& plan, const std::string& dir) {
  const fs::path folder = fs::path(dir) / kStoresFolder;
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (entry.path().extension() == ".sqlite") files.push_back(entry.path().string());
  }
  if (ec) throw IoError(folder.string() + ": cannot list: " + ec.message());
  std::sort(files.begin(), files.end());
  const auto& s = plan.search;
  MergeReport report;
  report.results = s;
  if (s.jobs.empty()) return report;  // a private release that drew no run (PS, K = 0)
  if (files.empty()) {
    throw IoError(folder.string() +
                  ": no shard store (run: dplab-cli run-jobs DIR --shard I --shards N)");
  }
  std::vector<std::string> source(s.jobs.size());
  std::map<int, std::string> shard_file;
  for (const auto& file : files) {
    const ShardStore store = read_shard_store(plan, file);
    const int shard = store.shard, shards = store.shards;
    if (report.shards == 0) report.shards = shards;
    if (shards != report.shards) {
      throw IoError(file + ": a store of " + std::to_string(shards) + " shards; " + files[0] +
                    " is one of " + std::to_string(report.shards) +
                    ": every shard of a merge must come from one split");
    }
    if (auto [it, fresh] = shard_file.emplace(shard, file); !fresh) {
      throw IoError("duplicate store: " + it->second + " and " + file + " both hold shard " +
                    std::to_string(shard) + " of " + std::to_string(shards) + ": remove one");
    }
    place_shard_jobs(plan, store, report.results, source, &report.job_seconds);
    // Every shard loaded the same data (the plan's fingerprint): its encoding is the run's.
    if (report.stores.empty()) report.results.input = store.stored.input;
    report.stores.push_back(file);
  }
  std::vector<std::size_t> missing;
  for (std::size_t i = 0; i < s.jobs.size(); ++i)
    if (source[i].empty()) missing.push_back(i);
  if (!missing.empty()) {
    const std::size_t shard = missing[0] % static_cast<std::size_t>(report.shards);
    std::string message = std::to_string(missing.size()) + " of " + std::to_string(s.jobs.size()) +
                          " planned jobs have no result in " + folder.string() +
                          "; the first: " + job_name(s, missing[0]) + " of shard " +
                          std::to_string(shard) + " (run: dplab-cli run-jobs " + dir + " --shard " +
                          std::to_string(shard) + " --shards " + std::to_string(report.shards) +
                          ")";
    throw IoError(message);
  }
  return report;
}

std::vector<ShardProgress> shard_progress(const SearchPlan& plan, const std::string& dir,
                                          int shards) {
  std::vector<ShardProgress> out;
  for (int i = 0; i < shards; ++i) {
    ShardProgress p;
    p.shard = i;
    const auto jobs = shard_jobs(plan, i, shards);
    p.jobs = static_cast<std::int64_t>(jobs.size());
    const std::string path = shard_store_path(dir, i);
    p.store_exists = fs::exists(path);
    if (p.store_exists) {
      store::StoreOptions options;
      options.read_only = true;
      store::Store db(path, options);
      const auto runs = db.list_experiments();
      if (runs.size() == 1) {
        const auto stored = db.load_results(runs[0].id, false);
        check_shard_store(plan, stored, db.load_summary(runs[0].id, kShardSummaryKind), i, shards,
                          path);
        std::map<std::pair<int, int>, tuning::JobStatus> status;
        for (const auto& job : stored.jobs) status[{job.candidate, job.repeat}] = job.status;
        for (const auto& job : jobs) {
          const auto it = status.find({job.candidate, job.repeat});
          if (it == status.end()) continue;
          p.finished += it->second == tuning::JobStatus::kFinished ||
                        it->second == tuning::JobStatus::kDiverged;
          p.failed += it->second == tuning::JobStatus::kFailed;
        }
      }
    }
    out.push_back(p);
  }
  return out;
}

}  // namespace dplab::cluster
