// libFuzzer harness: the cluster settings a plan folder holds beside plan.json, and the values
// that become the sbatch script (cluster/slurm_script.h).
//
//   byte 0 % 3 = 0   the rest is DIR/slurm.json, read by read_slurm_record (what `dplab-cli
//                    slurm` records and slurm-status / the GUI's watch read back): a record or a
//                    dplab::Error naming the file, shards in [0, kMaxShards]
//              = 1   the rest is a --time value (slurm_time_minutes): -1 (INFINITE) or minutes in
//                    [0, kMaxSlurmTimeMinutes], or InvalidArgument
//              = 2   the rest is the script's options, fields separated by NUL bytes (cli path,
//                    plan folder, job name, partition, time, account, then --sbatch-arg values;
//                    byte 1 sets shards, max running and cpus per task): sbatch_script refuses
//                    them or writes a script whose every line is a comment, an #SBATCH line, or
//                    one of its two commands (no flag can add a line or a command)
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cluster/search_plan.h"
#include "cluster/slurm_script.h"
#include "core/error.h"
#include "fuzz_input_file.h"

namespace {

std::vector<std::string> split_nul(const std::string& text) {
  std::vector<std::string> fields;
  std::size_t begin = 0;
  for (;;) {
    const auto end = text.find('\0', begin);
    fields.push_back(text.substr(begin, end == std::string::npos ? end : end - begin));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return fields;
}

bool starts_with(const std::string& line, const std::string& prefix) {
  return line.rfind(prefix, 0) == 0;
}

void check_script(const std::string& script, const dplab::cluster::SlurmOptions& o) {
  if (script.empty() || script.back() != '\n') __builtin_trap();
  std::size_t begin = 0;
  int commands = 0;
  while (begin < script.size()) {
    const auto end = script.find('\n', begin);
    const std::string line = script.substr(begin, end - begin);
    begin = end + 1;
    if (line.find('\0') != std::string::npos || line.find('\r') != std::string::npos)
      __builtin_trap();
    if (starts_with(line, "#")) continue;
    ++commands;
    if (line == "set -euo pipefail") continue;
    if (starts_with(line, "exec " + dplab::cluster::shell_quote(o.cli_path) + " run-jobs "))
      continue;
    std::fprintf(stderr, "fuzz_slurm_json: the script holds a line it must not: %s\n",
                 line.c_str());
    __builtin_trap();
  }
  if (commands != 2) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: {
      static const std::string dir = [] {
        const std::string d = dplab::fuzz::input_path("slurm-plan");
        std::filesystem::create_directories(d);
        return d;
      }();
      dplab::fuzz::write_file(dir + "/" + dplab::cluster::kSlurmFile, text);
      try {
        const auto record = dplab::cluster::read_slurm_record(dir);
        if (record.shards < 0 || record.shards > dplab::cluster::kMaxShards) __builtin_trap();
      } catch (const dplab::Error&) {
      }
      break;
    }
    case 1: {
      try {
        const long long minutes = dplab::cluster::slurm_time_minutes(text);
        if (minutes != -1 && (minutes < 0 || minutes > dplab::cluster::kMaxSlurmTimeMinutes))
          __builtin_trap();
      } catch (const dplab::Error&) {
      }
      break;
    }
    default: {
      const auto fields = split_nul(text.substr(1));
      const auto field = [&](std::size_t i) {
        return i < fields.size() ? fields[i] : std::string();
      };
      dplab::cluster::SlurmOptions o;
      o.cli_path = field(0);
      o.plan_dir = field(1);
      o.job_name = field(2);
      o.partition = field(3);
      o.time = field(4);
      o.account = field(5);
      for (std::size_t i = 6; i < fields.size(); ++i) o.extra.push_back(fields[i]);
      const auto knobs = static_cast<std::uint8_t>(text[0]);
      o.shards = (knobs & 7) * 1000 - 1;
      o.max_running = static_cast<int>((knobs >> 3) & 3) - 1;
      o.cpus_per_task = (knobs >> 5) * 300;
      o.mem_mb = (knobs & 1) ? 4096 : 0;
      try {
        check_script(dplab::cluster::sbatch_script(o), o);
      } catch (const dplab::Error&) {
      }
      break;
    }
  }
  return 0;
}
