// Convolution products without the unfolded matrix (implicit im2col), for AVX-512 builds (issue
// #49). The conv layer's three products (network_layers.h)
//   forward   Z = U W + 1 b^T            (U = unfold(X): mP x D, W: D x c_out)
//   products  G_i = U_i^T E_i            (per example, D x c_out, with ||G_i||^2)
//   input     dX = fold(E W^T)
// read U's entries straight from the (zero-bordered) input map: entry (position p, column d) is
// map[window[p] + column[d]], where window[p] is the offset of p's window in the map and
// column[d] = ky w c + kx c + ch the offset of d inside a window. A register tile of R rows x C
// vectors of 16 floats (R C <= 24 accumulators) runs one K loop per tile; each step loads C
// vectors of the vector operand and broadcasts R floats of the other into R C fused
// multiply-adds, so the operands are read where they lie, packed by nobody:
//   forward   rows = output positions, lanes = output channels, K = the window (k rows of k c);
//   products  rows = unfolded columns d, lanes = output channels, K = the example's positions;
//   input     rows = output positions, lanes = unfolded columns (whole window rows of k c
//             floats, so k c must be a multiple of 16), K = output channels; each tile is added
//             into its windows of the input-gradient map (the fold) as it leaves the registers.
// The broadcasts address their floats at constant offsets from few pointers where the geometry
// allows (an indexed operand splits the fused multiply-add in two, and one pointer per row
// spills): the products take a few window rows of consecutive columns d; the forward of a
// layer with one input channel at stride 1 or 2 takes consecutive positions of one output row
// (S floats apart); other forwards and the input gradient take a pointer per row, unrolled.
// Why: the cnn's GEMMs are narrow (conv1: 16 output channels, K = 64; conv2: K = 25 positions
// per example) and Eigen's kernels spent the step packing operands and in their 16-row edge
// kernel (4 accumulators, latency-bound): measured on the issue #30 Xeon, conv1's forward ran at
// ~40 % and its G_i at ~65 % of the 512 x 512 SGEMM peak; these tiles run at or above it
// (docs/performance.md, issue #49).
//
// Used by ConvLayer (conv_layers.cpp) when implicit_conv_supported(c_out): an AVX-512 build and
// c_out a multiple of 16; the input gradient also needs k c_in a multiple of 16
// (implicit_input_gradient_supported), else the layer forms E W^T with Eigen and folds it.
// DenseLayer (network_layers.cpp) is the 1 x 1 case: a map of 1 x 1 x d, kernel 1, so that its
// X W, X^T E and E W^T run in the same tiles (Eigen packed all of W for every block of 4 rows).
// Other builds keep the unfold + Eigen path; the functions below then throw Error.
// Internal to engine/models.
#pragma once

#include <vector>

#include "core/types.h"

namespace dplab::models::detail {

#if defined(__AVX512F__)
inline constexpr bool kImplicitConvBuild = true;
#else
inline constexpr bool kImplicitConvBuild = false;
#endif

inline bool implicit_conv_supported(Index channels_out) {
  return kImplicitConvBuild && channels_out % 16 == 0;
}
inline bool implicit_input_gradient_supported(Index kernel, Index channels_in) {
  return kImplicitConvBuild && (kernel * channels_in) % 16 == 0;
}

// The windows of a convolution over maps of map_height x map_width x channels_in (already
// padded: every window lies inside), kernel k, stride s.
struct ImplicitConv {
  Index map_width = 0, map_size = 0;  // map_size: floats of one example's map
  Index channels_in = 0, channels_out = 0, kernel = 0, stride = 0;
  Index out_height = 0, out_width = 0;
  std::vector<Index> window;  // per output position p: offset of its window's first float
  std::vector<Index> column;  // per unfolded column d: offset inside a window

  Index positions() const { return out_height * out_width; }
  Index columns() const { return kernel * kernel * channels_in; }
};
ImplicitConv make_implicit_conv(Index map_height, Index map_width, Index channels_in,
                                Index channels_out, Index kernel, Index stride);

// out (mP x c_out, row-major) = unfold(maps) W + 1 b^T; maps: m maps of map_size floats,
// w: D x c_out row-major, bias: c_out.
void implicit_forward(const ImplicitConv& g, const float* maps, Index m, const float* w,
                      const float* bias, float* out);

// product (D x c_out, row-major) = U^T E of one example (map: its map, errors: P x c_out);
// returns ||U^T E||_F^2.
double implicit_product(const ImplicitConv& g, const float* map, const float* errors,
                        float* product);

// dw (D x c_out, row-major) = or += sum_i U_i^T E_i over m examples (errors: mP x c_out).
void implicit_weight_gradient(const ImplicitConv& g, const float* maps, const float* errors,
                              Index m, bool accumulate, float* dw);

// grad_maps (m maps, laid out as `maps`) += fold(E W^T), or = when `overwrite` (only right
// when every map entry lies in exactly one window, as a dense layer's 1 x 1 "map" does);
// w_transposed: c_out x D row-major. Needs implicit_input_gradient_supported.
void implicit_input_gradient(const ImplicitConv& g, const float* errors, Index m,
                             const float* w_transposed, bool overwrite, float* grad_maps);

}  // namespace dplab::models::detail
