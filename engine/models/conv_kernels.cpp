// Implicit-im2col convolution products for AVX-512 (see conv_kernels.h).
#include "models/conv_kernels.h"

#include <algorithm>

#include "core/error.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace dplab::models::detail {

ImplicitConv make_implicit_conv(Index map_height, Index map_width, Index channels_in,
                                Index channels_out, Index kernel, Index stride) {
  ImplicitConv g;
  g.map_width = map_width;
  g.map_size = map_height * map_width * channels_in;
  g.channels_in = channels_in;
  g.channels_out = channels_out;
  g.kernel = kernel;
  g.stride = stride;
  g.out_height = (map_height - kernel) / stride + 1;
  g.out_width = (map_width - kernel) / stride + 1;
  for (Index oy = 0; oy < g.out_height; ++oy) {
    for (Index ox = 0; ox < g.out_width; ++ox) {
      g.window.push_back((oy * stride * map_width + ox * stride) * channels_in);
    }
  }
  for (Index ky = 0; ky < kernel; ++ky) {
    for (Index kx = 0; kx < kernel; ++kx) {
      for (Index c = 0; c < channels_in; ++c) {
        g.column.push_back((ky * map_width + kx) * channels_in + c);
      }
    }
  }
  return g;
}

#if defined(__AVX512F__)
namespace {

constexpr int kLanes = 16;
// Accumulators per tile: of the 32 vector registers, C more hold the vector operand and one the
// broadcast.
constexpr int kAccumulators = 24;
// Tiles of arbitrary row pointers (forward, input gradient) keep the pointers in general
// registers: at most 12 rows.
constexpr int max_pointer_rows(int columns) {
  return std::min(12, kAccumulators / columns);
}
constexpr int max_grid_rows(int columns) {
  return kAccumulators / columns;
}

// acc[r][c] += sum_{s < segs, j < run} a[r][s a_seg + j] b[s b_seg + j b_el + 16 c, + 16):
// R rows at arbitrary pointers, contiguous along K. Unrolled by 8 steps, so that every broadcast
// addresses its row at a constant offset (one micro-op, no index register; an indexed operand
// splits the fused multiply-add in two) and the R pointers move once per 8 steps. Always inlined
// (both loops): out of line, the accumulators would live in memory.
template <int R, int C>
[[gnu::always_inline]] inline void pointer_rows_product(const float* const* a, Index a_seg,
                                                        const float* b, Index b_seg, Index b_el,
                                                        Index segs, Index run,
                                                        __m512 (&acc)[R][C]) {
  for (Index s = 0; s < segs; ++s) {
    const float* rows[R];
    for (int r = 0; r < R; ++r) rows[r] = a[r] + s * a_seg;
    const float* bs = b + s * b_seg;
    const auto step = [&](int u) __attribute__((always_inline)) {
      __m512 vb[C];
      for (int c = 0; c < C; ++c) vb[c] = _mm512_loadu_ps(bs + c * kLanes);
      bs += b_el;
      for (int r = 0; r < R; ++r) {
        const __m512 va = _mm512_set1_ps(rows[r][u]);
        for (int c = 0; c < C; ++c) acc[r][c] = _mm512_fmadd_ps(va, vb[c], acc[r][c]);
      }
    };
    Index j = 0;
    for (; j + 8 <= run; j += 8) {
#pragma GCC unroll 8
      for (int u = 0; u < 8; ++u) step(u);
      for (int r = 0; r < R; ++r) rows[r] += 8;
    }
    for (; j < run; ++j) {
      step(0);
      for (int r = 0; r < R; ++r) rows[r] += 1;
    }
  }
}

// acc[r1 + R1 r2][c] += sum_{s < segs, j < run} a[r2][base + s a_seg + j a_el + r1] B(c, s, j),
// B as above: R2 row pointers, each followed by R1 consecutive floats (unfolded columns d of
// one window row lie next to each other in the map). The broadcasts take constant offsets from
// R2 pointers, which move by a_el per step.
template <int R1, int R2, int C>
[[gnu::always_inline]] inline void grid_rows_product(const float* const* a, Index base, Index a_seg,
                                                     Index a_el, const float* b, Index b_seg,
                                                     Index b_el, Index segs, Index run,
                                                     __m512 (&acc)[R1 * R2][C]) {
  for (Index s = 0; s < segs; ++s) {
    const float* rows[R2];
    for (int r2 = 0; r2 < R2; ++r2) rows[r2] = a[r2] + base + s * a_seg;
    const float* bs = b + s * b_seg;
    for (Index j = 0; j < run; ++j) {
      __m512 vb[C];
      for (int c = 0; c < C; ++c) vb[c] = _mm512_loadu_ps(bs + c * kLanes);
      bs += b_el;
      for (int r2 = 0; r2 < R2; ++r2) {
        for (int r1 = 0; r1 < R1; ++r1) {
          const __m512 va = _mm512_set1_ps(rows[r2][r1]);
          for (int c = 0; c < C; ++c) {
            acc[r1 + R1 * r2][c] = _mm512_fmadd_ps(va, vb[c], acc[r1 + R1 * r2][c]);
          }
        }
        rows[r2] += a_el;
      }
    }
  }
}

// Kernel::tile<R, C>(args) for R in [1, max_pointer_rows(C)], C in [1, 4].
template <class Kernel, int C, int R = 1>
void dispatch_rows(int rows, const typename Kernel::Args& args) {
  if constexpr (R < max_pointer_rows(C)) {
    if (rows != R) return dispatch_rows<Kernel, C, R + 1>(rows, args);
  }
  Kernel::template tile<R, C>(args);
}
template <class Kernel>
void dispatch(int rows, int columns, const typename Kernel::Args& args) {
  switch (columns) {
    case 1:
      return dispatch_rows<Kernel, 1>(rows, args);
    case 2:
      return dispatch_rows<Kernel, 2>(rows, args);
    case 3:
      return dispatch_rows<Kernel, 3>(rows, args);
    default:
      return dispatch_rows<Kernel, 4>(rows, args);
  }
}
// Kernel::tile<R1, R2, C>(args) for R2 in [1, 3], R1 in [1, max_grid_rows(C) / R2].
template <class Kernel, int C, int R2, int R1 = 1>
void dispatch_grid_rows(int rows1, const typename Kernel::Args& args) {
  if constexpr (R1 < max_grid_rows(C) / R2) {
    if (rows1 != R1) return dispatch_grid_rows<Kernel, C, R2, R1 + 1>(rows1, args);
  }
  Kernel::template tile<R1, R2, C>(args);
}
template <class Kernel, int C>
void dispatch_grid_c(int rows1, int rows2, const typename Kernel::Args& args) {
  switch (rows2) {
    case 1:
      return dispatch_grid_rows<Kernel, C, 1>(rows1, args);
    case 2:
      return dispatch_grid_rows<Kernel, C, 2>(rows1, args);
    default:
      return dispatch_grid_rows<Kernel, C, 3>(rows1, args);
  }
}
template <class Kernel>
void dispatch_grid(int rows1, int rows2, int columns, const typename Kernel::Args& args) {
  switch (columns) {
    case 1:
      return dispatch_grid_c<Kernel, 1>(rows1, rows2, args);
    case 2:
      return dispatch_grid_c<Kernel, 2>(rows1, rows2, args);
    case 3:
      return dispatch_grid_c<Kernel, 3>(rows1, rows2, args);
    default:
      return dispatch_grid_c<Kernel, 4>(rows1, rows2, args);
  }
}

// Splits n rows into the fewest tiles of at most `most` rows, as even as possible (100 rows in
// tiles of <= 12: one of 12 and eight of 11, not eight of 12 and a latency-bound tile of 4), and
// calls f(first, count) for each.
template <typename F>
void for_each_tile(Index n, Index most, F&& f) {
  const Index tiles = (n + most - 1) / most;
  const Index base = n / tiles, extra = n % tiles;
  Index first = 0;
  for (Index t = 0; t < tiles; ++t) {
    const Index count = base + (t < extra ? 1 : 0);
    f(first, count);
    first += count;
  }
}

// Column groups of at most 4 vectors over `vectors` vectors: f(first vector, count).
template <typename F>
void for_each_column_group(Index vectors, F&& f, Index most = 4) {
  for (Index c0 = 0; c0 < vectors; c0 += most) f(c0, std::min<Index>(most, vectors - c0));
}

// pointers[r] = the window of flat output row first + r (example (first + r) / P) in `maps`.
// One division per tile: a division per row cost as much as a third of conv1's forward tile.
template <typename T>
void window_pointers(const ImplicitConv& g, T* maps, Index first, Index count, T** pointers) {
  const Index p = g.positions();
  Index example = first / p, position = first % p;
  for (Index r = 0; r < count; ++r) {
    pointers[r] = maps + example * g.map_size + g.window[static_cast<std::size_t>(position)];
    if (++position == p) {
      position = 0;
      ++example;
    }
  }
}

// A forward tile's R x C accumulators start at the bias (b + 16 c0: C vectors, the same for
// every row) and end as R rows of the output, `row_stride` floats apart.
template <int R, int C>
[[gnu::always_inline]] inline void start_from_bias(const float* bias, __m512 (&acc)[R][C]) {
  for (int c = 0; c < C; ++c) {
    const __m512 b = _mm512_loadu_ps(bias + c * kLanes);
    for (int r = 0; r < R; ++r) acc[r][c] = b;
  }
}
template <int R, int C>
[[gnu::always_inline]] inline void store_tile(const __m512 (&acc)[R][C], float* out,
                                              Index row_stride) {
  for (int r = 0; r < R; ++r) {
    for (int c = 0; c < C; ++c) _mm512_storeu_ps(out + r * row_stride + c * kLanes, acc[r][c]);
  }
}

struct ForwardKernel {
  struct Args {
    const ImplicitConv* g;
    const float* const* windows;  // R window pointers
    const float* w;               // W + 16 c0
    const float* bias;            // b + 16 c0
    float* out;                   // Z row of the tile's first position, + 16 c0
  };
  template <int R, int C>
  static void tile(const Args& t) {
    const ImplicitConv& g = *t.g;
    __m512 acc[R][C];
    start_from_bias<R, C>(t.bias, acc);
    const Index run = g.kernel * g.channels_in;
    pointer_rows_product<R, C>(t.windows, g.map_width * g.channels_in, t.w, run * g.channels_out,
                               g.channels_out, g.kernel, run, acc);
    store_tile<R, C>(acc, t.out, g.channels_out);
  }
};

// One input channel and stride S in {1, 2} (a first layer on grey images: the cnn's conv1): the
// rows are R consecutive positions of one output row, whose window entries lie S floats apart,
// so every broadcast takes a constant offset from one pointer. The pointer-per-row tiles above
// ran conv1's forward at ~72 % of the SGEMM peak, these at ~100 % (scratch harness).
constexpr int kMaxRowTileRows = 16;
constexpr int max_row_rows(int columns) {
  return std::min(kMaxRowTileRows, kAccumulators / columns);
}
template <Index S>
struct RowForwardKernel {
  struct Args {
    const ImplicitConv* g;
    const float* map;   // the example's map
    Index oy, ox;       // the tile's first position
    const float* w;     // W + 16 c0
    const float* bias;  // b + 16 c0
    float* out;         // Z row of the tile's first position, + 16 c0
  };
  template <int R, int C>
  static void tile(const Args& t) {
    const ImplicitConv& g = *t.g;
    __m512 acc[R][C];
    start_from_bias<R, C>(t.bias, acc);
    const float* wp = t.w;
    for (Index ky = 0; ky < g.kernel; ++ky) {
      const float* row = t.map + (S * t.oy + ky) * g.map_width + S * t.ox;
#pragma GCC unroll 8
      for (Index kx = 0; kx < g.kernel; ++kx, wp += g.channels_out) {
        __m512 vb[C];
        for (int c = 0; c < C; ++c) vb[c] = _mm512_loadu_ps(wp + c * kLanes);
        for (int r = 0; r < R; ++r) {
          const __m512 va = _mm512_set1_ps(row[r * S + kx]);
          for (int c = 0; c < C; ++c) acc[r][c] = _mm512_fmadd_ps(va, vb[c], acc[r][c]);
        }
      }
    }
    store_tile<R, C>(acc, t.out, g.channels_out);
  }
};
template <class Kernel, int C, int R = 1>
void dispatch_row_rows(int rows, const typename Kernel::Args& args) {
  if constexpr (R < max_row_rows(C)) {
    if (rows != R) return dispatch_row_rows<Kernel, C, R + 1>(rows, args);
  }
  Kernel::template tile<R, C>(args);
}
// out as implicit_forward, for one input channel and stride S: tiles along each output row, of
// at most 2 vectors of output channels.
template <Index S>
void row_forward(const ImplicitConv& g, const float* maps, Index m, const float* w,
                 const float* bias, float* out) {
  using Kernel = RowForwardKernel<S>;
  const Index p = g.positions();
  for_each_column_group(
      g.channels_out / kLanes,
      [&](Index c0, Index columns) {
        for (Index i = 0; i < m; ++i) {
          for (Index oy = 0; oy < g.out_height; ++oy) {
            for_each_tile(
                g.out_width, max_row_rows(static_cast<int>(columns)), [&](Index ox, Index count) {
                  const typename Kernel::Args args{
                      &g,
                      maps + i * g.map_size,
                      oy,
                      ox,
                      w + c0 * kLanes,
                      bias + c0 * kLanes,
                      out + (i * p + oy * g.out_width + ox) * g.channels_out + c0 * kLanes};
                  if (columns == 1) {
                    dispatch_row_rows<Kernel, 1>(static_cast<int>(count), args);
                  } else {
                    dispatch_row_rows<Kernel, 2>(static_cast<int>(count), args);
                  }
                });
          }
        }
      },
      2);
}

struct ProductKernel {
  struct Args {
    const ImplicitConv* g;
    const float* const* rows;  // R2 pointers into the first example's map: d0, d0 + run, ...
    const float* errors;       // E of the first example, + 16 c0
    Index examples;            // summed over: maps map_size apart, errors P c_out apart
    bool accumulate;           // add to dst instead of overwriting it
    float* dst;                // row d0 of the D x c_out result, + 16 c0
    __m512* squares;           // += the squares of the result (one example), or null
  };
  template <int R1, int R2, int C>
  static void tile(const Args& t) {
    constexpr int R = R1 * R2;
    const ImplicitConv& g = *t.g;
    const Index ld = g.channels_out;
    __m512 acc[R][C];
    for (int r = 0; r < R; ++r) {
      for (int c = 0; c < C; ++c) {
        acc[r][c] =
            t.accumulate ? _mm512_loadu_ps(t.dst + r * ld + c * kLanes) : _mm512_setzero_ps();
      }
    }
    const Index step = g.stride * g.channels_in, p = g.positions();
    for (Index i = 0; i < t.examples; ++i) {
      grid_rows_product<R1, R2, C>(t.rows, i * g.map_size, g.map_width * step, step,
                                   t.errors + i * p * ld, g.out_width * ld, ld, g.out_height,
                                   g.out_width, acc);
    }
    // Four partial sums of squares: one running sum would chain R C dependent multiply-adds.
    __m512 part[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(),
                      _mm512_setzero_ps()};
    for (int r = 0; r < R; ++r) {
      for (int c = 0; c < C; ++c) {
        _mm512_storeu_ps(t.dst + r * ld + c * kLanes, acc[r][c]);
        part[(r * C + c) % 4] = _mm512_fmadd_ps(acc[r][c], acc[r][c], part[(r * C + c) % 4]);
      }
    }
    if (t.squares) {
      *t.squares = _mm512_add_ps(*t.squares, _mm512_add_ps(_mm512_add_ps(part[0], part[1]),
                                                           _mm512_add_ps(part[2], part[3])));
    }
  }
};

struct InputKernel {
  struct Args {
    const ImplicitConv* g;
    const float* const* errors;  // R rows of E
    const float* w_transposed;   // W^T + 16 c0 (c_out x D)
    float* const* windows;       // R window pointers into the gradient maps
    Index first_column;          // 16 c0
    bool overwrite;              // store instead of add
  };
  template <int R, int C>
  static void tile(const Args& t) {
    const ImplicitConv& g = *t.g;
    __m512 acc[R][C];
    for (auto& row : acc) {
      for (auto& v : row) v = _mm512_setzero_ps();
    }
    pointer_rows_product<R, C>(t.errors, 0, t.w_transposed, 0, g.columns(), 1, g.channels_out, acc);
    // Column chunk c lies in one window row (k c_in is a multiple of 16): 16 contiguous floats.
    for (int r = 0; r < R; ++r) {
      for (int c = 0; c < C; ++c) {
        float* at = t.windows[r] + g.column[static_cast<std::size_t>(t.first_column + c * kLanes)];
        _mm512_storeu_ps(at,
                         t.overwrite ? acc[r][c] : _mm512_add_ps(_mm512_loadu_ps(at), acc[r][c]));
      }
    }
  }
};

}  // namespace

