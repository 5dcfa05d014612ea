// Canary audit for classifiers (the secret-sharer idea of Carlini et al. 2019 applied to
// labels; Zhang, Mironov & Hejazinia section 6.5 for the rank/chi-square read-out), for any
// dplab model trained by the standard trainer's components (make_model, NoisyGradientOracle,
// make_optimizer).
//
// 1. The held-out pool (the validation set, >= 4m rows) is shuffled (seeded) and every row gets a
//    label drawn uniformly among the WRONG classes. The first m rows are canaries, all the others
//    are references that are never inserted.
// 2. Each canary (x, wrong label) is appended `repeats` times to the training set; train.
// 3. Loss rank: r(c) = |{references with loss > loss(c)}| / R, the fraction of never-inserted
//    mislabelled examples the model finds *less* plausible than the canary. Memorised canaries
//    have a low loss, so r near 1.
// 4. Null: if training does not depend on the canaries, each canary is a fresh draw from the same
//    law as the R references, so given the model r is (up to the O(1/sqrt R) error of the reference
//    quantiles, hence R >> m) an independent uniform draw: histogram (10 bins) + Pearson
//    chi-square. (With R = m the ranks are strongly dependent — a two-sample interleaving — and the
//    multinomial chi-square over-rejects.)
// Classification data only (InvalidArgument otherwise).
#pragma once

#include <cstdint>
#include <vector>

#include "audit/canary.h"
#include "data/dataset.h"
#include "training/trainer.h"

namespace dplab::audit {

struct LabelCanaryOptions {
  int canaries = 50;  // m
  int repeats = 9;    // n_c
  std::uint64_t seed = 1;
};

struct LabelCanaryResult {
  std::vector<double> ranks;  // one per canary
  RankHistogram histogram;
  std::vector<double> reference_ranks;  // each reference ranked against the other references
  double final_validation_loss = 0;
};

// Step 1's pool: every row of `source` in a seeded random order, each with a label drawn
// uniformly among the `classes` - 1 wrong ones. Also the black-box canaries of the one-run audit
// (audit/one_run_audit.h).
data::Dataset make_mislabelled_pool(const data::Dataset& source, int classes, std::uint64_t seed);

// The loss of every row of `set` on `model`, one row at a time.
std::vector<double> example_losses(models::Model& model, const data::Dataset& set);

// Trains config.model with config.optimizer / config.dp for config.steps on data.train plus the
// canaries (drawn from data.validation) and ranks the canaries.
LabelCanaryResult run_label_canary_audit(const data::TrainValidationSplit& data,
                                         const training::TrainingConfig& config,
                                         const LabelCanaryOptions& options);

}  // namespace dplab::audit
