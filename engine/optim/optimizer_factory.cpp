// make_optimizer: the one place that maps an OptimizerKind to its class. Names and defaults
// (parse_optimizer_kind / to_string / default_spec, following the papers) are in
// optimizer_kind.cpp.
#include <string>

#include "core/error.h"
#include "optim/adadp.h"
#include "optim/dp_adam.h"
#include "optim/dp_adam_bc.h"
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
    case OptimizerKind::kDpAdamBc:
      return std::make_unique<DpAdamBc>(spec, shape);
  }
  throw InvalidArgument("unknown optimizer kind " + std::to_string(static_cast<int>(spec.kind)));
}

}  // namespace dplab::optim
