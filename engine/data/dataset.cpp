// Dataset checks, the seeded 80/20 split, min-max scaling and row selection (paper appendix H:
// "we split all datasets into 80% training and 20% validation sets"; features scaled to [0, 1]).
#include "data/dataset.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"
#include "data/csv_loader.h"
#include "data/feature_rows.h"
#include "data/large_buffer.h"

namespace dplab::data {
namespace {

// IEEE-754 single: infinite or NaN iff all 8 exponent bits are set.
bool all_finite(const Matrix& x) {
  const float* p = x.data();
  std::uint32_t bad = 0;
  for (Index k = 0; k < x.size(); ++k) {
    std::uint32_t bits;
    std::memcpy(&bits, p + k, sizeof bits);
    bad |= static_cast<std::uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
  }
  return bad == 0;
}

std::string label_of(const Dataset& data) {
  return data.name.empty() ? std::string("dataset") : "dataset '" + data.name + "'";
}

}  // namespace

void Dataset::validate() const {
  const std::string who = label_of(*this);
  if (stores_pixels() && features.size() > 0) {
    throw InvalidArgument(who + " holds both pixel and float features (one storage expected)");
  }
  if (size() == 0) throw InvalidArgument(who + " is empty (0 examples)");
  if (dim() == 0) throw InvalidArgument(who + " has no features (d = 0)");
  if (targets.size() != size()) {
    throw InvalidArgument(who + ": " + std::to_string(size()) + " feature rows but " +
                          std::to_string(targets.size()) + " targets");
  }
  if (num_classes < 0 || num_classes == 1) {
    throw InvalidArgument(who + ": num_classes = " + std::to_string(num_classes) +
                          " must be 0 (regression) or >= 2");
  }
  if (!feature_names.empty() && static_cast<Index>(feature_names.size()) != dim()) {
    throw InvalidArgument(who + ": " + std::to_string(feature_names.size()) +
                          " feature names for d = " + std::to_string(dim()));
  }
  if (!class_names.empty() && static_cast<int>(class_names.size()) != num_classes) {
    throw InvalidArgument(who + ": " + std::to_string(class_names.size()) +
                          " class names for num_classes = " + std::to_string(num_classes));
  }
  // Fast path: a vectorisable scan of the exponent bits (Eigen's allFinite was 6x slower on
  // Fashion-MNIST), then locate the first offender only if there is one. Pixels are finite.
  if (!stores_pixels() && !all_finite(features)) {
    for (Index i = 0; i < features.rows(); ++i) {
      for (Index j = 0; j < features.cols(); ++j) {
        if (!std::isfinite(features(i, j))) {
          throw InvalidArgument(who + ": feature (row " + std::to_string(i) + ", column " +
                                std::to_string(j) + ") = " + format_number(features(i, j)) +
                                " is not finite");
        }
      }
    }
  }
  for (Index i = 0; i < targets.size(); ++i) {
    const float t = targets[i];
    if (!std::isfinite(t)) {
      throw InvalidArgument(who + ": target of row " + std::to_string(i) + " = " +
                            format_number(t) + " is not finite");
    }
    if (num_classes > 0 && (t < 0 || t >= static_cast<float>(num_classes) || t != std::floor(t))) {
      throw InvalidArgument(who + ": target of row " + std::to_string(i) + " = " +
                            format_number(t) + " is not a class index in 0.." +
                            std::to_string(num_classes - 1));
    }
  }
}

TrainValidationSplit split_train_validation(const Dataset& all, double validation_fraction,
                                            std::uint64_t seed) {
  require_open_interval("validation_fraction", validation_fraction, 0.0, 1.0);
  const Index n = all.size();
  if (n < 2) {
    throw InvalidArgument(label_of(all) + " has " + std::to_string(n) +
                          " examples; a train/validation split needs at least 2");
  }
  // Both parts non-empty, whatever the rounding.
  const Index n_validation =
      std::clamp<Index>(std::llround(static_cast<double>(n) * validation_fraction), 1, n - 1);

  // Fisher-Yates shuffle driven by the seeded generator: identical on every platform.
  std::vector<Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Index{0});
  Rng rng(seed);
  for (Index i = n - 1; i > 0; --i) {
    const auto j = static_cast<Index>(rng.below(static_cast<std::uint64_t>(i) + 1));
    std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
  }
  const auto cut = order.begin() + (n - n_validation);
  TrainValidationSplit split{select_rows(all, std::vector<Index>(order.begin(), cut)),
                             select_rows(all, std::vector<Index>(cut, order.end())), all.notes};
  split.train.name = all.name + " (train)";
  split.validation.name = all.name + " (validation)";
  return split;
}

