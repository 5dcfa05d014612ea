// The one number format of every file dplab writes (CSV fields, labels, commands to recompute):
// the shortest decimal text that reads back as exactly the same double (std::to_chars, so δ =
// 1e-5 is "1e-05", not "1.0000000000000001e-05", and 0.1 is "0.1"). A NaN is an empty field
// (pandas.read_csv and R's read.csv read it as a missing value; JSON writes null instead), and
// the infinities are "inf" / "-inf" (pandas reads both as float infinities).
// Pure; thread-safe.
#pragma once

#include <string>

namespace dplab {

std::string number_text(double value);

}  // namespace dplab
