// One training step as `dplab-cli bench` times it: a copy of the model, the real noisy-gradient
// oracle (Poisson lot, clipping, noise; or none of them for the non-private step) and the real
// optimizer. on_threads = 0: the model itself; 1 or more: the lot's rows cut into the fixed chunks
// of models::BatchParallelModel and computed on that many threads (the same floats for every
// count, issue #49). secure: the oracle of `tune --release private --secure` (lots from
// getrandom, exact discrete Gaussian noise on the integer grid from ChaCha20;
// docs/secure-noise.md).
#pragma once

#include <memory>

#include "data/dataset.h"
#include "dp_gradient/noisy_gradient.h"
#include "models/batch_parallel_model.h"
#include "models/model.h"
#include "optim/optimizer.h"

namespace dplab::cli {

struct BenchStepper {
  std::unique_ptr<models::Model> model;
  privacy::NoisyGradientOracle oracle;
  std::unique_ptr<optim::Optimizer> optimizer;

  BenchStepper(const models::Model& from, const data::Dataset& on, const privacy::DpSettings& dp,
               const optim::OptimizerSpec& spec, int on_threads = 0, bool secure = false)
      : model(on_threads == 0 ? from.clone()
                              : std::make_unique<models::BatchParallelModel>(from, on_threads)),
        oracle(on, *model, dp, 3, secure),
        optimizer(optim::make_optimizer(spec, {model->num_params(), 1000000, dp})) {}
  void step() { optimizer->step(*model, oracle); }
};

}  // namespace dplab::cli
