// How the reproduction pages print numbers: one rule for every item, so a margin in a verdict
// and the same value in its table read the same.
#pragma once

#include <string>

namespace dplab::reproduction {

// `v` with `digits` decimals ("%.*f"); "n/a" for NaN or an infinity.
std::string fixed(double v, int digits = 3);
// `v` with six significant digits ("%.6g"), for settings such as learning rates.
std::string general(double v);

}  // namespace dplab::reproduction
