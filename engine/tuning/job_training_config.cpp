// job_training_config (runner.h): the training settings of one job, apart from the runner so
// that the run history (store/) can name a stored job's model without the training code.
#include "core/random.h"
#include "experiment/reproduction_variants.h"
#include "tuning/runner.h"

namespace dplab::tuning {

training::TrainingConfig job_training_config(const experiment::ExperimentConfig& config,
                                             const experiment::Candidate& candidate, int repeat) {
  training::TrainingConfig tc;
  tc.model = config.model.spec();
  tc.optimizer = candidate.optimizer;
  tc.dp.clip = candidate.clip;  // automatic clipping: 1, the sensitivity (expand_candidates)
  tc.dp.clipping = candidate.clipping;
  tc.dp.clip_stability = candidate.clip_stability;
  tc.dp.noise_multiplier = config.privacy.noise_multiplier;
  tc.dp.lot_size = config.privacy.lot_size;
  tc.dp.sampling_rate = config.privacy.sampling_rate.value_or(0.0);
  tc.steps = config.privacy.steps;
  tc.eval_every = config.eval_every;
  tc.seed = derive_seed(config.seed, static_cast<std::uint64_t>(candidate.index),
                        static_cast<std::uint64_t>(repeat));
  experiment::apply_variants(config.variants, tc);
  return tc;
}

}  // namespace dplab::tuning
