// The defaults of the accounting requests' settings (dplab-cli account and calibrate, the Python
// module's account / calibrate): one place, read by the requests (accounting_requests.cpp) and by
// the command line's --help lines, so the default a help line prints is the one used.
#pragma once

namespace dplab::privacy {

inline constexpr int kDefaultCandidates = 1;                   // K: one run
inline constexpr const char* kDefaultConversion = "improved";  // RDP -> (eps, delta): Balle 2020
inline constexpr const char* kDefaultLtLogBase = "e";          // Upsilon = ln(1/delta2)/gamma
inline constexpr const char* kDefaultFinalData = "full";       // private-subsampled final run
inline constexpr const char* kDefaultSubsetBatching = "same_sampling_rate";

}  // namespace dplab::privacy
