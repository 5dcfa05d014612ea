// dplab-cli calibrate: the smallest noise multiplier whose run reaches a target (epsilon, delta)
// under the chosen accountant, RDP by default (bisection from the safe side: the printed epsilon
// never exceeds the target). Prints one JSON object: the engine's answer
// (privacy/selection/accounting_requests.h, shared with the Python module's dplab.calibrate).
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/command_flags.h"
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
  auto args = std::make_shared<Arguments>();
  on_run(*add_calibrate_flags(cli, *args), [args] { return run_calibrate(*args); });
}

}  // namespace dplab::cli
