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

bool clip_factors(const float* squared_norms, Index m, double clip, float* norms_out,
                  float* factors) {
  // Conservative side: the float kernels know ||g_i|| only to ~1e-6 relative, so a gradient
  // clipped exactly to C could end up a hair above it. Clipping to C (1 - 1e-5) keeps every
  // contribution's true norm <= C, the sensitivity the noise sigma*C is calibrated for.
  constexpr double kFloatSafety = 1.0 - 1e-5;
  const double target = clip * kFloatSafety;
  bool any_clipped = false;
  for (Index i = 0; i < m; ++i) {
    const double norm = std::sqrt(static_cast<double>(squared_norms[i]));
    if (norms_out != nullptr) norms_out[i] = static_cast<float>(norm);
    if (!std::isfinite(norm) && clip != kNoClipping) {
      // A diverged example (inf/NaN gradient) cannot be scaled to norm C: drop it (c_i = 0),
      // which keeps the sum's sensitivity bounded by C.
      factors[i] = 0.f;
      any_clipped = true;
    } else if (norm > target) {
      // false for clip = +inf and for norm = 0 (clip > 0): c_i = 1 then.
      factors[i] = static_cast<float>(target / norm);
      any_clipped = true;
    } else {
      factors[i] = 1.f;
    }
  }
  return any_clipped;
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
