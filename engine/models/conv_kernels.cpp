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
// At most 24 accumulators (of 32 vector registers: C more for the vector operand, one for the
// broadcast) and 16 row pointers (general registers).
constexpr int max_rows(int columns) {
  return std::min(16, 24 / columns);
}

// acc[r][c] += sum_{s < segs, j < run} A(r, s, j) B(c, s, j), with
//   A(r, s, j) = a[r][base + s a_seg + j a_el]    (one float, broadcast)
//   B(c, s, j) = b[s b_seg + j b_el + 16 c, + 16)  (16 floats)
template <int R, int C>
inline void tile_product(const float* const* a, Index base, Index a_seg, Index a_el, const float* b,
                         Index b_seg, Index b_el, Index segs, Index run, __m512 (&acc)[R][C]) {
  const float* rows[R];
  for (int r = 0; r < R; ++r) rows[r] = a[r] + base;
  for (Index s = 0; s < segs; ++s) {
    const float* bs = b + s * b_seg;
    Index at = s * a_seg;
    for (Index j = 0; j < run; ++j, at += a_el, bs += b_el) {
      __m512 vb[C];
      for (int c = 0; c < C; ++c) vb[c] = _mm512_loadu_ps(bs + c * kLanes);
      for (int r = 0; r < R; ++r) {
        const __m512 va = _mm512_set1_ps(rows[r][at]);
        for (int c = 0; c < C; ++c) acc[r][c] = _mm512_fmadd_ps(va, vb[c], acc[r][c]);
      }
    }
  }
}

// Calls Kernel::tile<rows, columns>(args) for rows in [1, max_rows(columns)], columns in [1, 4].
template <class Kernel, int C, int R = 1>
void dispatch_rows(int rows, const typename Kernel::Args& args) {
  if constexpr (R < max_rows(C)) {
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
void for_each_column_group(Index vectors, F&& f) {
  for (Index c0 = 0; c0 < vectors; c0 += 4) f(c0, std::min<Index>(4, vectors - c0));
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
    for (int c = 0; c < C; ++c) {
      const __m512 b = _mm512_loadu_ps(t.bias + c * kLanes);
      for (int r = 0; r < R; ++r) acc[r][c] = b;
    }
    const Index run = g.kernel * g.channels_in;
    tile_product<R, C>(t.windows, 0, g.map_width * g.channels_in, 1, t.w, run * g.channels_out,
                       g.channels_out, g.kernel, run, acc);
    for (int r = 0; r < R; ++r) {
      for (int c = 0; c < C; ++c) {
        _mm512_storeu_ps(t.out + r * g.channels_out + c * kLanes, acc[r][c]);
      }
    }
  }
};

struct ProductKernel {
  struct Args {
    const ImplicitConv* g;
    const float* const* columns;  // R pointers map + column[d] (of the first example)
    const float* errors;          // E of the first example, + 16 c0
    Index examples;               // summed over: maps map_size apart, errors P c_out apart
    bool accumulate;              // add to dst instead of overwriting it
    float* dst;                   // row d0 of the D x c_out result, + 16 c0
    __m512* squares;              // += the squares of the result (one example), or null
  };
  template <int R, int C>
  static void tile(const Args& t) {
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
      tile_product<R, C>(t.columns, i * g.map_size, g.map_width * step, step, t.errors + i * p * ld,
                         g.out_width * ld, ld, g.out_height, g.out_width, acc);
    }
    for (int r = 0; r < R; ++r) {
      for (int c = 0; c < C; ++c) {
        _mm512_storeu_ps(t.dst + r * ld + c * kLanes, acc[r][c]);
        if (t.squares) *t.squares = _mm512_fmadd_ps(acc[r][c], acc[r][c], *t.squares);
      }
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
  };
  template <int R, int C>
  static void tile(const Args& t) {
    const ImplicitConv& g = *t.g;
    __m512 acc[R][C];
    for (auto& row : acc) {
      for (auto& v : row) v = _mm512_setzero_ps();
    }
    tile_product<R, C>(t.errors, 0, 0, 1, t.w_transposed, 0, g.columns(), 1, g.channels_out, acc);
    // Column chunk c lies in one window row (k c_in is a multiple of 16): 16 contiguous floats.
    for (int r = 0; r < R; ++r) {
      for (int c = 0; c < C; ++c) {
        float* at = t.windows[r] + g.column[t.first_column + c * kLanes];
        _mm512_storeu_ps(at, _mm512_add_ps(_mm512_loadu_ps(at), acc[r][c]));
      }
    }
  }
};

}  // namespace

void implicit_forward(const ImplicitConv& g, const float* maps, Index m, const float* w,
                      const float* bias, float* out) {
  const Index p = g.positions(), vectors = g.channels_out / kLanes;
  for_each_column_group(vectors, [&](Index c0, Index columns) {
    for_each_tile(m * p, max_rows(static_cast<int>(columns)), [&](Index first, Index count) {
      const float* windows[16];
      for (Index r = 0; r < count; ++r) {
        const Index row = first + r;
        windows[r] = maps + (row / p) * g.map_size + g.window[static_cast<std::size_t>(row % p)];
      }
      dispatch<ForwardKernel>(static_cast<int>(count), static_cast<int>(columns),
                              {&g, windows, w + c0 * kLanes, bias + c0 * kLanes,
                               out + first * g.channels_out + c0 * kLanes});
    });
  });
}

namespace {
void products(const ImplicitConv& g, const float* maps, const float* errors, Index m,
              bool accumulate, float* dst, __m512* squares) {
  const Index vectors = g.channels_out / kLanes;
  for_each_column_group(vectors, [&](Index c0, Index columns) {
    for_each_tile(g.columns(), max_rows(static_cast<int>(columns)), [&](Index first, Index count) {
      const float* columns_at[16];
      for (Index r = 0; r < count; ++r) {
        columns_at[r] = maps + g.column[static_cast<std::size_t>(first + r)];
      }
      dispatch<ProductKernel>(static_cast<int>(count), static_cast<int>(columns),
                              {&g, columns_at, errors + c0 * kLanes, m, accumulate,
                               dst + first * g.channels_out + c0 * kLanes, squares});
    });
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
                             const float* w_transposed, float* grad_maps) {
  const Index p = g.positions(), vectors = g.columns() / kLanes;
  for_each_column_group(vectors, [&](Index c0, Index columns) {
    for_each_tile(m * p, max_rows(static_cast<int>(columns)), [&](Index first, Index count) {
      const float* rows[16];
      float* windows[16];
      for (Index r = 0; r < count; ++r) {
        const Index row = first + r;
        rows[r] = errors + row * g.channels_out;
        windows[r] =
            grad_maps + (row / p) * g.map_size + g.window[static_cast<std::size_t>(row % p)];
      }
      dispatch<InputKernel>(static_cast<int>(count), static_cast<int>(columns),
                            {&g, rows, w_transposed + c0 * kLanes, windows, c0 * kLanes});
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
void implicit_input_gradient(const ImplicitConv&, const float*, Index, const float*, float*) {
  not_built();
}

#endif

}  // namespace dplab::models::detail
