#include "playground/playground_data.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <numeric>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/random.h"
#include "core/validate.h"

namespace dplab::playground {
namespace {

constexpr double kPi = std::numbers::pi;

// One standard normal (Box-Muller, cosine branch; u1 in (0, 1] so the log is finite).
double normal(Rng& rng) {
  const double u1 = rng.uniform_open_zero();
  const double u2 = rng.uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
}

struct Point {
  double x, y;
};

Point draw(DataShape shape, int label, Rng& rng) {
  switch (shape) {
    case DataShape::kGaussians: {
      const double centre = label == 0 ? -0.5 : 0.5;
      return {centre + 0.3 * normal(rng), centre + 0.3 * normal(rng)};
    }
    case DataShape::kCircles: {
      const double radius = label == 0 ? 0.45 * rng.uniform() : 0.65 + 0.35 * rng.uniform();
      const double angle = 2.0 * kPi * rng.uniform();
      return {radius * std::cos(angle), radius * std::sin(angle)};
    }
    case DataShape::kXor: {
      // A quadrant of the label's sign pattern, at least 0.05 from both axes.
      const double ax = 0.05 + 0.95 * rng.uniform();
      const double ay = 0.05 + 0.95 * rng.uniform();
      const bool x_positive = rng.uniform() < 0.5;
      const bool y_positive = label == 1 ? x_positive : !x_positive;  // label = [x y > 0]
      return {x_positive ? ax : -ax, y_positive ? ay : -ay};
    }
    case DataShape::kSpiral: {
      const double t = rng.uniform();
      const double radius = 0.1 + 0.9 * t;
      const double angle = 3.5 * kPi * t + label * kPi;
      return {radius * std::cos(angle) + 0.04 * normal(rng),
              radius * std::sin(angle) + 0.04 * normal(rng)};
    }
  }
  return {0, 0};
}

}  // namespace

void validate_data_options(const DataOptions& o) {
  if (o.num_points < kMinPoints || o.num_points > kMaxPoints) {
    fail_field(
        "data.num_points", static_cast<double>(o.num_points),
        "must be between " + std::to_string(kMinPoints) + " and " + std::to_string(kMaxPoints));
  }
  require_finite("data.label_noise", o.label_noise);
  if (o.label_noise < 0 || o.label_noise > 0.5) {
    fail_field("data.label_noise", o.label_noise, "must be in [0, 0.5]");
  }
  require_left_open_interval("data.test_fraction", o.test_fraction, 0.0, 0.9);
  require_finite("data.minority_fraction", o.minority_fraction);
  if (o.minority_fraction < 0 || o.minority_fraction > 0.3) {
    fail_field("data.minority_fraction", o.minority_fraction, "must be in [0, 0.3]");
  }
  if (o.outlier) {
    require_finite("data.outlier.x", o.outlier->x);
    require_finite("data.outlier.y", o.outlier->y);
    if (o.outlier->label != 0 && o.outlier->label != 1) {
      fail_field("data.outlier.label", o.outlier->label, "must be 0 or 1");
    }
  }
}

namespace {

PointSet select(const Matrix& xy, const Vector& labels, const std::vector<int>& groups,
                const std::vector<Index>& rows) {
  PointSet out;
  const Index m = static_cast<Index>(rows.size());
  out.xy.resize(m, 2);
  out.labels.resize(m);
  out.groups.resize(rows.size());
  for (Index i = 0; i < m; ++i) {
    const Index r = rows[static_cast<std::size_t>(i)];
    out.xy.row(i) = xy.row(r);
    out.labels[i] = labels[r];
    out.groups[static_cast<std::size_t>(i)] = groups[static_cast<std::size_t>(r)];
  }
  return out;
}

}  // namespace

std::string to_string(DataShape shape) {
  switch (shape) {
    case DataShape::kGaussians:
      return "gaussians";
    case DataShape::kCircles:
      return "circles";
    case DataShape::kXor:
      return "xor";
    case DataShape::kSpiral:
      return "spiral";
  }
  return "?";
}

DataShape parse_data_shape(const std::string& text) {
  for (DataShape shape : kAllDataShapes) {
    if (to_string(shape) == text) return shape;
  }
  // No key path here (the reader adds it); the name as a bounded excerpt.
  throw InvalidArgument("unknown data set " + json_excerpt(nlohmann::json(text)) +
                        " (expected gaussians, circles, xor or spiral)");
}

Index train_size_of(const DataOptions& options) {
  const Index n = options.num_points;
  const Index test_size =
      std::clamp<Index>(static_cast<Index>(std::llround(options.test_fraction * n)), 1, n - 1);
  return n - test_size + (options.outlier ? 1 : 0);
}

PlaygroundData make_playground_data(const DataOptions& options) {
  validate_data_options(options);
  const Index n = options.num_points;
  // Separate streams: points, labels noise and split do not shift when another option changes.
  Rng point_rng(derive_seed(options.seed, 1));
  Rng noise_rng(derive_seed(options.seed, 2));
  Rng split_rng(derive_seed(options.seed, 3));
  Matrix xy(n, 2);
  Vector labels(n);
  std::vector<int> groups(static_cast<std::size_t>(n), 0);
  const Index minority = static_cast<Index>(std::llround(options.minority_fraction * n));
  for (Index i = 0; i < n; ++i) {
    int label = static_cast<int>(i % 2);
    Point p;
    if (i >= n - minority) {
      label = 1;
      p = {-0.75 + 0.08 * normal(point_rng), 0.35 + 0.08 * normal(point_rng)};
      groups[static_cast<std::size_t>(i)] = 1;
    } else {
      p = draw(options.shape, label, point_rng);
    }
    if (noise_rng.uniform() < options.label_noise) label = 1 - label;
    xy(i, 0) = static_cast<float>(p.x);
    xy(i, 1) = static_cast<float>(p.y);
    labels[i] = static_cast<float>(label);
  }
  // Fisher-Yates permutation; the first round(test_fraction n) rows are the test set.
  std::vector<Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Index{0});
  for (Index i = n - 1; i > 0; --i) {
    const auto j = static_cast<Index>(split_rng.below(static_cast<std::uint64_t>(i + 1)));
    std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
  }
  const Index test_size = n + (options.outlier ? 1 : 0) - train_size_of(options);
  std::vector<Index> test_rows(order.begin(), order.begin() + test_size);
  std::vector<Index> train_rows(order.begin() + test_size, order.end());
  PlaygroundData data;
  data.options = options;
  data.test = select(xy, labels, groups, test_rows);
  data.train = select(xy, labels, groups, train_rows);
  if (options.outlier) {
    const Index m = data.train.size();
    data.train.xy.conservativeResize(m + 1, 2);
    data.train.labels.conservativeResize(m + 1);
    data.train.xy(m, 0) = static_cast<float>(options.outlier->x);
    data.train.xy(m, 1) = static_cast<float>(options.outlier->y);
    data.train.labels[m] = static_cast<float>(options.outlier->label);
    data.train.groups.push_back(0);
    data.outlier_index = m;
  }
  return data;
}

}  // namespace dplab::playground
