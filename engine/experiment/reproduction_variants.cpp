// Reproduction variants: parsing, serialisation and application (reproduction_variants.h).
#include "experiment/reproduction_variants.h"

#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "core/json_guard.h"
#include "data/feature_rows.h"

namespace dplab::experiment {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw ParseError(path + ": " + message);
}

// Reads a two-valued string key: returns true for `second`, false for `first`.
bool choice(const json& j, const std::string& path, const char* first, const char* second) {
  if (!j.is_string()) fail(path, "expected a string, got " + json_excerpt(j, 60));
  const std::string text = j.get<std::string>();
  if (text == first) return false;
  if (text == second) return true;
  fail(path, "unknown value \"" + text + "\" (expected " + first + " or " + second + ")");
}

}  // namespace

ReproductionVariants parse_variants(const json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "expected an object, got " + json_excerpt(j, 60));
  static const std::set<std::string> kKeys{"lot_normalization", "adam_xi", "binary_output",
                                           "linear_init", "pixel_range"};
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!kKeys.count(it.key())) {
      fail(path + "." + it.key(),
           "unknown key (expected lot_normalization, adam_xi, binary_output, linear_init or "
           "pixel_range)");
    }
  }
  ReproductionVariants v;
  if (auto it = j.find("lot_normalization"); it != j.end())
    v.divide_by_realized_lot = choice(*it, path + ".lot_normalization", "expected", "realized");
  if (auto it = j.find("adam_xi"); it != j.end())
    v.adam_xi_inside_sqrt = choice(*it, path + ".adam_xi", "outside_sqrt", "inside_sqrt");
  if (auto it = j.find("binary_output"); it != j.end())
    v.binary_output = choice(*it, path + ".binary_output", "sigmoid", "softmax")
                          ? models::BinaryOutput::kTwoClassSoftmax
                          : models::BinaryOutput::kSigmoid;
  if (auto it = j.find("linear_init"); it != j.end())
    v.linear_init = choice(*it, path + ".linear_init", "zeros", "uniform_fan_in")
                        ? models::LinearInit::kUniformFanIn
                        : models::LinearInit::kZeros;
  if (auto it = j.find("pixel_range"); it != j.end())
    v.pixels_symmetric = choice(*it, path + ".pixel_range", "unit", "symmetric");
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
