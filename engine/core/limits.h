// Size caps shared by every search dplab runs (experiment grids, the OSO protocol): a search
// larger than this is refused up front with a message, instead of failing for memory or taking
// years after it started.
#pragma once

#include <cstdint>

namespace dplab {

// Training jobs one search may run: (candidate, repeat) jobs of an experiment, runs of a protocol.
inline constexpr std::int64_t kMaxTrainingJobs = 1000000;

}  // namespace dplab