MinMaxScaler MinMaxScaler::fit(const Dataset& fit_on) {
  if (fit_on.size() == 0) {
    throw InvalidArgument("cannot fit a min-max scaler on " + label_of(fit_on) + ": it is empty");
  }
  MinMaxScaler scaler;
  // Plain loops over the row-major data: Eigen's AVX-512 reductions trip a false GCC 12
  // -Wmaybe-uninitialized here. Pixel data are read one converted row at a time.
  Matrix row_scratch;
  const Index d = fit_on.dim();
  Vector maximum = feature_rows(fit_on, 0, 1, row_scratch).row(0).transpose();
  scaler.minimum = maximum;
  for (Index i = 1; i < fit_on.size(); ++i) {
    const float* row = feature_rows(fit_on, i, 1, row_scratch).data();
    for (Index j = 0; j < d; ++j) {
      scaler.minimum[j] = std::min(scaler.minimum[j], row[j]);
      maximum[j] = std::max(maximum[j], row[j]);
    }
  }
  scaler.range = maximum - scaler.minimum;
  return scaler;
}

// x' = (x - min) / (max - min); constant features (range 0) map to 0. Values outside the fitted
// range (e.g. in a validation set) are not clipped, so they may leave [0, 1] slightly.
void MinMaxScaler::apply(Dataset& data) const {
  if (data.dim() != minimum.size()) {
    throw InvalidArgument("min-max scaler fitted on d = " + std::to_string(minimum.size()) +
                          " features cannot be applied to " + label_of(data) +
                          " with d = " + std::to_string(data.dim()));
  }
  store_as_floats(data);
  if (!data.feature_map.empty()) {
    throw InvalidArgument(label_of(data) + " was already scaled; a second scaling cannot be " +
                          "recorded for applying the model to new rows");
  }
  FeatureMap map;
  map.kind = FeatureMap::Kind::kMinMax;
  map.fitted_on_private_data = true;
  map.low.assign(minimum.data(), minimum.data() + minimum.size());
  map.range.assign(range.data(), range.data() + range.size());
  map.apply(data.features);
  data.feature_map = std::move(map);
}

void FeatureMap::apply(Matrix& features) const {
  if (kind == Kind::kNone) return;
  const Index d = features.cols();
  if (static_cast<Index>(low.size()) != d) {
    throw InvalidArgument("feature map of " + std::to_string(low.size()) +
                          " features cannot be applied to rows of " + std::to_string(d));
  }
  for (Index i = 0; i < features.rows(); ++i) {
    float* row = features.data() + i * d;
    for (Index j = 0; j < d; ++j) {
      const auto k = static_cast<std::size_t>(j);
      if (kind == Kind::kMinMax) {
        // Division in float, not multiplication by 1/range: the fitted maximum maps to exactly 1.
        const auto lo = static_cast<float>(low[k]), width = static_cast<float>(range[k]);
        row[j] = width > 0 ? (row[j] - lo) / width : 0.0f;
      } else if (high[k] > low[k]) {
        const double clamped = std::clamp(static_cast<double>(row[j]), low[k], high[k]);
        row[j] = static_cast<float>((clamped - low[k]) / (high[k] - low[k]));
      }
    }
  }
}

