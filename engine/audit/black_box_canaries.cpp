#include "audit/black_box_canaries.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "audit/label_canary.h"
#include "core/error.h"
#include "core/random.h"
#include "data/feature_rows.h"

namespace dplab::audit {
namespace {

// Seed streams, derived from the audit seed (the one-run audit's since it had black-box mode, so
// a mislabelled audit draws the same canaries and coins as before crafted canaries existed).
constexpr std::uint64_t kPoolStream = 11;
constexpr std::uint64_t kCoinStream = 12;

constexpr double kCraftedCanaryValue = 10;  // far outside the [0, 1] of scaled features

// `d` with `extra` features appended, 0 in every row, in float storage (pixel data are converted:
// a crafted canary's value s = 10 is beyond what a byte holds). The data's feature map and CSV
// encoding describe d features, not d + extra: dropped (the audit writes no model files).
data::Dataset with_zero_features(const data::Dataset& d, Index extra) {
  data::Dataset out = d;
  data::store_as_floats(out);
  Matrix padded = Matrix::Zero(out.size(), out.dim() + extra);
  padded.leftCols(out.dim()) = out.features;
  out.features = std::move(padded);
  if (!out.feature_names.empty())
    for (Index j = 0; j < extra; ++j)
      out.feature_names.push_back("audit canary " + std::to_string(j));
  out.feature_map = {};
  out.csv_encoder = nullptr;
  return out;
}

// Canary i = s e_{d+i}, label 0 (`like`: the padded data, d + m features).
data::Dataset crafted_rows(const data::Dataset& like, Index original_dim, int canaries) {
  data::Dataset rows;
  rows.name = "crafted canaries";
  rows.num_classes = like.num_classes;
  rows.feature_names = like.feature_names;
  rows.class_names = like.class_names;
  rows.features = Matrix::Zero(canaries, like.dim());
  for (Index i = 0; i < canaries; ++i)
    rows.features(i, original_dim + i) = static_cast<float>(kCraftedCanaryValue);
  rows.targets = Vector::Zero(canaries);
  return rows;
}

}  // namespace

double crafted_canary_value() {
  return kCraftedCanaryValue;
}

BlackBoxCanarySet make_black_box_canaries(const data::TrainValidationSplit& data, int canaries,
                                          BlackBoxCanaries kind, const models::ModelSpec& model,
                                          std::uint64_t seed) {
  if (data.train.is_regression()) {
    throw InvalidArgument(
        "black-box canaries are labelled examples: a classification data set is needed");
  }
  BlackBoxCanarySet set;
  set.kind = kind;
  set.data = data;
  std::vector<Index> canary_rows, included_rows;
  Rng coin(derive_seed(seed, kCoinStream));
  for (Index i = 0; i < canaries; ++i) {
    canary_rows.push_back(i);
    set.included.push_back((coin() >> 63) != 0);  // S_i: one fair bit
    if (set.included.back()) included_rows.push_back(i);
  }
  if (kind == BlackBoxCanaries::kMislabelled) {
    if (data.validation.size() < canaries) {
      throw InvalidArgument("the validation set has " + std::to_string(data.validation.size()) +
                            " rows; mislabelled black-box canaries are " +
                            std::to_string(canaries) + " of them");
    }
    const int classes = std::max(2, data.train.num_classes);
    const data::Dataset pool =
        make_mislabelled_pool(data.validation, classes, derive_seed(seed, kPoolStream));
    set.canaries = data::select_rows(pool, canary_rows);
  } else {
    if (model.kind != models::ModelKind::kLogisticRegression &&
        model.kind != models::ModelKind::kTwoLayerNetwork) {
      throw InvalidArgument(
          "crafted black-box canaries sit on extra input features, which only a "
          "dense model (logistic, tlnn) reads as plain features; model '" +
          models::to_string(model.kind) + "' cannot take them");
    }
    set.data.train = with_zero_features(data.train, canaries);
    set.data.validation = with_zero_features(data.validation, canaries);
    set.canaries = crafted_rows(set.data.train, data.train.dim(), canaries);
  }
  if (!included_rows.empty()) {
    const data::Dataset train = set.data.train;
    set.data.train =
        data::concatenate(train, data::select_rows(set.canaries, included_rows), train.name);
    set.data.train.num_classes = train.num_classes;
  }
  return set;
}

std::vector<double> black_box_scores(models::Model& model, const data::Dataset& canaries) {
  std::vector<double> scores = example_losses(model, canaries);
  for (double& s : scores) s = std::isfinite(s) ? -s : -std::numeric_limits<double>::max();
  return scores;
}

}  // namespace dplab::audit
