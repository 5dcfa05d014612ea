// The flags of `dplab-cli calibrate` (declared here, read by calibrate_command.cpp).
#include <string>

#include "cli/accountant_flag.h"
#include "cli/command_flags.h"
#include "privacy/selection/request_defaults.h"

namespace dplab::cli {

CLI::App* add_calibrate_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd =
      add_command(cli, "calibrate", "smallest noise multiplier reaching a target (epsilon, delta)");
  add_value(*cmd, args, "epsilon", "target epsilon > 0", "E").required();
  add_value(*cmd, args, "delta", "target delta in (0, 1)", "D").required();
  add_value(*cmd, args, "sampling-rate", "required: q in (0, 1], Poisson sampling rate L/n", "Q");
  add_hidden_alias(*cmd, args, "sample-rate", "sampling-rate");
  add_value(*cmd, args, "steps", "T >= 1", "T").required();
  add_value(*cmd, args, "conversion",
            "improved or classic (the paper's accountant) (default " +
                std::string(privacy::kDefaultConversion) + ")",
            "improved|classic");
  add_value(*cmd, args, "accountant", accountant_help("the accountant the target is met under"),
            "rdp|pld");
  add_value(*cmd, args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  set_footer(*cmd,
             "Output: JSON with noise_multiplier (to 1e-4 relative, rounded up) and the epsilon it "
             "achieves.");
  add_examples(*cmd,
               {"dplab-cli calibrate --epsilon 1 --delta 1e-5 --sampling-rate 0.01 --steps 10000",
                "dplab-cli calibrate --epsilon 1 --delta 1e-5 --sampling-rate 0.01 --steps 10000 "
                "--accountant pld"});
  return cmd;
}

}  // namespace dplab::cli
