#include "training/wide_training.h"

#include <chrono>
#include <cmath>
#include <memory>

#include "core/error.h"
#include "core/validate.h"
#include "optim/sparse_dp_optimizer.h"
#include "privacy/mechanisms/exact_top_k.h"
#include "privacy/mechanisms/exponential_top_k.h"
#include "privacy/mechanisms/sparse_vector.h"
#include "privacy/mechanisms/uniform_selection.h"

namespace dplab::training {

WideMethod parse_wide_method(const std::string& text) {
  if (text == "nonprivate") return WideMethod::kNonPrivate;
  if (text == "dpsgd") return WideMethod::kDpSgd;
  if (text == "em") return WideMethod::kSparseExponential;
  if (text == "svt") return WideMethod::kSparseVector;
  if (text == "random") return WideMethod::kSparseRandom;
  if (text == "oracle") return WideMethod::kSparseOracle;
  throw InvalidArgument("method '" + text +
                        "' is not one of: nonprivate, dpsgd, em, svt, random, oracle");
}

std::string to_string(WideMethod method) {
  switch (method) {
    case WideMethod::kNonPrivate:
      return "nonprivate";
    case WideMethod::kDpSgd:
      return "dpsgd";
    case WideMethod::kSparseExponential:
      return "em";
    case WideMethod::kSparseVector:
      return "svt";
    case WideMethod::kSparseRandom:
      return "random";
    case WideMethod::kSparseOracle:
      return "oracle";
  }
  return "?";
}

WideRunResult run_wide_training(models::CbowNegativeSampling& model,
                                const text::CbowExamples& train, const text::CbowExamples& test,
                                const WideRunConfig& config, const std::atomic<bool>* cancel,
                                const std::function<void(const WidePoint&)>& on_point) {
  require_at_least("steps", static_cast<double>(config.steps), 1);
  require_at_least("eval_every", static_cast<double>(config.eval_every), 1);
  const auto started = std::chrono::steady_clock::now();
  model.bind(train);
  const Index p = model.num_params();
  optim::SparseDpSettings settings;
  settings.lot_size = config.lot_size;
  settings.clip1 = config.clip1;
  settings.clip2 = config.clip2;
  settings.noise_multiplier = config.noise_multiplier;
  std::unique_ptr<privacy::CoordinateSelector> selector;
  WideRunResult result;
  if (config.method == WideMethod::kNonPrivate) {
    settings.method = optim::SparseTrainingMethod::kNonPrivate;
  } else if (config.method == WideMethod::kDpSgd) {
    settings.method = optim::SparseTrainingMethod::kDpSgd;
  } else {
    settings.method = optim::SparseTrainingMethod::kSparse;
    const Index k = privacy::selection_count(config.gamma, p);
    result.selected_per_step = k;
    if (config.method == WideMethod::kSparseExponential) {
      const double draw = privacy::exponential_top_k_draw_epsilon(config.selection_epsilon,
                                                                  config.selection_delta, k);
      selector = std::make_unique<privacy::ExponentialTopK>(
          privacy::ExponentialTopKSettings{p, k, draw, config.clip0});
    } else if (config.method == WideMethod::kSparseVector) {
      privacy::SparseVectorSettings svt{
          p, k, config.selection_epsilon, config.selection_delta, config.clip0, 0.0};
      svt.threshold = privacy::sparse_vector_default_threshold(svt);
      selector = std::make_unique<privacy::SparseVector>(svt);
    } else if (config.method == WideMethod::kSparseOracle) {
      selector = std::make_unique<privacy::ExactTopK>(p, k);
    } else {
      selector = std::make_unique<privacy::UniformSelection>(p, k);
    }
  }
  optim::SparseDpOptimizer optimizer(
      settings, model, std::move(selector),
      std::make_unique<optim::SparseUpdate>(config.base, p, config.learning_rate, 0.9, 0.999, 1e-8,
                                            config.moments),
      config.seed);
  auto record = [&](std::int64_t step) {
    WidePoint point{step, model.mean_loss(train, config.eval_examples),
                    model.mean_loss(test, config.eval_examples)};
    result.curve.push_back(point);
    if (on_point) on_point(point);
  };
  record(0);
  for (std::int64_t step = 1; step <= config.steps; ++step) {
    if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
    optimizer.step();
    if (step % config.eval_every == 0 || step == config.steps) record(step);
  }
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace dplab::training
