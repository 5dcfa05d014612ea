// The sbatch script of a plan folder (issue #28): a Slurm job array whose task I runs
//   dplab-cli run-jobs DIR --shard I --shards N --threads $SLURM_CPUS_PER_TASK
// dplab hands its jobs to Slurm and has no scheduler, SSH loop or worker protocol of its own:
// Slurm already queues, places, limits (%M), retries and accounts for them.
// Every value that lands in the script is checked here (no newline, no shell metacharacter in
// an #SBATCH value), so a flag cannot inject a command. Errors: InvalidArgument naming the flag.
#pragma once

#include <string>
#include <vector>

namespace dplab::cluster {

inline constexpr const char* kSbatchFile = "dplab.sbatch";
inline constexpr const char* kSlurmFile = "slurm.json";  // shards, submitted job ids

struct SlurmOptions {
  std::string cli_path;   // absolute path of dplab-cli on the cluster's shared file system
  std::string plan_dir;   // absolute path of the plan folder
  std::string job_name;   // the experiment's name
  int shards = 1;         // N
  int max_running = 0;    // M of --array=0-(N-1)%M; 0 = no limit
  std::string partition;  // empty = the cluster's default
  std::string time;       // a Slurm time limit (slurm_time_minutes); empty = the partition's
  int cpus_per_task = 1;
  long long mem_mb = 0;  // 0 = the partition's default
  std::string account;
  std::vector<std::string> extra;  // more #SBATCH lines, each "--option[=value]"
};

// Seconds before the time limit at which the generated script asks Slurm for SIGUSR1
// (#SBATCH --signal=B:USR1@..., why this lead: sbatch_script in slurm_script.cpp).
inline constexpr int kSlurmSignalLeadSeconds = 120;

// Slurm's longest time limit in minutes: its limits are 32-bit minute counts, and the two top
// values mean INFINITE and NO_VAL (slurm.h), so a longer one would wrap or mean "no limit".
inline constexpr long long kMaxSlurmTimeMinutes = 4294967293LL;

// A --time value in minutes (seconds rounded up, as Slurm does), in Slurm's formats (sbatch(1)):
// "minutes", "minutes:seconds", "hours:minutes:seconds", "days-hours", "days-hours:minutes",
// "days-hours:minutes:seconds", or INFINITE / UNLIMITED (returned as -1). Every field is digits;
// a field after the first is below 60 (hours after "days-" below 24); the total is at most
// kMaxSlurmTimeMinutes, computed without overflow. Throws InvalidArgument "--time '<text>': ..."
// naming the rule it breaks.
long long slurm_time_minutes(const std::string& text);

// Throws InvalidArgument naming the flag for a value the script must not hold.
void check_slurm_options(const SlurmOptions& options);
std::string sbatch_script(const SlurmOptions& options);
// A word quoted for the shell ('...' with ' escaped).
std::string shell_quote(const std::string& word);

// What slurm.json records (written by `dplab-cli slurm`): the shard count (0 when absent) and the
// ids of the jobs submitted so far. An absent file reads as empty. Only these keys are read (the
// rest is for the user); each is checked: ParseError "<file>: shards: must be between 0 and
// 10000, got ..." / "<file>: job_ids[0]: expected a string, got 7".
struct SlurmRecord {
  int shards = 0;
  std::vector<std::string> job_ids;
};
SlurmRecord read_slurm_record(const std::string& dir);

}  // namespace dplab::cluster
