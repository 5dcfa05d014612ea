// The default target delta for a data set of n examples: 1/n rounded DOWN to a power of ten
// (main paper, appendix A: "delta_f ... 1/n scaled down to the nearest power of 10").
// n = 5,000 -> 1e-4; n = 60,000 -> 1e-5; n = 100,000 -> 1e-5. Rounding down is the conservative
// direction (delta < 1/n, so releasing one whole record is never "allowed").
#pragma once

#include <cstdint>

namespace dplab::privacy {

// n >= 2 (n = 1 would give delta = 1, which is no guarantee).
double default_delta(std::int64_t n);

}  // namespace dplab::privacy
