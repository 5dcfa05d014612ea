#include "cluster/slurm_script.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cluster/search_plan.h"
#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"

namespace dplab::cluster {
namespace {

// Partition, account and job names: what Slurm itself accepts, nothing the shell interprets.
bool plain_name(const std::string& text) {
  static const std::regex name("[A-Za-z0-9_.,:+-]+");
  return std::regex_match(text, name);
}

}  // namespace

SlurmRecord read_slurm_record(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / kSlurmFile).string();
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json j = parse_json_text(text.str(), path);
  SlurmRecord record;
  try {
    JsonReader r(j, "");
    record.shards = static_cast<int>(r.optional_integer("shards", 0, kMaxShards).value_or(0));
    record.job_ids = r.optional_strings("job_ids").value_or(std::vector<std::string>{});
  } catch (const ParseError& e) {
    throw ParseError(path + ": " + e.what());
  }
  return record;
}

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (const char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

void check_slurm_options(const SlurmOptions& o) {
  if (o.shards < 1) throw InvalidArgument("--shards must be >= 1");
  if (o.max_running < 0) throw InvalidArgument("--max-running must be >= 1");
  if (o.cpus_per_task < 1 || o.cpus_per_task > 1024)
    throw InvalidArgument("--cpus-per-task must be in [1, 1024]");
  if (o.mem_mb < 0) throw InvalidArgument("--mem must be a positive number of MB");
  if (!o.partition.empty() && !plain_name(o.partition))
    throw InvalidArgument("--partition '" + o.partition + "': letters, digits and _.,:+- only");
  if (!o.account.empty() && !plain_name(o.account))
    throw InvalidArgument("--account '" + o.account + "': letters, digits and _.,:+- only");
  static const std::regex time("(\\d+-)?(\\d+:)?\\d+:\\d\\d|\\d+");
  if (!o.time.empty() && !std::regex_match(o.time, time))
    throw InvalidArgument("--time '" + o.time + "': expected HH:MM:SS, MM:SS or D-HH:MM:SS");
  static const std::regex option("--[A-Za-z][A-Za-z0-9-]*(=[A-Za-z0-9_.,:/%@+=-]*)?");
  for (const auto& extra : o.extra) {
    if (!std::regex_match(extra, option)) {
      throw InvalidArgument("--sbatch-arg '" + extra +
                            "': expected --option or --option=value (letters, digits, _.,:/%@+=-)");
    }
  }
  for (const auto* path : {&o.cli_path, &o.plan_dir}) {
    if (path->find_first_of(" \t\n\r%") != std::string::npos) {
      throw InvalidArgument("'" + *path +
                            "': a path with a space, a line break or % cannot go into an "
                            "#SBATCH line (Slurm splits and expands them)");
    }
  }
}

std::string sbatch_script(const SlurmOptions& o) {
  check_slurm_options(o);
  std::string name;
  for (const char c : o.job_name) name += plain_name(std::string(1, c)) ? c : '_';
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# dplab search '" << name << "', written by dplab-cli slurm. Submit: sbatch "
    << shell_quote(o.plan_dir + "/" + kSbatchFile) << "\n"
    << "# A job array of " << o.shards << " tasks: task I runs shard I of the plan "
    << "(job j of plan.json runs in shard j mod " << o.shards << ")\n"
    << "# into <plan>/stores/shard-I.sqlite. A task run again runs only the jobs its store\n"
    << "# does not hold yet. Watch: dplab-cli slurm-status <plan>; when all are done:\n"
    << "# dplab-cli history merge <plan> --db HISTORY\n"
    << "#SBATCH --job-name=dplab-" << name << "\n"
    << "#SBATCH --array=0-" << o.shards - 1;
  if (o.max_running > 0) s << "%" << o.max_running;
  s << "\n"
    << "#SBATCH --ntasks=1\n"
    << "#SBATCH --cpus-per-task=" << o.cpus_per_task << "\n"
    << "#SBATCH --output=" << o.plan_dir << "/logs/shard-%a.out\n";
  if (!o.partition.empty()) s << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.time.empty()) s << "#SBATCH --time=" << o.time << "\n";
  if (o.mem_mb > 0) s << "#SBATCH --mem=" << o.mem_mb << "\n";
  if (!o.account.empty()) s << "#SBATCH --account=" << o.account << "\n";
  for (const auto& extra : o.extra) s << "#SBATCH " << extra << "\n";
  s << "set -euo pipefail\n"
    << "exec " << shell_quote(o.cli_path) << " run-jobs " << shell_quote(o.plan_dir)
    << " --shard \"$SLURM_ARRAY_TASK_ID\" --shards " << o.shards
    << " --threads \"${SLURM_CPUS_PER_TASK:-1}\"\n";
  return s.str();
}

}  // namespace dplab::cluster
