// gather_lot: copies the rows of one lot (indices from a sampler) out of the training set into a
// contiguous row-major buffer, the input of the step's GEMMs. For a training matrix much larger
// than the caches (Fashion-MNIST: 60,000 x 784 floats = 188 MB) every row is a DRAM miss, so
// this copy is a fixed cost of each DP step that no GEMM tuning removes; `dplab-cli bench`
// measures it alone and counts it in the step's ceiling (gather + GEMMs).
//
// One implementation, shared by NoisyGradientOracle and the bench.
#pragma once

#include <vector>

#include "core/types.h"
#include "data/dataset.h"

namespace dplab::data {

// Writes row k of `lot_features` (and entry k of `lot_targets`) = row rows[k] of `train`, for
// k < rows.size(); pixel rows are converted to their float features (data/feature_rows.h), so
// the lot is bit for bit the one float storage of the same data gives. The buffers must already
// have at least rows.size() rows and train.dim() columns (no allocation here); indices are not
// checked (they come from the sampler).
void gather_lot(const Dataset& train, const std::vector<Index>& rows, Matrix& lot_features,
                Vector& lot_targets);

}  // namespace dplab::data
