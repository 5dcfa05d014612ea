// dplab-cli slurm EXPERIMENT --out DIR [...] [--submit]: plans the search into DIR (tune --plan)
// and writes DIR/dplab.sbatch, a Slurm job array whose task I runs `run-jobs DIR --shard I`;
// --submit hands it to sbatch and records the job id in DIR/slurm.json.
// dplab-cli slurm-status DIR [--resubmit-missing]: per shard, the jobs its store holds (done,
// failed, missing), plus squeue's view of the submitted arrays when squeue is present;
// --resubmit-missing submits the same script again for the shards with missing jobs only.
// No scheduler of dplab's own: Slurm queues, places and limits the tasks (issue #28).
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/run_config.h"
#include "cli/tune_finish.h"
#include "cli/tune_release.h"
#include "cluster/search_plan.h"
#include "cluster/slurm_script.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_text.h"
#include "data/file_reader.h"
#include "data/preset_files.h"

namespace dplab::cli {
namespace {

namespace fs = std::filesystem;

struct CommandOutput {
  int status = -1;  // exit status; 127: not found
  std::string text;
};

// Runs a shell command line (its words quoted by the caller) and collects stdout and stderr.
CommandOutput run_command(const std::string& line) {
  CommandOutput out;
  FILE* pipe = popen((line + " 2>&1").c_str(), "r");
  if (!pipe) return out;
  char buffer[4096];
  while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
    out.text.append(buffer, n);
  const int status = pclose(pipe);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

bool have_command(const std::string& name) {
  return run_command("command -v " + cluster::shell_quote(name)).status == 0;
}

nlohmann::json read_slurm_file(const std::string& dir) {
  const std::string path = (fs::path(dir) / cluster::kSlurmFile).string();
  std::error_code ec;
  if (!fs::exists(path, ec)) return nlohmann::json::object();
  return data::read_json_file(path);  // the one reader: no FIFO, no /dev/zero, size-capped
}

void write_slurm_file(const std::string& dir, const nlohmann::json& j) {
  write_file_atomically((fs::path(dir) / cluster::kSlurmFile).string(), json_text(j, 2) + "\n");
}

// sbatch --parsable [extra] SCRIPT; returns the job id, records it in slurm.json.
std::string submit(const std::string& dir, const std::string& extra) {
  const std::string script = (fs::path(dir) / cluster::kSbatchFile).string();
  if (!have_command("sbatch")) {
    throw IoError("sbatch not found on PATH (is this a Slurm login node?); the script is " +
                  script + ": submit it with sbatch where Slurm runs");
  }
  const CommandOutput r =
      run_command("sbatch --parsable " + extra + " " + cluster::shell_quote(script));
  if (r.status != 0) throw IoError("sbatch " + script + " failed: " + r.text);
  const std::string id = r.text.substr(0, r.text.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw IoError("sbatch " + script + ": no job id in its answer: " + r.text);
  nlohmann::json slurm = read_slurm_file(dir);
  slurm["job_ids"].push_back(id);
  write_slurm_file(dir, slurm);
  return id;
}

// The release flags tune --plan reads (add_release_flags, tune_release.h), all forwarded: the
// five of private-subsampled used to be accepted and dropped (--tuning-fraction abc, exit 0).
constexpr const char* kForwardedTuneFlags[] = {
    "release",         "tuning-fraction", "final-data",
    "subset-batching", "lr-transfer",     "lr-transfer-factor",
    "strategy",        "validation",      "validation-noise",
    "ps-distribution", "ps-mu",           "ps-eta",
    "ps-gamma",        "repeats",         "accountant",
    "pld-precision",   "delimiter",       "na-values",
    "na-policy"};

int run_slurm(const Arguments& args, const std::vector<std::string>& sbatch_args) {
  // Every flag and the output folder are checked before anything is written (issue #45 item 9):
  // a bad value used to be found after the plan, leaving a folder that refused a rerun.
  std::string experiment;
  try {
    experiment = data::resolve_preset_path(args.required_text("experiment"));
  } catch (const IoError& e) {
    throw UsageError(std::string("EXPERIMENT: ") + e.what());
  }
  const std::string out = args.required_text("out");
  cluster::SlurmOptions o = slurm_options_from(args, sbatch_args);
  std::optional<std::int64_t> given_shards;
  if (args.has("shards")) {
    given_shards = args.required_integer("shards");
    if (*given_shards < 1 || *given_shards > cluster::kMaxShards)
      throw UsageError("--shards: expected 1.." + std::to_string(cluster::kMaxShards));
  }
  if (out.empty()) throw UsageError("--out: the folder name is empty (give a folder)");
  std::error_code ec;
  if (fs::exists(fs::path(out) / cluster::kPlanFile, ec))
    throw UsageError("--out: '" + out + "' already holds a plan; plan into a new folder");
  o.cli_path = fs::canonical("/proc/self/exe").string();
  // The folder as the script will name it (canonical once it exists), for the path checks.
  const fs::path absolute_out = fs::weakly_canonical(fs::absolute(out), ec);
  o.plan_dir = ec ? out : absolute_out.string();
  try {
    cluster::check_slurm_options(o);  // the paths too: a space in --out cannot go into #SBATCH
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
  // A folder this command creates is removed again if planning fails (a refused release flag,
  // an experiment the planner rejects), so a failure leaves nothing that would refuse a rerun.
  const bool creates_folder = fs::symlink_status(out, ec).type() == fs::file_type::not_found;
  require_writable_folder(out, "--out");
  struct RemoveUnlessKept {
    std::string folder;
    bool keep = false;
    ~RemoveUnlessKept() {
      std::error_code ignored;
      if (!keep && !folder.empty()) fs::remove_all(folder, ignored);
    }
  } cleanup{creates_folder ? out : std::string()};
  // The plan: tune --plan with this command's release and accountant flags.
  Arguments tune;
  tune.set("config", experiment);
  tune.set("plan", out);
  for (const char* flag : kForwardedTuneFlags) {
    if (auto value = args.text(flag)) tune.set(flag, *value);
  }
  if (args.has("secure")) tune.set_switch("secure");
  if (const int status = run_tune_command(tune); status != 0) return status;
  const cluster::SearchPlan plan = cluster::read_plan(out);

  o.plan_dir = fs::canonical(out).string();
  o.job_name = plan.search.config.name;
  // The default never depends on K: for a private release the array size is seen by the cluster.
  const auto jobs = static_cast<std::int64_t>(plan.search.jobs.size());
  const std::int64_t default_shards =
      plan.private_plan ? kDefaultShards
                        : std::max<std::int64_t>(1, std::min<std::int64_t>(kDefaultShards, jobs));
  o.shards = static_cast<int>(given_shards.value_or(default_shards));
  std::string script;
  try {
    script = cluster::sbatch_script(o);
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
  fs::create_directories(fs::path(o.plan_dir) / "logs");
  const std::string script_path = (fs::path(o.plan_dir) / cluster::kSbatchFile).string();
  write_file_atomically(script_path, script);
  write_slurm_file(
      o.plan_dir,
      {{"shards", o.shards}, {"script", script_path}, {"job_ids", nlohmann::json::array()}});
  cleanup.keep = true;  // plan, script and slurm.json are written: the folder is the user's now
  std::printf(
      "wrote %s: a job array of %d shards%s\n", script_path.c_str(), o.shards,
      o.max_running > 0 ? (", at most " + std::to_string(o.max_running) + " at once").c_str() : "");
  if (!args.has("submit")) {
    std::printf("submit: sbatch %s\n", cluster::shell_quote(script_path).c_str());
  } else {
    const std::string id = submit(o.plan_dir, "");
    std::printf("submitted job %s (%d array tasks)\n", id.c_str(), o.shards);
  }
  std::printf("follow: dplab-cli slurm-status %s   (squeue -j <job id>; logs in %s/logs)\n",
              cluster::shell_quote(o.plan_dir).c_str(), o.plan_dir.c_str());
  std::printf("when done: dplab-cli history merge %s --db HISTORY\n",
              cluster::shell_quote(o.plan_dir).c_str());
  return 0;
}

int run_slurm_status(const Arguments& args) {
  const std::string dir = args.required_text("dir");
  const cluster::SearchPlan plan = cluster::read_plan(dir);
  // Checked: a hand-edited "shards": "4" or a job id that is not a string is an error naming
  // slurm.json and the key (cluster::read_slurm_record), as the cluster watcher reports it.
  const cluster::SlurmRecord slurm = cluster::read_slurm_record(dir);
  std::int64_t shards = slurm.shards;
  if (args.has("shards")) shards = args.required_integer("shards");
  if (shards < 1 || shards > cluster::kMaxShards) {
    throw UsageError("--shards: " + dir + " has no " + cluster::kSlurmFile +
                     " naming the shard count; give --shards N");
  }
  const auto progress = cluster::shard_progress(plan, dir, static_cast<int>(shards));
  if (plan.private_plan) {
    std::printf("curator only (private release): these job counts reveal the number of runs K\n");
  }
  std::printf("shard  jobs  done  failed  missing  store\n");
  std::int64_t done = 0, failed = 0, missing = 0;
  std::string missing_shards;
  for (const auto& p : progress) {
    std::printf("%5d  %4lld  %4lld  %6lld  %7lld  %s\n", p.shard, static_cast<long long>(p.jobs),
                static_cast<long long>(p.finished), static_cast<long long>(p.failed),
                static_cast<long long>(p.missing()),
                p.store_exists ? cluster::shard_store_path(dir, p.shard).c_str() : "(none yet)");
    done += p.finished;
    failed += p.failed;
    missing += p.missing();
    if (p.missing() > 0) {
      if (!missing_shards.empty()) missing_shards += ',';
      missing_shards += std::to_string(p.shard);
    }
  }
  std::printf("total: %lld jobs, %lld done, %lld failed, %lld missing\n",
              static_cast<long long>(plan.search.jobs.size()), static_cast<long long>(done),
              static_cast<long long>(failed), static_cast<long long>(missing));
  bool active = false;
  if (!slurm.job_ids.empty()) {
    if (have_command("squeue")) {
      std::string ids;
      for (const std::string& id : slurm.job_ids) ids += (ids.empty() ? "" : ",") + id;
      const CommandOutput q =
          run_command("squeue -h -r -j " + cluster::shell_quote(ids) + " -o '%i %T %R'");
      std::printf("squeue (jobs %s):\n%s", ids.c_str(),
                  q.text.empty() ? "  (no task queued or running)\n" : q.text.c_str());
      active = q.status == 0 && !q.text.empty();
    } else {
      std::printf("squeue not found: the stores above are the progress\n");
    }
  }
  if (args.has("resubmit-missing")) {
    if (missing == 0) {
      std::printf("nothing to resubmit: every job is stored\n");
    } else if (active) {
      throw UsageError(
          "--resubmit-missing: tasks of this plan are still queued or running "
          "(squeue above); wait for them or scancel them first");
    } else {
      const std::string id = submit(dir, "--array=" + missing_shards);
      std::printf("resubmitted shards %s as job %s\n", missing_shards.c_str(), id.c_str());
      return 0;
    }
  }
  if (missing == 0) {
    std::printf("complete: dplab-cli history merge %s --db HISTORY\n",
                cluster::shell_quote(dir).c_str());
  }
  return 0;
}

}  // namespace

void add_slurm_commands(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  auto sbatch_args = std::make_shared<std::vector<std::string>>();
  on_run(*add_slurm_flags(cli, *args, *sbatch_args),
         [args, sbatch_args] { return run_slurm(*args, *sbatch_args); });
  auto status_args = std::make_shared<Arguments>();
  on_run(*add_slurm_status_flags(cli, *status_args),
         [status_args] { return run_slurm_status(*status_args); });
}

}  // namespace dplab::cli
