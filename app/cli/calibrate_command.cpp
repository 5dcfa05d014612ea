// dplab-cli calibrate: the smallest noise multiplier whose run reaches a target (epsilon, delta)
// under dplab's RDP accountant (bisection from the safe side: the printed epsilon never exceeds
// the target). Prints one JSON object. The math lives in engine/privacy/rdp_accountant.h.
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/validate.h"
#include "privacy/rdp_accountant.h"

namespace dplab::cli {
namespace {

int run_calibrate(const Arguments& args) {
  const double epsilon = args.required_number("epsilon");
  require_positive("--epsilon", epsilon);
  const double delta = args.required_number("delta");
  require_open_interval("--delta", delta, 0.0, 1.0);
  const double q = args.required_number("sampling-rate");
  require_left_open_interval("--sampling-rate", q, 0.0, 1.0);
  const std::int64_t steps = args.required_integer("steps");
  if (steps < 1) fail_field("--steps", static_cast<double>(steps), "must be >= 1");
  const std::string conversion = args.text_or("conversion", "improved");
  privacy::AccountingOptions options;
  if (conversion == "classic") {
    options = privacy::paper_compatible_options();
  } else if (conversion != "improved") {
    throw UsageError("--conversion must be 'improved' or 'classic', got '" + conversion + "'");
  }

  const double sigma = privacy::calibrate_noise_multiplier(epsilon, delta, q, steps, options);
  const auto achieved = privacy::epsilon_for_delta({sigma, q, steps}, delta, options);
  nlohmann::json out;
  out["noise_multiplier"] = sigma;
  out["epsilon"] = achieved.epsilon;
  out["target_epsilon"] = epsilon;
  out["delta"] = delta;
  out["sampling_rate"] = q;
  out["steps"] = steps;
  out["best_order"] = achieved.best_order;
  out["conversion"] = conversion;
  std::cout << out.dump(2) << '\n';
  return 0;
}

}  // namespace

void add_calibrate_command(CLI::App& cli) {
  CLI::App* cmd = cli.add_subcommand(
      "calibrate", "smallest noise multiplier reaching a target (epsilon, delta)");
  auto args = std::make_shared<Arguments>();
  add_value(*cmd, *args, "epsilon", "target epsilon > 0", "E")->required();
  add_value(*cmd, *args, "delta", "target delta in (0, 1)", "D")->required();
  add_value(*cmd, *args, "sampling-rate", "required: q in (0, 1], Poisson sampling rate L/n", "Q");
  add_hidden_alias(*cmd, *args, "sample-rate", "sampling-rate");
  add_value(*cmd, *args, "steps", "T >= 1", "T")->required();
  add_value(*cmd, *args, "conversion", "improved (default) or classic (the paper's accountant)",
            "improved|classic");
  cmd->footer(
      "Output: JSON with noise_multiplier (to 1e-4 relative, rounded up) and the epsilon it achieves.");
  on_run(*cmd, [args] { return run_calibrate(*args); });
}

}  // namespace dplab::cli
