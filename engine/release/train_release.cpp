// The Release of one training run. See train_release.h.
#include "release/train_release.h"

#include <cmath>

#include "privacy/accounting/epsilon_display.h"
#include "release/search_tables.h"

namespace dplab::release {

Release train_release(const TrainRun& run) {
  Release r;
  r.experiment = run.name;
  r.mode = "train";
  r.cancelled = run.cancelled;
  const bool finite = std::isfinite(run.epsilon);
  r.privacy = {
      {"unit", "one training example"},
      {"adjacency", "add or remove one example"},
      {"sampler", "Poisson: each example joins each lot independently with probability q"},
      {"training_size", run.training_size},
      {"validation_size", run.validation_size},
      {"lot_size", run.lot_size},
      {"sampling_rate", run.sampling_rate},
      {"sampling_rate_rule", "q = L / n: the expected lot size over the training-set size"},
      {"normalisation",
       run.is_private ? "the sum of the clipped per-example gradients plus N(0, sigma^2 C^2) "
                        "noise, divided by the expected lot size L (post-processing by a public "
                        "constant)"
                      : "non-private baseline: no clipping, no noise"},
      {"noise_multiplier", run.is_private ? run.noise_multiplier : 0.0},
      {"clipping", !run.is_private ? "none (non-private baseline)"
                   : run.automatic_clipping
                       ? "automatic (--clipping automatic, Bu et al. 2023): each example's "
                         "gradient g scaled to g/(||g|| + gamma), norm < 1, so C = 1"
                       : "each example's gradient clipped to norm C (--clip)"},
      {"steps", run.queries},
      {"steps_unit", "noisy-gradient queries the run made (an ADADP step makes two)"},
      {"accountant", run.accountant},
      {"conversion", run.accountant == "pld" ? "pld (privacy loss distribution)" : "improved"},
      {"delta", run.delta},
      {"delta_rule",
       run.delta_given ? "--delta" : "1/n rounded down to a power of ten (the default)"},
      {"epsilon", finite ? nlohmann::json(run.epsilon) : nlohmann::json(nullptr)},
      {"epsilon_rounded_up", privacy::format_epsilon_up(run.epsilon, privacy::kEpsilonDigits)},
      {"epsilon_label", run.epsilon_label},
      {"covers", "one run of " + std::to_string(run.queries) + " noisy-gradient queries"},
      {"tuning",
       {{"mode", "train"},
        {"validation", "public"},
        {"run_count_policy", "one run, no selection"}}},
      {"secure", run.secure},
      {"noise_source", run.secure ? "secure: lots and noise from the OS (getrandom) and ChaCha20, "
                                    "no seed was written"
                                  : "seeded: the seed in the config reproduces the noise"},
      {"preprocessing",
       {{"fitted_on_private_data", run.preprocessing.fitted_on_private_data},
        {"description", run.preprocessing.description}}}};
  r.csv_label = run.epsilon_label;
  r.released = {{"status", run.status}, {"final", run.final_metrics}};
  r.tables = {
      {"curve.csv", curve_table(run.curve ? *run.curve : std::vector<training::CurvePoint>{})}};
  if (run.model) r.models.push_back({kModelFolder, run.model, run.input});
  return r;
}

}  // namespace dplab::release
