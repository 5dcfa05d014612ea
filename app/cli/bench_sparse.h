// Benchmark row of the sparse vector technique for `dplab-cli bench` (issue #16): NumericSparse
// selecting c1 = k = floor(gamma p) coordinates of a sparse gradient, on the word2vec model's
// shape (p = 1,000 words x 100 dims = 100,000; gamma = 0.001, so k = 100; the lot touches
// 2,000 or 20,000 coordinates (20 examples x <= 10 rows x 100), every other one is 0), at the
// default threshold. In the same run:
//   - the fast scan (SparseVector::select: one geometric jump per run of untouched coordinates,
//     O(touched + k)),
//   - the textbook full scan (select_by_full_scan: one Laplace draw per coordinate, O(p)),
// reported as selections/s and the ratio full/fast (how many times faster SVT selection got).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <ostream>

namespace dplab::cli {

// Prints a table to table_out (unless null) and returns the rows as JSON.
nlohmann::json bench_sparse_selection(double seconds, std::ostream* table_out);

}  // namespace dplab::cli
