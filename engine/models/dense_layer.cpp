// Dense-layer kernels (see dense_layer.h for the rank-1 norm identity and the clipped GEMM).
#include "models/dense_layer.h"
#include "models/model.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace dplab::models::detail {

Index rounded_capacity(Index rows) {
  constexpr Index kGranule = 256;  // lots of L = 250 fit the first granule
  return std::max(kGranule, (rows + kGranule - 1) / kGranule * kGranule);
}

void small_head_forward(const float* a, Index lda, Index m, Index d, const float* params, Index k,
                        float* z) {
  thread_local std::vector<float> wide;  // grows once per thread and input width
  constexpr Index kWide = kSmallHeadOutputs;
  using Lane = Eigen::Array<float, kWide, 1>;  // one AVX-512 register (two AVX, four SSE)
  const auto need = static_cast<std::size_t>(d * kWide);
  if (wide.size() < need) wide.resize(need);
  float* w = wide.data();
  for (Index j = 0; j < d; ++j) {
    for (Index o = 0; o < kWide; ++o) w[j * kWide + o] = o < k ? params[j * k + o] : 0.f;
  }
  Lane bias = Lane::Zero();
  for (Index o = 0; o < k; ++o) bias[o] = params[d * k + o];
  const auto weights = [w](Index j) { return Eigen::Map<const Lane>(w + j * kWide); };
  // Eight rows at a time: eight independent sums hide the multiply-add's latency (4 cycles,
  // two per cycle on AVX-512 machines); four left half of the issue slots empty.
  Index i = 0;
  for (; i + 8 <= m; i += 8) {
    const float* r0 = a + i * lda;
    const float* r1 = r0 + lda;
    const float* r2 = r1 + lda;
    const float* r3 = r2 + lda;
    const float* r4 = r3 + lda;
    const float* r5 = r4 + lda;
    const float* r6 = r5 + lda;
    const float* r7 = r6 + lda;
    Lane s0 = bias, s1 = bias, s2 = bias, s3 = bias, s4 = bias, s5 = bias, s6 = bias, s7 = bias;
    for (Index j = 0; j < d; ++j) {
      const Lane wj = weights(j);
      s0 += r0[j] * wj;
      s1 += r1[j] * wj;
      s2 += r2[j] * wj;
      s3 += r3[j] * wj;
      s4 += r4[j] * wj;
      s5 += r5[j] * wj;
      s6 += r6[j] * wj;
      s7 += r7[j] * wj;
    }
    const Lane* sums[8] = {&s0, &s1, &s2, &s3, &s4, &s5, &s6, &s7};
    for (Index r = 0; r < 8; ++r) std::copy_n(sums[r]->data(), k, z + (i + r) * k);
  }
  for (; i < m; ++i) {
    const float* row = a + i * lda;
    Lane s = bias;
    for (Index j = 0; j < d; ++j) s += row[j] * weights(j);
    std::copy_n(s.data(), k, z + i * k);
  }
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
