// The flags of `dplab-cli account` (declared here, read by account_command.cpp).
#include <string>

#include "cli/accountant_flag.h"
#include "cli/command_flags.h"
#include "core/validate.h"
#include "privacy/selection/request_defaults.h"

namespace dplab::cli {

CLI::App* add_account_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(cli, "account",
                              "privacy of one run or of a search over K candidates (MA / LT / PS)");
  add_value(*cmd, args, "noise-multiplier", "sigma > 0, noise std relative to the clipping norm",
            "S")
      .required();
  add_value(*cmd, args, "sampling-rate", "required: q in (0, 1], Poisson sampling rate L/n", "Q");
  add_hidden_alias(*cmd, args, "sample-rate", "sampling-rate");
  add_value(*cmd, args, "steps", "T >= 1 steps per run", "T").required();
  add_value(*cmd, args, "delta", "target delta in (0, 1) of the whole release", "D").required();
  add_value(*cmd, args, "candidates",
            "K >= 1 hyperparameter candidates (default " +
                std::to_string(privacy::kDefaultCandidates) + ")",
            "K");
  add_value(*cmd, args, "selection",
            "none (one run; default for K = 1), ma (K runs composed in RDP; default for K > 1) or "
            "lt (Liu-Talwar random stopping, paper Thm 1) or ps (Papernot-Steinke 2022: a random "
            "number of runs, best released)",
            "none|ma|lt|ps");
  add_value(*cmd, args, "ps-distribution",
            "ps: poisson (K ~ Poisson(mu), Thm 6) or tnb (truncated negative binomial, Thm 2)",
            "poisson|tnb");
  add_value(*cmd, args, "ps-mu", "ps poisson: mean number of runs mu >= 1", "MU");
  add_value(*cmd, args, "ps-eta", "ps tnb: shape eta > -1 (1 = geometric, 0 = logarithmic)", "E");
  add_value(*cmd, args, "ps-gamma", "ps tnb: gamma in (0, 1)", "G");
  add_value(*cmd, args, "gamma", "LT stopping probability in (0, 1] (default 1/K)", "G");
  add_value(*cmd, args, "delta2",
            "LT delta2 in (0, delta) (default " + format_number(privacy::kDefaultDelta2) + ")",
            "D2");
  add_value(*cmd, args, "conversion",
            "improved (Balle et al. 2020, orders to 1024) or classic (the paper's accountant: "
            "eps_RDP - ln(delta)/(alpha-1), continuous alpha in (1, 512]) (default " +
                std::string(privacy::kDefaultConversion) + ")",
            "improved|classic");
  add_value(*cmd, args, "lt-log-base",
            "e or 2: the logarithm in Upsilon = log(1/delta2)/gamma (default " +
                std::string(privacy::kDefaultLtLogBase) + ")",
            "e|2");
  add_switch(*cmd, args, "lt-integer-hard-stop",
             "LT with the integer Upsilon = ceil(ln(1/delta2)/gamma) that `tune --release private "
             "--strategy lt` enforces (improved conversion)");
  add_value(*cmd, args, "sweep-candidates",
            "print CSV K,eps_ma,eps_lt for K = A..B instead of one JSON object", "A:B");
  add_value(*cmd, args, "tuning-fraction",
            "ps: the whole private-subsampled procedure (Koskela-Kulkarni 2023): the search on a "
            "Poisson subsample of rate Q, then one final run; eps covers both phases",
            "Q");
  add_value(*cmd, args, "final-data",
            "with --tuning-fraction: the final run on full or complement (default " +
                std::string(privacy::kDefaultFinalData) + ")",
            "full|complement");
  add_value(*cmd, args, "subset-batching",
            "with --tuning-fraction: the candidates' rate on the subset: same_sampling_rate or "
            "same_lot_size (rate / Q) (default " +
                std::string(privacy::kDefaultSubsetBatching) + ")",
            "same_sampling_rate|same_lot_size");
  add_switch(*cmd, args, "sweep-tuning-fraction",
             "ps: print CSV of eps of the whole procedure vs q = 0.05..1 (private-subsampled, both "
             "variants) beside PS and LT on the full data, with the expected compute");
  add_value(*cmd, args, "accountant",
            accountant_help("the accountant behind epsilon (pld: tight numerical composition "
                            "with an error bound; Papernot-Steinke is always rdp)"),
            "rdp|pld");
  add_value(*cmd, args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  set_footer(
      *cmd,
      "Output: one JSON object (epsilon, delta, accountant, best_order, selection, candidates, "
      "...).");
  add_examples(
      *cmd,
      {"dplab-cli account --noise-multiplier 1.1 --sampling-rate 0.01 --steps 10000 --delta 1e-5",
       "dplab-cli account --noise-multiplier 1.1 --sampling-rate 0.01 --steps 10000 --delta 1e-5 "
       "--candidates 20 --selection lt"});
  return cmd;
}

}  // namespace dplab::cli
