// dplab-cli calibrate: the smallest noise multiplier whose run reaches a target (epsilon, delta)
// under the chosen accountant, RDP by default (bisection from the safe side: the printed epsilon
// never exceeds the target). Prints one JSON object: the engine's answer
// (privacy/selection/accounting_requests.h, shared with the Python module's dplab.calibrate).
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/json_text.h"
#include "privacy/selection/accounting_requests.h"
#include "privacy/selection/request_defaults.h"

namespace dplab::cli {
namespace {

int run_calibrate(const Arguments& args) {
  std::cout << json_text(privacy::calibrate_request(args), 2) << '\n';
  return 0;
}

}  // namespace

void add_calibrate_command(CLI::App& cli) {
  CLI::App* cmd =
      add_command(cli, "calibrate", "smallest noise multiplier reaching a target (epsilon, delta)");
  auto args = std::make_shared<Arguments>();
  add_value(*cmd, *args, "epsilon", "target epsilon > 0", "E").required();
  add_value(*cmd, *args, "delta", "target delta in (0, 1)", "D").required();
  add_value(*cmd, *args, "sampling-rate", "required: q in (0, 1], Poisson sampling rate L/n", "Q");
  add_hidden_alias(*cmd, *args, "sample-rate", "sampling-rate");
  add_value(*cmd, *args, "steps", "T >= 1", "T").required();
  add_value(*cmd, *args, "conversion",
            "improved or classic (the paper's accountant) (default " +
                std::string(privacy::kDefaultConversion) + ")",
            "improved|classic");
  add_value(*cmd, *args, "accountant", accountant_help("the accountant the target is met under"),
            "rdp|pld");
  add_value(*cmd, *args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  set_footer(*cmd,
             "Output: JSON with noise_multiplier (to 1e-4 relative, rounded up) and the epsilon it "
             "achieves.");
  add_examples(*cmd,
               {"dplab-cli calibrate --epsilon 1 --delta 1e-5 --sampling-rate 0.01 --steps 10000",
                "dplab-cli calibrate --epsilon 1 --delta 1e-5 --sampling-rate 0.01 --steps 10000 "
                "--accountant pld"});
  on_run(*cmd, [args] { return run_calibrate(*args); });
}

}  // namespace dplab::cli
