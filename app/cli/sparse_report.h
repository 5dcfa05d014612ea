// Shared by `dplab-cli sparse-train` and `dplab-cli canary`: the preset flags of the sparse-DP
// reproduction (engine/reproduction/sparse_reproduction.h) and the printed privacy report.
#pragma once

#include <iosfwd>
#include <string>

#include "reproduction/sparse_reproduction.h"

namespace dplab::cli {

// Footer for --help: what is fixed at the paper's Table 1.
extern const char* const kSparsePresetFooter;

// The default corpus path (scripts/make-kjv-corpus.sh writes it).
// datasets/kjv/kjv.txt wherever the shipped data are (engine/data/shipped_datasets.h); throws
// IoError saying how to make it.
std::string default_kjv_corpus();

// epsilon printed rounded UP to 4 significant digits ("inf" stays "inf").
std::string epsilon_up(double epsilon);

// Writes the calibration/accounting table for people.
void print_calibration(std::ostream& out, const experiment::Calibration& calibration,
                       const experiment::SparsePreset& preset);

}  // namespace dplab::cli