Dataset select_rows(const Dataset& all, const std::vector<Index>& rows) {
  Dataset out;
  out.name = all.name;
  out.num_classes = all.num_classes;
  out.feature_names = all.feature_names;
  out.class_names = all.class_names;
  out.feature_map = all.feature_map;
  out.csv_encoder = all.csv_encoder;
  const auto count = static_cast<Index>(rows.size());
  if (all.stores_pixels()) {
    resize_for_overwrite(out.pixels, count, all.dim());
  } else {
    resize_for_overwrite(out.features, count, all.dim());
  }
  out.targets.resize(count);
  for (Index k = 0; k < count; ++k) {
    const Index r = rows[static_cast<std::size_t>(k)];
    if (r < 0 || r >= all.size()) {
      throw InvalidArgument("select_rows: row index " + std::to_string(r) + " is outside 0.." +
                            std::to_string(all.size() - 1) + " of " + label_of(all));
    }
    if (all.stores_pixels()) {
      out.pixels.row(k) = all.pixels.row(r);
    } else {
      out.features.row(k) = all.features.row(r);
    }
    out.targets[k] = all.targets[r];
  }
  return out;
}

Dataset concatenate(const Dataset& first, const Dataset& second, const std::string& name) {
  if (first.dim() != second.dim()) {
    throw InvalidArgument("cannot concatenate " + label_of(first) +
                          " (d = " + std::to_string(first.dim()) + ") and " + label_of(second) +
                          " (d = " + std::to_string(second.dim()) + ")");
  }
  if (first.is_regression() != second.is_regression()) {
    throw InvalidArgument("cannot concatenate " + label_of(first) + " and " + label_of(second) +
                          ": one is regression, the other classification");
  }
  Dataset out;
  out.name = name;
  out.num_classes = std::max(first.num_classes, second.num_classes);
  out.feature_map = first.feature_map;
  out.csv_encoder = first.csv_encoder;
  out.feature_names = first.feature_names;
  out.notes = first.notes;
  out.encoding = first.encoding;
  out.notes.insert(out.notes.end(), second.notes.begin(), second.notes.end());
  out.class_names =
      first.num_classes >= second.num_classes ? first.class_names : second.class_names;
  if (first.stores_pixels() && second.stores_pixels()) {
    resize_for_overwrite(out.pixels, first.size() + second.size(), first.dim());
    out.pixels.topRows(first.size()) = first.pixels;
    out.pixels.bottomRows(second.size()) = second.pixels;
  } else {
    resize_for_overwrite(out.features, first.size() + second.size(), first.dim());
    Matrix scratch;
    out.features.topRows(first.size()) = feature_rows(first, 0, first.size(), scratch);
    out.features.bottomRows(second.size()) = feature_rows(second, 0, second.size(), scratch);
  }
  out.targets.resize(first.size() + second.size());
  out.targets.head(first.size()) = first.targets;
  out.targets.tail(second.size()) = second.targets;
  return out;
}

std::vector<Index> class_counts(const Dataset& data) {
  if (data.is_regression()) {
    throw InvalidArgument("class_counts: " + label_of(data) + " is a regression data set");
  }
  std::vector<Index> counts(static_cast<std::size_t>(data.num_classes), 0);
  for (Index i = 0; i < data.targets.size(); ++i) {
    const auto c = static_cast<Index>(data.targets[i]);
    if (c < 0 || c >= data.num_classes) {
      throw InvalidArgument("class_counts: target of row " + std::to_string(i) + " = " +
                            format_number(data.targets[i]) + " is not a class of " +
                            label_of(data));
    }
    ++counts[static_cast<std::size_t>(c)];
  }
  return counts;
}

InputEncoding input_encoding(const TrainValidationSplit& split) {
  const Dataset& training_data = split.train;
  InputEncoding input;
  input.feature_names = training_data.feature_names;
  input.class_names = training_data.class_names;
  input.feature_map = training_data.feature_map;
  input.pixels = training_data.stores_pixels();
  input.preprocessing = split.preprocessing.description;
  if (training_data.csv_encoder &&
      training_data.csv_encoder->feature_names() == training_data.feature_names) {
    input.csv_encoder = training_data.csv_encoder;
  }
  return input;
}

}  // namespace dplab::data