void implicit_forward(const ImplicitConv& g, const float* maps, Index m, const float* w,
                      const float* bias, float* out) {
  if (g.channels_in == 1 && g.stride == 1) return row_forward<1>(g, maps, m, w, bias, out);
  if (g.channels_in == 1 && g.stride == 2) return row_forward<2>(g, maps, m, w, bias, out);
  const Index p = g.positions(), vectors = g.channels_out / kLanes;
  for_each_column_group(vectors, [&](Index c0, Index columns) {
    const int most = max_pointer_rows(static_cast<int>(columns));
    for_each_tile(m * p, most, [&](Index first, Index count) {
      const float* windows[16];
      window_pointers(g, maps, first, count, windows);
      dispatch<ForwardKernel>(static_cast<int>(count), static_cast<int>(columns),
                              {&g, windows, w + c0 * kLanes, bias + c0 * kLanes,
                               out + first * g.channels_out + c0 * kLanes});
    });
  });
}

namespace {
// dst (D x c_out) = or += sum over the m examples of U_i^T E_i. Rows are the unfolded columns d,
// k window rows of run = k c_in consecutive floats each: a short run (conv1: 8) takes up to
// three window rows per tile (R1 = run, R2 rows), a long one is split into tiles of R1 columns.
void products(const ImplicitConv& g, const float* maps, const float* errors, Index m,
              bool accumulate, float* dst, __m512* squares) {
  const Index vectors = g.channels_out / kLanes, run = g.kernel * g.channels_in;
  const Index row_step = g.map_width * g.channels_in;  // from one window row to the next
  for_each_column_group(vectors, [&](Index c0, Index columns) {
    const int most = max_grid_rows(static_cast<int>(columns));
    const auto tile = [&](Index d0, Index rows1, Index rows2, const float* first) {
      const float* rows[3] = {first, first + row_step, first + 2 * row_step};
      dispatch_grid<ProductKernel>(static_cast<int>(rows1), static_cast<int>(rows2),
                                   static_cast<int>(columns),
                                   {&g, rows, errors + c0 * kLanes, m, accumulate,
                                    dst + d0 * g.channels_out + c0 * kLanes, squares});
    };
    if (2 * run <= most) {
      for_each_tile(g.kernel, std::min<Index>(3, most / run), [&](Index ky, Index count) {
        tile(ky * run, run, count, maps + ky * row_step);
      });
      return;
    }
    for (Index ky = 0; ky < g.kernel; ++ky) {
      for_each_tile(run, most, [&](Index first, Index count) {
        tile(ky * run + first, count, 1, maps + ky * row_step + first);
      });
    }
  });
}
}  // namespace

