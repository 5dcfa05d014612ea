// How dplab SHOWS an epsilon: rounded UP to a fixed number of decimals, never to nearest, so the
// printed number is itself a valid (slightly looser) guarantee. One function for the CLI, the
// CSV headers and the GUI. Non-finite values print as "inf" (no guarantee). Pure.
#pragma once

#include <string>

namespace dplab::privacy {

inline constexpr int kEpsilonDigits = 2;

// The smallest number with `digits` decimals (0..12) that is >= epsilon.
double round_epsilon_up(double epsilon, int digits = kEpsilonDigits);
// round_epsilon_up printed with exactly `digits` decimals, e.g. 1.2301 -> "1.24".
std::string format_epsilon_up(double epsilon, int digits = kEpsilonDigits);

}  // namespace dplab::privacy
