#include "cluster/slurm_script.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cluster/search_plan.h"
#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "data/file_reader.h"

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
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};    // not written yet (no --submit, or older)
  const nlohmann::json j = data::read_json_file(path);  // the one reader of user files
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

long long slurm_time_minutes(const std::string& text) {
  const auto fail = [&](const std::string& why) -> long long {
    throw InvalidArgument("--time '" + text + "': " + why +
                          " (Slurm's formats: minutes, minutes:seconds, hours:minutes:seconds, "
                          "days-hours, days-hours:minutes, days-hours:minutes:seconds)");
  };
  if (text == "INFINITE" || text == "UNLIMITED") return -1;
  // Split "D-" off, then the ':' fields; each must be 1..10 digits (no sign, no space).
  std::string rest = text;
  std::optional<long long> days;
  const auto number = [&](const std::string& field) -> long long {
    if (field.empty() || field.size() > 10 ||
        field.find_first_not_of("0123456789") != std::string::npos)
      fail("'" + field + "' is not a number of at most 10 digits");
    return std::stoll(field);
  };
  if (const auto dash = rest.find('-'); dash != std::string::npos) {
    days = number(rest.substr(0, dash));
    rest = rest.substr(dash + 1);
  }
  std::vector<long long> fields;
  std::size_t begin = 0;
  while (true) {
    const auto colon = rest.find(':', begin);
    fields.push_back(number(rest.substr(begin, colon - begin)));
    if (colon == std::string::npos) break;
    begin = colon + 1;
  }
  if (fields.size() > 3) fail("too many ':' fields");
  long long days_part = 0, hours = 0, minutes = 0, seconds = 0;
  if (days) {  // D-HH, D-HH:MM, D-HH:MM:SS
    days_part = *days;
    hours = fields[0];
    if (hours > 23) fail("the hours after 'days-' must be below 24");
    if (fields.size() > 1) minutes = fields[1];
    if (fields.size() > 2) seconds = fields[2];
  } else if (fields.size() == 1) {  // M
    minutes = fields[0];
  } else if (fields.size() == 2) {  // M:S
    minutes = fields[0];
    seconds = fields[1];
  } else {  // H:M:S
    hours = fields[0];
    minutes = fields[1];
    seconds = fields[2];
  }
  const bool leading_minutes = !days && fields.size() <= 2;
  if (!leading_minutes && minutes > 59) fail("the minutes must be below 60");
  if (seconds > 59) fail("the seconds must be below 60");
  // Each field has at most 10 digits (< 1e10), so this sum stays far below 2^63.
  const long long total = days_part * 1440 + hours * 60 + minutes + (seconds > 0 ? 1 : 0);
  if (total > kMaxSlurmTimeMinutes)
    fail("longer than Slurm's longest limit, " + std::to_string(kMaxSlurmTimeMinutes) +
         " minutes (use INFINITE for no limit)");
  return total;
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
  if (!o.time.empty()) (void)slurm_time_minutes(o.time);
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
    << "#SBATCH --output=" << o.plan_dir
    << "/logs/shard-%a.out\n"
    // SIGUSR1 120 s before the time limit, to the batch shell ("B:"): the script execs
    // run-jobs, so run-jobs IS the batch shell (without B: Slurm signals job steps only, and
    // there are none). run-jobs then stops its jobs in flight at their next optimizer step and
    // exits 138 without storing them (cli/interrupt.h). 120 s: Slurm may send the signal up to
    // 60 s early (its event resolution), so this is 120..180 s ahead, enough for one step of
    // the largest built-in model (seconds) and the store's final commit; SIGTERM at the limit
    // and SIGKILL KillWait (30 s by default) later would give far less. A user's own
    // --sbatch-arg=--signal=... comes below and overrides it.
    << "#SBATCH --signal=B:USR1@" << kSlurmSignalLeadSeconds << "\n";
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
