// The preset flags shared by `dplab-cli sparse-train` and `dplab-cli canary`.
#pragma once

#include <string>

#include "cli/arguments.h"
#include "reproduction/sparse_reproduction.h"

namespace dplab::cli {

// Footer for --help: what is fixed at the paper's Table 1.
extern const char* const kSparsePresetFooter;

// The default corpus path (scripts/make-kjv-corpus.sh writes it).
// datasets/kjv/kjv.txt wherever the shipped data are (engine/data/shipped_datasets.h); throws
// IoError saying how to make it.
std::string default_kjv_corpus();

// Cap of a given sigma (canary --sigma, sparse-train --sparse-sigma): far above any sigma that
// leaves a trained model (sigma = 100 drowns the signal), low enough to refuse a typo.
inline constexpr double kMaxGivenSigma = 100;

// Declares the preset flags (--corpus, --out, --epochs, ...) on a command.
void add_sparse_preset_flags(CLI::App& command, Arguments& args);
// The paper preset with the flags applied; UsageError/InvalidArgument name the flag.
experiment::SparsePreset sparse_preset_from(const Arguments& args);

}  // namespace dplab::cli
