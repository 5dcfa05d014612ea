// The preset flags shared by `dplab-cli sparse-train` and `dplab-cli canary` (see
// sparse_report.cpp for their help text).
#pragma once

#include <set>
#include <string>

#include "cli/arguments.h"
#include "experiment/sparse_reproduction.h"

namespace dplab::cli {

std::set<std::string> sparse_preset_flags();
// The paper preset with the flags applied; UsageError/InvalidArgument name the flag.
experiment::SparsePreset sparse_preset_from(const Arguments& args);

}  // namespace dplab::cli
