// The flags of `dplab-cli bench` (declared here, read by bench_command.cpp).
#include <string>

#include "cli/command_flags.h"
#include "core/validate.h"

namespace dplab::cli {

CLI::App* add_bench_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(cli, "bench",
                              "measure DP step throughput against non-private and naive baselines");
  add_value(*cmd, args, "seconds",
            "measuring time per variant (default " + format_number(kDefaultSeconds) + ")", "S");
  add_value(*cmd, args, "lot-size",
            "expected lot size (default " + format_number(kDefaultLotSize) + ")", "L");
  add_value(*cmd, args, "threads",
            "threads of the batch-parallel rows of every model (default " +
                std::to_string(kDefaultConvThreads) +
                "; 1..8, 1: the fixed chunks on one thread only)",
            "T");
  add_switch(*cmd, args, "json", "print one JSON object instead of the table");
  add_switch(*cmd, args, "skip-accounting", "skip the accountant timings");
  add_examples(*cmd,
               {"dplab-cli bench --seconds 0.2 --skip-accounting   # quick: about 15 seconds"});
  return cmd;
}

}  // namespace dplab::cli
