// One training run of the word2vec CBOW model (models/cbow_negative_sampling.h) by one of the
// methods compared in Zhang, Mironov & Hejazinia, Figure 1: non-private, DP-SGD, or sparse DP
// (Algorithm 3) with exponential-mechanism, sparse-vector or uniform-random selection; base
// update Adam (the paper's) or SGD. Reports train/test loss curves (mean example loss on fixed
// evaluation subsets) every eval_every steps and at the end.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/cbow_negative_sampling.h"
#include "optim/sparse_update.h"
#include "text/cbow_examples.h"

namespace dplab::training {

// kSparseOracle is the diagnosis's upper bound, not a private method: Algorithm 3 with exact
// top-k selection (privacy/mechanisms/exact_top_k.h) and no noise.
enum class WideMethod {
  kNonPrivate,
  kDpSgd,
  kSparseExponential,
  kSparseVector,
  kSparseRandom,
  kSparseOracle
};

WideMethod parse_wide_method(const std::string& text);  // nonprivate|dpsgd|em|svt|random|oracle
std::string to_string(WideMethod method);

struct WideRunConfig {
  WideMethod method = WideMethod::kSparseExponential;
  optim::BaseUpdateKind base = optim::BaseUpdateKind::kAdam;
  // Adam's moments: lazy (only the updated coordinates; PyTorch's SparseAdam) or dense (every
  // coordinate decays and moves every step: torch.optim.Adam on the masked gradient, as the
  // paper's Opacus runs). DP-SGD updates every coordinate, so both are the same for it.
  optim::AdamMoments moments = optim::AdamMoments::kLazy;
  double learning_rate = 0.001;    // eta
  double lot_size = 20;            // b
  std::int64_t steps = 1000;       // T
  double clip1 = 15;               // S1
  double clip2 = 0.05;             // S2
  double gamma = 0.001;            // k = floor(gamma p)
  double clip0 = 0.1;              // S0 (selection's per-coordinate clip)
  double noise_multiplier = 0.5;   // sigma
  double selection_epsilon = 1.0;  // eps' per step (em, svt)
  double selection_delta = 1e-7;   // delta' (em's advanced composition, svt)
  std::int64_t eval_every = 500;
  std::int64_t eval_examples = 5000;
  std::uint64_t seed = 1;
};

struct WidePoint {
  std::int64_t step = 0;
  double train_loss = 0;  // mean loss on eval_examples training examples spread evenly
                          // over the set (CbowNegativeSampling::mean_loss)
  double test_loss = 0;   // same on the test examples
};

struct WideRunResult {
  std::vector<WidePoint> curve;
  double wall_seconds = 0;
  std::int64_t selected_per_step = 0;  // k (0 for dense methods)
};

// Trains `model` (already initialised) on `train`; evaluates on `train`/`test` subsets
// spread evenly over each set.
WideRunResult run_wide_training(models::CbowNegativeSampling& model,
                                const text::CbowExamples& train, const text::CbowExamples& test,
                                const WideRunConfig& config,
                                const std::atomic<bool>* cancel = nullptr,
                                const std::function<void(const WidePoint&)>& on_point = {});

}  // namespace dplab::training
