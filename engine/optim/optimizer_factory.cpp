// make_optimizer / parse_optimizer_kind / to_string / default_spec: the one place that maps an
// OptimizerKind to its class and its name ("dpsgd" | "dpmomentum" | "dpadam" | "adadp" |
// "dpadamwosm"). Defaults follow the papers (optimizer.h, default_spec).
#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "optim/adadp.h"
#include "optim/dp_adam.h"
#include "optim/dp_adam_wosm.h"
#include "optim/dp_momentum.h"
#include "optim/dp_sgd.h"
#include "optim/fixed_quantile.h"
#include "optim/optimizer.h"
#include "optim/oso_dpsgd.h"

namespace dplab::optim {

std::unique_ptr<Optimizer> make_optimizer(const OptimizerSpec& spec, const RunShape& shape) {
  switch (spec.kind) {
    case OptimizerKind::kDpSgd:
      return std::make_unique<DpSgd>(spec, shape);
    case OptimizerKind::kDpMomentum:
      return std::make_unique<DpMomentum>(spec, shape);
    case OptimizerKind::kDpAdam:
      return std::make_unique<DpAdam>(spec, shape);
    case OptimizerKind::kAdaDp:
      return std::make_unique<AdaDp>(spec, shape);
    case OptimizerKind::kDpAdamWosm:
      return std::make_unique<DpAdamWosm>(spec, shape);
    case OptimizerKind::kOsoDpSgd:
      return std::make_unique<OsoDpSgd>(spec, shape);
    case OptimizerKind::kFixedQuantile:
      return std::make_unique<FixedQuantile>(spec, shape);
  }
  throw InvalidArgument("unknown optimizer kind " + std::to_string(static_cast<int>(spec.kind)));
}

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
  }
  return spec;
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
  throw InvalidArgument("optimizer = '" + text +
                        "' is not a known optimizer; valid names: " + valid);
}

}  // namespace dplab::optim