double implicit_product(const ImplicitConv& g, const float* map, const float* errors,
                        float* product) {
  __m512 squares = _mm512_setzero_ps();
  products(g, map, errors, 1, false, product, &squares);
  // Summed from memory: GCC 12's _mm512_reduce_add_ps trips -Wuninitialized (GCC PR105593).
  alignas(64) float lanes[kLanes];
  _mm512_store_ps(lanes, squares);
  double sum = 0;
  for (const float v : lanes) sum += static_cast<double>(v);
  return sum;
}

void implicit_weight_gradient(const ImplicitConv& g, const float* maps, const float* errors,
                              Index m, bool accumulate, float* dw) {
  products(g, maps, errors, m, accumulate, dw, nullptr);
}

void implicit_input_gradient(const ImplicitConv& g, const float* errors, Index m,
                             const float* w_transposed, bool overwrite, float* grad_maps) {
  const Index p = g.positions(), vectors = g.columns() / kLanes;
  for_each_column_group(vectors, [&](Index c0, Index columns) {
    const int most = max_pointer_rows(static_cast<int>(columns));
    for_each_tile(m * p, most, [&](Index first, Index count) {
      const float* rows[16];
      float* windows[16];
      window_pointers(g, grad_maps, first, count, windows);
      for (Index r = 0; r < count; ++r) rows[r] = errors + (first + r) * g.channels_out;
      dispatch<InputKernel>(
          static_cast<int>(count), static_cast<int>(columns),
          {&g, rows, w_transposed + c0 * kLanes, windows, c0 * kLanes, overwrite});
    });
  });
}

#else  // not an AVX-512 build: ConvLayer never calls these (implicit_conv_supported is false)

namespace {
[[noreturn]] void not_built() {
  throw Error("implicit convolution kernels: this build has no AVX-512 (use the unfold path)");
}
}  // namespace
void implicit_forward(const ImplicitConv&, const float*, Index, const float*, const float*,
                      float*) {
  not_built();
}
double implicit_product(const ImplicitConv&, const float*, const float*, float*) {
  not_built();
}
void implicit_weight_gradient(const ImplicitConv&, const float*, const float*, Index, bool,
                              float*) {
  not_built();
}
void implicit_input_gradient(const ImplicitConv&, const float*, Index, const float*, bool, float*) {
  not_built();
}

#endif

}  // namespace dplab::models::detail
