// Benchmark of the privacy accountant for `dplab-cli bench`: time of epsilon_for_delta cold
// (first call for a (sigma, q): the RDP curve is computed) and warm (cached curve, varying T and
// K), of a full eps-vs-K sweep (K = 1..200, MA and LT) and of the PLD accountant. Prints a small
// table to table_out and returns the numbers as JSON (microseconds / milliseconds, medians over
// repetitions).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <ostream>

namespace dplab::cli {

nlohmann::json bench_accounting(std::ostream& table_out);

}  // namespace dplab::cli
