// Reproduction variants: parsing, serialisation and application (reproduction_variants.h).
#include "experiment/reproduction_variants.h"

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_reader.h"
#include "data/feature_rows.h"

namespace dplab::experiment {
namespace {

using nlohmann::json;

}  // namespace

ReproductionVariants parse_variants(const json& j, const std::string& path) {
  JsonReader in(j, path);
  ReproductionVariants v;
  // Each key names two behaviours: index 0 is dplab's default, 1 the variant.
  if (const auto c = in.optional_choice("lot_normalization", {"expected", "realized"}))
    v.divide_by_realized_lot = *c == 1;
  if (const auto c = in.optional_choice("adam_xi", {"outside_sqrt", "inside_sqrt"}))
    v.adam_xi_inside_sqrt = *c == 1;
  if (const auto c = in.optional_choice("binary_output", {"sigmoid", "softmax"}))
    v.binary_output =
        *c == 1 ? models::BinaryOutput::kTwoClassSoftmax : models::BinaryOutput::kSigmoid;
  if (const auto c = in.optional_choice("linear_init", {"zeros", "uniform_fan_in"}))
    v.linear_init = *c == 1 ? models::LinearInit::kUniformFanIn : models::LinearInit::kZeros;
  if (const auto c = in.optional_choice("pixel_range", {"unit", "symmetric"}))
    v.pixels_symmetric = *c == 1;
  in.reject_unknown();
  return v;
}

json variants_to_json(const ReproductionVariants& v) {
  json out = json::object();
  if (v.divide_by_realized_lot) out["lot_normalization"] = "realized";
  if (v.adam_xi_inside_sqrt) out["adam_xi"] = "inside_sqrt";
  if (v.binary_output == models::BinaryOutput::kTwoClassSoftmax) out["binary_output"] = "softmax";
  if (v.linear_init == models::LinearInit::kUniformFanIn) out["linear_init"] = "uniform_fan_in";
  if (v.pixels_symmetric) out["pixel_range"] = "symmetric";
  return out;
}

std::string describe_variants(const ReproductionVariants& v) {
  std::string text;
  auto add = [&](const char* item) { text += (text.empty() ? "" : ", ") + std::string(item); };
  if (v.divide_by_realized_lot) add("divide by realized |lot| (not covered by epsilon)");
  if (v.adam_xi_inside_sqrt) add("Adam xi inside sqrt");
  if (v.binary_output == models::BinaryOutput::kTwoClassSoftmax) add("two-class softmax");
  if (v.linear_init == models::LinearInit::kUniformFanIn) add("U(+-1/sqrt(d)) init");
  if (v.pixels_symmetric) add("pixels in [-1, 1]");
  return text.empty() ? "none" : text;
}

void apply_variants(const ReproductionVariants& v, training::TrainingConfig& config) {
  config.divide_by_realized_lot = v.divide_by_realized_lot;
  config.optimizer.adam_xi_inside_sqrt = v.adam_xi_inside_sqrt;
  config.model.binary_output = v.binary_output;
  config.model.linear_init = v.linear_init;
}

void apply_data_variants(const ReproductionVariants& v, data::TrainValidationSplit& split) {
  if (!v.pixels_symmetric) return;
  for (data::Dataset* part : {&split.train, &split.validation}) {
    if (!part->stores_pixels() && part->size() > 0)
      throw InvalidArgument(
          "variants.pixel_range: \"symmetric\" applies to image data (pixels), "
          "but '" +
          part->name + "' has float features");
    data::store_as_floats(*part);
    part->features.array() = 2.0f * part->features.array() - 1.0f;  // [0, 1] -> [-1, 1]
  }
  split.notes.push_back("pixels scaled to [-1, 1] (variants.pixel_range: symmetric)");
}

}  // namespace dplab::experiment
