// Benchmark rows of the convolutional models for `dplab-cli bench` (issue #15): per model
// (cnn; conv-autoencoder; wide-cnn at min(L, kWideCnnLotSize), its row's "lot_size"), on one
// thread at the given lot size, in the same run:
//   - the DP step: Poisson lot, per-example norms by mixed ghost clipping (network_layers.h),
//     clipped sum by one weighted GEMM per layer, noise, DPSGD;
//   - the non-private step (same sampling, no norms, no clipping, no noise);
//   - a naive DP step that materialises every per-example gradient (one forward/backward per
//     example, norm, scaled sum) — what a per-sample-gradient library does per example.
// Reports steps/s, the ratios DP/non-private and naive/DP, and GFLOP/s of each step with its
// fraction of the square SGEMM peak (bench_peak.h) timed in the same rounds as the two steps
// (issue #30; bench_timing.h), so the share cannot move with the machine's speed state. The FLOP
// count is that of the step's GEMMs, 2 M N K each, per layer (Layer::gemm_flops: forward, input
// gradient except the first layer's, and the weight gradient — for the DP step the per-example
// norms and clipped sum as each layer computes them), times the expected lot size L; pooling,
// activations, unfold/fold, noise and the update are not counted. The naive step does the
// non-private step's products one example at a time, so it is given the same count. Threads: the DP
// and non-private steps are timed on one thread and again on `threads` threads
// (models::BatchParallelModel: the lot's rows split over a TBB arena), with the speed-up; the
// naive baseline and the SGEMM peak are one thread.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <ostream>

#include "data/dataset.h"

namespace dplab::cli {

// The wide-cnn's lot size in the bench: its DP step is ~11x the conv-autoencoder's per example
// (549,994 parameters, 3x3 convs of 32..128 channels on 28x28..7x7), so at L = 250 its row alone
// would take longer than all the others.
inline constexpr double kWideCnnLotSize = 32;

// Prints a table to table_out (unless null) and returns the rows as JSON.
// threads >= 2: the batch-parallel timings (1 = one thread only).
nlohmann::json bench_conv(const data::Dataset& train, double lot_size, double seconds, int threads,
                          std::ostream* table_out);

}  // namespace dplab::cli
