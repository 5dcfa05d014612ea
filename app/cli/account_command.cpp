// dplab-cli account: privacy of one DP-SGD run, or of an honest search over K candidates
// composed with the moments accountant (MA) or selected by Liu-Talwar random stopping (LT).
// Prints one JSON object on stdout; --sweep-candidates a:b prints CSV K,eps_ma,eps_lt instead.
// The flags' rules and the answer are the engine's (privacy/selection/accounting_requests.h,
// shared with the Python module's dplab.account); this file declares the flags and prints.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/json_text.h"
#include "core/validate.h"
#include "privacy/selection/accounting_requests.h"
#include "privacy/selection/private_selection.h"
#include "privacy/selection/request_defaults.h"

namespace dplab::cli {
namespace {

int run_account(const Arguments& args) {
  const privacy::AccountAnswer answer = privacy::account_request(args);
  switch (answer.kind) {
    case privacy::AccountAnswer::Kind::kObject:
      std::cout << json_text(answer.object, 2) << '\n';
      break;
    case privacy::AccountAnswer::Kind::kCandidateSweep:
      std::cout << "K,eps_ma,eps_lt\n" << std::setprecision(17);
      for (const auto& p : answer.candidates) {
        std::cout << p.candidates << ',' << p.epsilon_ma << ',' << p.epsilon_lt << '\n';
      }
      break;
    case privacy::AccountAnswer::Kind::kTuningFractionSweep: {
      const auto& run = answer.run;
      std::cout << "# dplab: eps of the WHOLE procedure at delta = " << answer.delta
                << " (sigma = " << run.noise_multiplier << ", rate " << run.sampling_rate
                << ", T = " << run.steps
                << "); kk23: tuning on a Poisson-q subsample + the final run (both phases); "
                   "kk23_complement: final run on the rest; ps_full: Papernot-Steinke on the full "
                   "data, best run released; lt_full: Liu-Talwar with gamma = 1/E[K]; compute in "
                   "full-data runs; accountant: rdp\n";
      std::cout << "tuning_fraction,eps_kk23,eps_kk23_complement,eps_ps_full,eps_lt_full,"
                   "compute_kk23,compute_kk23_complement,compute_ps_full,compute_lt_full,"
                   "candidate_steps_kk23,candidate_steps_ps_full,candidate_steps_lt_full\n"
                << std::setprecision(17);
      for (const auto& p : answer.tuning_fraction) {
        std::cout << p.tuning_fraction << ',' << p.epsilon_kk23 << ',' << p.epsilon_kk23_complement
                  << ',' << p.epsilon_ps_full << ',' << p.epsilon_lt_full << ',' << p.compute_kk23
                  << ',' << p.compute_kk23_complement << ',' << p.compute_ps_full << ','
                  << p.compute_lt_full << ',' << p.candidate_steps_kk23 << ','
                  << p.candidate_steps_ps_full << ',' << p.candidate_steps_lt_full << '\n';
      }
      break;
    }
  }
  return 0;
}

}  // namespace

void add_account_command(CLI::App& cli) {
  CLI::App* cmd = add_command(cli, "account",
                              "privacy of one run or of a search over K candidates (MA / LT / PS)");
  auto args = std::make_shared<Arguments>();
  add_value(*cmd, *args, "noise-multiplier", "sigma > 0, noise std relative to the clipping norm",
            "S")
      .required();
  add_value(*cmd, *args, "sampling-rate", "required: q in (0, 1], Poisson sampling rate L/n", "Q");
  add_hidden_alias(*cmd, *args, "sample-rate", "sampling-rate");
  add_value(*cmd, *args, "steps", "T >= 1 steps per run", "T").required();
  add_value(*cmd, *args, "delta", "target delta in (0, 1) of the whole release", "D").required();
  add_value(*cmd, *args, "candidates",
            "K >= 1 hyperparameter candidates (default " +
                std::to_string(privacy::kDefaultCandidates) + ")",
            "K");
  add_value(*cmd, *args, "selection",
            "none (one run; default for K = 1), ma (K runs composed in RDP; default for K > 1) or "
            "lt (Liu-Talwar random stopping, paper Thm 1) or ps (Papernot-Steinke 2022: a random "
            "number of runs, best released)",
            "none|ma|lt|ps");
  add_value(*cmd, *args, "ps-distribution",
            "ps: poisson (K ~ Poisson(mu), Thm 6) or tnb (truncated negative binomial, Thm 2)",
            "poisson|tnb");
  add_value(*cmd, *args, "ps-mu", "ps poisson: mean number of runs mu >= 1", "MU");
  add_value(*cmd, *args, "ps-eta", "ps tnb: shape eta > -1 (1 = geometric, 0 = logarithmic)", "E");
  add_value(*cmd, *args, "ps-gamma", "ps tnb: gamma in (0, 1)", "G");
  add_value(*cmd, *args, "gamma", "LT stopping probability in (0, 1] (default 1/K)", "G");
  add_value(*cmd, *args, "delta2",
            "LT delta2 in (0, delta) (default " + format_number(privacy::kDefaultDelta2) + ")",
            "D2");
  add_value(*cmd, *args, "conversion",
            "improved (Balle et al. 2020, orders to 1024) or classic (the paper's accountant: "
            "eps_RDP - ln(delta)/(alpha-1), continuous alpha in (1, 512]) (default " +
                std::string(privacy::kDefaultConversion) + ")",
            "improved|classic");
  add_value(*cmd, *args, "lt-log-base",
            "e or 2: the logarithm in Upsilon = log(1/delta2)/gamma (default " +
                std::string(privacy::kDefaultLtLogBase) + ")",
            "e|2");
  add_switch(*cmd, *args, "lt-integer-hard-stop",
             "LT with the integer Upsilon = ceil(ln(1/delta2)/gamma) that `tune --release private "
             "--strategy lt` enforces (improved conversion)");
  add_value(*cmd, *args, "sweep-candidates",
            "print CSV K,eps_ma,eps_lt for K = A..B instead of one JSON object", "A:B");
  add_value(*cmd, *args, "tuning-fraction",
            "ps: the whole private-subsampled procedure (Koskela-Kulkarni 2023): the search on a "
            "Poisson subsample of rate Q, then one final run; eps covers both phases",
            "Q");
  add_value(*cmd, *args, "final-data",
            "with --tuning-fraction: the final run on full or complement (default " +
                std::string(privacy::kDefaultFinalData) + ")",
            "full|complement");
  add_value(*cmd, *args, "subset-batching",
            "with --tuning-fraction: the candidates' rate on the subset: same_sampling_rate or "
            "same_lot_size (rate / Q) (default " +
                std::string(privacy::kDefaultSubsetBatching) + ")",
            "same_sampling_rate|same_lot_size");
  add_switch(*cmd, *args, "sweep-tuning-fraction",
             "ps: print CSV of eps of the whole procedure vs q = 0.05..1 (private-subsampled, both "
             "variants) beside PS and LT on the full data, with the expected compute");
  add_value(*cmd, *args, "accountant",
            accountant_help("the accountant behind epsilon (pld: tight numerical composition "
                            "with an error bound; Papernot-Steinke is always rdp)"),
            "rdp|pld");
  add_value(*cmd, *args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  set_footer(
      *cmd,
      "Output: one JSON object (epsilon, delta, accountant, best_order, selection, candidates, "
      "...).");
  add_examples(
      *cmd,
      {"dplab-cli account --noise-multiplier 1.1 --sampling-rate 0.01 --steps 10000 --delta 1e-5",
       "dplab-cli account --noise-multiplier 1.1 --sampling-rate 0.01 --steps 10000 --delta 1e-5 "
       "--candidates 20 --selection lt"});
  on_run(*cmd, [args] { return run_account(*args); });
}

}  // namespace dplab::cli
