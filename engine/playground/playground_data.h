// The Playground's data (issue #27): small two-class problems in the plane, generated from a seed
// in the engine (dplab::Rng only, identical on every platform), in the spirit of TensorFlow
// Playground's data sets. Points lie in about [-1, 1]^2; labels are 0 / 1.
//
//   two Gaussians  class 0 ~ N((-0.5, -0.5), 0.3^2 I), class 1 ~ N((0.5, 0.5), 0.3^2 I)
//   circles        class 0: radius ~ U(0, 0.45), class 1: radius ~ U(0.65, 1), angle ~ U(0, 2 pi)
//   XOR            (x, y) ~ U(-1, 1)^2 pushed 0.05 away from the axes, label = [x y > 0]
//   spiral         two interleaved arms: t ~ U(0, 1), r = 0.1 + 0.9 t, angle = 3.5 pi t + k pi
//                  (k = the class), plus N(0, 0.04^2) jitter per coordinate
//
// Classes alternate (example i has class i mod 2) so both have n / 2 points. Then:
//   minority  a fraction f of the points, drawn last, is replaced by a small cluster of class 1
//             at (-0.75, 0.35) (std 0.08), group 1 (everything else is group 0): a minority
//             whose accuracy DP hurts first (Bagdasaryan, Poursaeed & Shmatikov 2019);
//   label noise  each label flipped with probability p in [0, 0.5];
//   split     a seeded permutation puts round(test_fraction n) points in the test set;
//   outlier   an optional extra TRAINING point (x, y, label) appended last, never flipped.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/types.h"

namespace dplab::playground {

enum class DataShape { kGaussians, kCircles, kXor, kSpiral };

inline constexpr DataShape kAllDataShapes[] = {DataShape::kGaussians, DataShape::kCircles,
                                               DataShape::kXor, DataShape::kSpiral};
// "gaussians" | "circles" | "xor" | "spiral"
std::string to_string(DataShape shape);
// Throws InvalidArgument "unknown data set ..." for an unknown name (the reader adds the key).
DataShape parse_data_shape(const std::string& text);

inline constexpr Index kMinPoints = 50;
inline constexpr Index kMaxPoints = 2000;

struct OutlierPoint {
  double x = 0, y = 0;
  int label = 0;
  bool operator==(const OutlierPoint&) const = default;
};

struct DataOptions {
  DataShape shape = DataShape::kGaussians;
  Index num_points = 400;        // n, in [kMinPoints, kMaxPoints] (the outlier is extra)
  double label_noise = 0.0;      // flip probability, [0, 0.5]
  double test_fraction = 0.3;    // (0, 0.9]
  double minority_fraction = 0;  // [0, 0.3]
  std::optional<OutlierPoint> outlier;
  std::uint64_t seed = 1;
  bool operator==(const DataOptions&) const = default;
};

// Points with labels and groups (0 = majority, 1 = minority cluster).
struct PointSet {
  Matrix xy;  // m x 2
  Vector labels;
  std::vector<int> groups;
  Index size() const { return xy.rows(); }
};

struct PlaygroundData {
  DataOptions options;
  PointSet train, test;
  Index outlier_index = -1;  // row of the outlier in train, -1 when none
};

// Throws InvalidArgument naming "data.<field>" for an option out of range.
void validate_data_options(const DataOptions& options);

// Training points of these options (test split taken out, the outlier added) without generating.
Index train_size_of(const DataOptions& options);

// Validates the options and generates the split.
PlaygroundData make_playground_data(const DataOptions& options);

}  // namespace dplab::playground
