// Adapters from tuning's privacy questions to engine/privacy (rdp_accountant, private_selection,
// default_delta). See accounting.h.
#include "tuning/accounting.h"

#include "privacy/accounting/default_delta.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/selection/private_selection.h"

namespace dplab::tuning {

double epsilon_single_run(double noise_multiplier, double sampling_rate, std::int64_t steps,
                          double delta, const experiment::AccountingConfig& accounting) {
  return privacy::epsilon_for_delta({noise_multiplier, sampling_rate, steps}, delta,
                                    accounting.rdp_options())
      .epsilon;
}

double epsilon_moments_accountant(double noise_multiplier, double sampling_rate, std::int64_t steps,
                                  int num_candidates, double delta,
                                  const experiment::AccountingConfig& accounting) {
  return privacy::moments_accountant_selection({noise_multiplier, sampling_rate, steps},
                                               num_candidates, delta, accounting.rdp_options())
      .epsilon;
}

double epsilon_liu_talwar(double noise_multiplier, double sampling_rate, std::int64_t steps,
                          double gamma, double delta, double delta2,
                          const experiment::AccountingConfig& accounting) {
  return privacy::liu_talwar_selection({noise_multiplier, sampling_rate, steps}, gamma, delta,
                                       delta2, accounting.lt_log_base, accounting.rdp_options())
      .epsilon;
}

double default_delta_for(std::int64_t training_size) {
  return privacy::default_delta(training_size);
}

RunMechanism run_mechanism(const experiment::ExperimentConfig& config, std::int64_t training_size) {
  const experiment::PrivacyConfig& p = config.privacy;
  RunMechanism m;
  m.noise_multiplier = p.noise_multiplier;
  m.sampling_rate =
      p.sampling_rate ? *p.sampling_rate : p.lot_size / static_cast<double>(training_size);
  m.steps = p.steps;
  m.delta = p.delta ? *p.delta : default_delta_for(training_size);
  return m;
}

}  // namespace dplab::tuning
