// Optimizer names as experiment files, the CLI and the GUI write them, and back, and each
// optimizer's default hyperparameters. Kept apart from the factory (optimizer_factory.cpp) so
// that parsing an experiment needs no optimizer code: the experiment parser and its fuzz harness
// (tests/fuzz) link this file, not every optimizer.
#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "core/json_guard.h"
#include "optim/optimizer.h"

namespace dplab::optim {

OptimizerSpec default_spec(OptimizerKind kind) {
  OptimizerSpec spec;  // alpha = 0.01, m = 0.9, beta1 = 0.9, beta2 = 0.999, xi = 1e-8, tau auto
  spec.kind = kind;
  switch (kind) {
    case OptimizerKind::kDpSgd:
    case OptimizerKind::kDpMomentum:
    case OptimizerKind::kOsoDpSgd:  // rho_0 is tuned (the OSO grid)
    case OptimizerKind::kFixedQuantile:
      break;
    case OptimizerKind::kDpAdam:      // Kingma & Ba's default alpha
    case OptimizerKind::kDpAdamWosm:  // main paper Alg. 2 line 3: 1e-3 in the ESS
    case OptimizerKind::kAdaDp:       // Koskela & Honkela's initial eta
      spec.learning_rate = 1e-3;
      break;
    case OptimizerKind::kDpAdamBc:
      // Tang et al.'s code (ubc-systopia/DP-AdamBC): Adam's alpha, betas 0.9 / 0.999 and the
      // floor eps_root = gamma' = 1e-8 (its --eps_root default; spec.epsilon holds gamma').
      spec.learning_rate = 1e-3;
      spec.epsilon = 1e-8;
      break;
  }
  return spec;
}

bool supports_automatic_clipping(OptimizerKind kind) {
  return kind != OptimizerKind::kOsoDpSgd && kind != OptimizerKind::kFixedQuantile;
}

std::string to_string(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::kDpSgd:
      return "dpsgd";
    case OptimizerKind::kDpMomentum:
      return "dpmomentum";
    case OptimizerKind::kDpAdam:
      return "dpadam";
    case OptimizerKind::kAdaDp:
      return "adadp";
    case OptimizerKind::kDpAdamWosm:
      return "dpadamwosm";
    case OptimizerKind::kOsoDpSgd:
      return "oso-dpsgd";
    case OptimizerKind::kFixedQuantile:
      return "fixed-quantile";
    case OptimizerKind::kDpAdamBc:
      return "dpadam-bc";
  }
  return "unknown";
}

OptimizerKind parse_optimizer_kind(const std::string& text) {
  std::string name = text;
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string valid;
  for (OptimizerKind kind : kAllOptimizerKinds) {
    if (name == to_string(kind)) return kind;
    valid += (valid.empty() ? "" : ", ") + to_string(kind);
  }
  // The name as a bounded excerpt: a file may hold any string there.
  throw InvalidArgument("optimizer = " + json_excerpt(nlohmann::json(text)) +
                        " is not a known optimizer; valid names: " + valid);
}

}  // namespace dplab::optim
