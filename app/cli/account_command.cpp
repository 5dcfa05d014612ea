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
#include "cli/command_flags.h"
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
  auto args = std::make_shared<Arguments>();
  on_run(*add_account_flags(cli, *args), [args] { return run_account(*args); });
}

}  // namespace dplab::cli
