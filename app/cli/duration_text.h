// A duration as the CLI's progress lines print it: "m:ss", or "h:mm:ss" from an hour on;
// "--:--" when it is not known (negative, infinite or NaN, e.g. an ETA before the first job).
#pragma once

#include <string>

namespace dplab::cli {

std::string format_duration(double seconds);

}  // namespace dplab::cli
