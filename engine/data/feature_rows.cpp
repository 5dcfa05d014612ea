// Byte -> float feature conversion and float views of either storage (see feature_rows.h).
#include "data/feature_rows.h"

#include "data/large_buffer.h"

namespace dplab::data {

void pixels_to_features(const std::uint8_t* bytes, Index count, float* out) {
  for (Index k = 0; k < count; ++k) out[k] = pixel_feature(bytes[k]);
}

MatrixView feature_rows(const Dataset& data, Index first, Index count, Matrix& scratch) {
  if (!data.stores_pixels()) return data.features.middleRows(first, count);
  const Index d = data.dim();
  if (scratch.rows() < count || scratch.cols() != d) scratch.resize(count, d);
  if (count > 0) pixels_to_features(data.pixels.data() + first * d, count * d, scratch.data());
  return scratch.topRows(count);
}

void store_as_floats(Dataset& data) {
  if (!data.stores_pixels()) return;
  resize_for_overwrite(data.features, data.pixels.rows(), data.pixels.cols());
  pixels_to_features(data.pixels.data(), data.pixels.size(), data.features.data());
  data.pixels = PixelMatrix();
}

}  // namespace dplab::data
