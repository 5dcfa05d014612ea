// Dense-layer kernels (see dense_layer.h for the rank-1 norm identity and the clipped GEMM).
#include "models/dense_layer.h"
#include "models/model.h"

#include <algorithm>
#include <cmath>

namespace dplab::models::detail {

Index rounded_capacity(Index rows) {
  constexpr Index kGranule = 256;  // lots of L = 250 fit the first granule
  return std::max(kGranule, (rows + kGranule - 1) / kGranule * kGranule);
}

void ensure_size(Vector& buffer, Index size) {
  if (buffer.size() < size) buffer.resize(rounded_capacity(size));
}

bool clip_factors(const float* squared_norms, Index m, const Clipping& clip, float* norms_out,
                  float* factors) {
  // The float-safe factor of clipping.h (kFloatSafety keeps every contribution's true norm <= C,
  // the sensitivity the noise sigma*C is calibrated for; a diverged example, inf/NaN, gets 0).
  bool any_scaled = false;
  for (Index i = 0; i < m; ++i) {
    const double norm = std::sqrt(static_cast<double>(squared_norms[i]));
    if (norms_out != nullptr) norms_out[i] = static_cast<float>(norm);
    const double c = clip.factor(norm);
    factors[i] = static_cast<float>(c);
    any_scaled = any_scaled || c != 1.0;
  }
  return any_scaled;
}

void row_squared_norms_by_columns(const float* a, Index column_stride, Index m, Index h,
                                  float* square, float* out) {
  if (h == 0) {
    for (Index i = 0; i < m; ++i) out[i] = 0.f;
    return;
  }
  for (Index i = 0; i < m; ++i) out[i] = a[i] * a[i];
  for (Index j = 1; j < h; ++j) {
    const float* column = a + j * column_stride;
    for (Index i = 0; i < m; ++i) square[i] = column[i] * column[i];
    // The squares go through memory on purpose: written as out[i] += column[i] * column[i], the
    // compiler fuses square and sum into one FMA (-ffp-contract=fast, GCC's default), which
    // rounds once instead of twice and changes the last bits of the norms.
    __asm__ __volatile__("" : : "r"(square) : "memory");
    for (Index i = 0; i < m; ++i) out[i] += square[i];
  }
}

}  // namespace dplab::models::detail
