#include "experiment/hyperparameter_transfer.h"

#include "core/error.h"
#include "core/validate.h"

namespace dplab::experiment {

std::string to_string(LearningRateTransfer rule) {
  switch (rule) {
    case LearningRateTransfer::kInverseFraction:
      return "inverse_fraction";
    case LearningRateTransfer::kKeep:
      return "keep";
    case LearningRateTransfer::kFactor:
      return "factor";
  }
  return "?";
}

LearningRateTransfer parse_learning_rate_transfer(const std::string& text) {
  if (text == "inverse_fraction") return LearningRateTransfer::kInverseFraction;
  if (text == "keep") return LearningRateTransfer::kKeep;
  if (text == "factor") return LearningRateTransfer::kFactor;
  throw InvalidArgument("lr_transfer: unknown rule \"" + text +
                        "\" (expected inverse_fraction, keep or factor)");
}

double learning_rate_multiplier(const HyperparameterTransfer& transfer, double tuning_fraction) {
  require_left_open_interval("tuning_fraction", tuning_fraction, 0.0, 1.0);
  switch (transfer.rule) {
    case LearningRateTransfer::kInverseFraction:
      return 1.0 / tuning_fraction;
    case LearningRateTransfer::kKeep:
      return 1.0;
    case LearningRateTransfer::kFactor:
      require_positive("lr_transfer_factor", transfer.factor);
      return transfer.factor;
  }
  return 1.0;
}

std::string describe_transfer(const HyperparameterTransfer& transfer, double tuning_fraction) {
  return "learning rate x " + format_number(learning_rate_multiplier(transfer, tuning_fraction)) +
         " (heuristic: " + to_string(transfer.rule) + ")";
}

}  // namespace dplab::experiment
