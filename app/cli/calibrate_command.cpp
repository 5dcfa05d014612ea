// dplab-cli calibrate: the smallest noise multiplier whose run reaches a target (epsilon, delta)
// under the chosen accountant, RDP by default (bisection from the safe side: the printed epsilon
// never exceeds the target). Prints one JSON object. The math lives in engine/privacy
// (rdp_accountant.h, pld/pld_accountant.h).
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/validate.h"
#include "privacy/accounting/rdp_accountant.h"

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

  AccountantFlags accountants =
      parse_accountant_flags(args.text_or("accountant", ""), args.text_or("pld-precision", ""));
  if (args.has("conversion")) {  // an RDP setting
    if (accountants.given && accountants.run == privacy::Accountant::kPld) {
      throw UsageError("--conversion is an RDP setting; it needs --accountant rdp");
    }
    accountants.run = privacy::Accountant::kRdp;
  }

  const double sigma_rdp = privacy::calibrate_noise_multiplier(epsilon, delta, q, steps, options);
  const auto achieved = privacy::epsilon_for_delta({sigma_rdp, q, steps}, delta, options);
  nlohmann::json out;
  out["noise_multiplier"] = sigma_rdp;
  out["epsilon"] = achieved.epsilon;
  out["accountant"] = "rdp";
  out["accountant_label"] = "accountant: rdp";
  if (accountants.run == privacy::Accountant::kPld) {
    // The same search on the PLD accountant; it never overshoots the target either.
    const auto cal =
        privacy::calibrate_noise_multiplier_pld(epsilon, delta, q, steps, accountants.pld);
    privacy::AccountedEpsilon pld;
    pld.epsilon = cal.epsilon.epsilon;
    pld.delta = delta;
    pld.accountant = privacy::Accountant::kPld;
    pld.pld_error_bound = cal.epsilon.error_bound;
    pld.pld_discretization = cal.epsilon.discretization;
    pld.pld_tail_mass = cal.epsilon.tail_mass;
    out["noise_multiplier"] = cal.noise_multiplier;
    out["epsilon"] = pld.epsilon;
    out["noise_multiplier_rdp"] = sigma_rdp;  // what RDP would have needed
    put_accountant_fields(out, pld);
  }
  out["target_epsilon"] = epsilon;
  out["delta"] = delta;
  out["sampling_rate"] = q;
  out["steps"] = steps;
  if (accountants.run == privacy::Accountant::kRdp) out["best_order"] = achieved.best_order;
  out["conversion"] = conversion;
  std::cout << out.dump(2) << '\n';
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
  add_value(*cmd, *args, "conversion", "improved (default) or classic (the paper's accountant)",
            "improved|classic");
  add_value(
      *cmd, *args, "accountant",
      "rdp or pld (default: " + std::string(privacy::to_string(privacy::kDefaultRunAccountant)) +
          "): the accountant the target is met under",
      "rdp|pld");
  add_value(*cmd, *args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  set_footer(*cmd,
             "Output: JSON with noise_multiplier (to 1e-4 relative, rounded up) and the epsilon it "
             "achieves.");
  on_run(*cmd, [args] { return run_calibrate(*args); });
}

}  // namespace dplab::cli
