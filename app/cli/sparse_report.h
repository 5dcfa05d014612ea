// Shared by `dplab-cli sparse-train` and `dplab-cli canary`: the printed privacy report of the
// sparse-DP reproduction (engine/reproduction/sparse_reproduction.h); the preset flags are
// cli/sparse_options.h's.
#pragma once

#include <iosfwd>
#include <string>

#include "reproduction/sparse_reproduction.h"

namespace dplab::cli {

// epsilon printed rounded UP to 4 significant digits ("inf" stays "inf").
std::string epsilon_up(double epsilon);

// Writes the calibration/accounting table for people.
void print_calibration(std::ostream& out, const experiment::Calibration& calibration,
                       const experiment::SparsePreset& preset);

}  // namespace dplab::cli
