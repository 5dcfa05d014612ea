// Float rows of a data set whatever its storage (dataset.h): float features are read in place,
// image bytes are converted to the features they stand for.
//
// The byte -> feature map is f(b) = b / 255 rounded to the nearest float (the IDX loader's
// scaling, paper appendix H: the maximum 255 is known a priori, so it costs no privacy). It is
// computed as the float nearest to the double product b * (1/255)_double, which is the same
// float for every byte: the product is within 2^-52 relative of b / 255, while b / 255 (a
// fraction with denominator 255) is at least 2^-33 relative away from any midpoint between two
// floats, so the second rounding cannot cross one. test_byte_storage checks all 256 bytes
// against static_cast<float>(b) / 255.0f. The double product vectorises (8 lanes) where a float
// division is several times slower, and it needs no FMA instruction (portable builds).
//
// Thread-safety: pure functions on caller-owned buffers; many threads may read one Dataset.
#pragma once

#include <cstdint>

#include "core/types.h"
#include "data/dataset.h"

namespace dplab::data {

// f(b) = b / 255 as the nearest float (see above).
inline float pixel_feature(std::uint8_t byte) {
  constexpr double kInverse255 = 1.0 / 255.0;
  return static_cast<float>(static_cast<double>(byte) * kInverse255);
}

// out[k] = pixel_feature(bytes[k]) for k < count (one vectorisable pass).
void pixels_to_features(const std::uint8_t* bytes, Index count, float* out);

// Rows [first, first + count) of the features as a float view: a view into `features` for float
// storage (no copy), else those rows converted into `scratch`, which grows (the only allocation)
// when it has fewer than `count` rows or another width. The range must lie inside the data.
MatrixView feature_rows(const Dataset& data, Index first, Index count, Matrix& scratch);

// Converts pixel storage to float storage in place (no-op for float data): for code that
// rewrites features (min-max scaling, row normalisation).
void store_as_floats(Dataset& data);

}  // namespace dplab::data
