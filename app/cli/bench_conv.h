// Benchmark rows of the convolutional models for `dplab-cli bench` (issue #15): per model
// (cnn; conv-autoencoder), on one thread at the given lot size, in the same run:
//   - the DP step: Poisson lot, per-example norms by mixed ghost clipping (network_layers.h),
//     clipped sum by one weighted GEMM per layer, noise, DPSGD;
//   - the non-private step (same sampling, no norms, no clipping, no noise);
//   - a naive DP step that materialises every per-example gradient (one forward/backward per
//     example, norm, scaled sum) — what a per-sample-gradient library does per example.
// Reports steps/s and the ratios DP/non-private (target <= 2.5) and naive/DP (target >= 10).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <ostream>

#include "data/dataset.h"

namespace dplab::cli {

// Prints a table to table_out (unless null) and returns the rows as JSON.
nlohmann::json bench_conv(const data::Dataset& train, double lot_size, double seconds,
                          std::ostream* table_out);

}  // namespace dplab::cli
