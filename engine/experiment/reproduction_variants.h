// Reproduction variants: explicit, non-default switches for the details of the main paper
// (Mohapatra et al. 2022) that can move its accuracy numbers, so that each can be run and
// measured on its own (docs/reproduction.md). None is a default; none changes the accountant.
//
//   lot_normalization  "expected" (default): g~ = (S + N(0, sigma^2 C^2 I)) / L, the analysed
//                      Gaussian mechanism and the paper's code (pyvacy divides by minibatch_size);
//                      "realized": / max(|lot|, 1), Algorithm 2 line 8 as printed. The epsilon
//                      of the accountant does not cover it (|lot| is data-dependent), so it is
//                      refused in private release mode.
//   adam_xi            "outside_sqrt" (default): alpha m^ / (sqrt(v^) + xi) (Kingma & Ba, PyTorch,
//                      the paper's code); "inside_sqrt": alpha m^ / sqrt(v^ + xi) (section 6.1).
//   binary_output      "sigmoid" (default): one logit; "softmax": two logits with softmax
//                      cross-entropy (the paper's code: Linear(d, 2) + CrossEntropyLoss), which
//                      doubles the effective step on w_1 - w_0 (models/model.h). Logistic only.
//   linear_init        "zeros" (default) | "uniform_fan_in": W, b ~ U(-1/sqrt(d), 1/sqrt(d)),
//                      torch.nn.Linear's default (the paper's code). Logistic only.
//   pixel_range        "unit" (default): pixel features b / 255 in [0, 1] (appendix H);
//                      "symmetric": 2 b / 255 - 1 in [-1, 1], what the paper's code feeds its
//                      models (torchvision Normalize((0.5,), (0.5,)) on MNIST). Image data only,
//                      both splits (apply_data_variants). A fixed map of public constants, so no
//                      privacy cost; clipping bounds each example's gradient whatever its range.
//
// JSON: "variants": {"lot_normalization": ..., "adam_xi": ..., "binary_output": ...,
// "linear_init": ..., "pixel_range": ...}; every key optional; unknown keys and values are errors
// naming the key.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "data/dataset.h"
#include "training/trainer.h"

namespace dplab::experiment {

struct ReproductionVariants {
  bool divide_by_realized_lot = false;
  bool adam_xi_inside_sqrt = false;
  models::BinaryOutput binary_output = models::BinaryOutput::kSigmoid;
  models::LinearInit linear_init = models::LinearInit::kZeros;
  bool pixels_symmetric = false;  // pixel_range "symmetric"

  bool is_default() const { return *this == ReproductionVariants{}; }
  bool operator==(const ReproductionVariants& other) const = default;
};

// Parses the "variants" object; throws ParseError naming the key, e.g.
// `variants.adam_xi: unknown value "inside" (expected outside_sqrt or inside_sqrt)`.
ReproductionVariants parse_variants(const nlohmann::json& j, const std::string& path = "variants");
// Only the keys that differ from the defaults (an all-default object is {}).
nlohmann::json variants_to_json(const ReproductionVariants& variants);
// "realized lot, xi inside sqrt, ..." for output headers; "none" when all are defaults.
std::string describe_variants(const ReproductionVariants& variants);

// Sets the variant fields of one job's training configuration (model, optimizer, oracle).
void apply_variants(const ReproductionVariants& variants, training::TrainingConfig& config);
// Applies the data variants (pixel_range) to both parts of a loaded split, in place. Throws
// InvalidArgument naming "variants.pixel_range" when "symmetric" meets data without pixels.
void apply_data_variants(const ReproductionVariants& variants, data::TrainValidationSplit& split);

}  // namespace dplab::experiment
