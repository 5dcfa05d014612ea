// The text form of one hyperparameter's search spec, as typed in the GUI's grid fields:
//   "0.001, 0.01, 0.1"      a list of values (separated by commas, semicolons or spaces)
//   "logspace(-4, -1, 4)"   4 values 10^-4 … 10^-1        = JSON {"log10": [-4, -1], "num": 4}
//   "uniform(0.8, 0.99)"    random search, uniform draws  = JSON {"uniform": [0.8, 0.99]}
//   "loguniform(1e-4, 1)"   random search, log-uniform    = JSON {"log_uniform": [1e-4, 1]}
// One grammar: the text is translated into the experiment file's JSON form and parsed by the same
// parse_param_spec (experiment_config.h), so a field accepts exactly what a file accepts, with
// the same domain checks and the same messages (ParseError naming `path`).
#pragma once

#include <string>

#include "experiment/experiment_config.h"

namespace dplab::experiment {

// Throws ParseError "<path>: <reason>", e.g. "clip: 'abc' is not a number".
ParamSpec parse_param_text(const std::string& text, Param param, const std::string& path);
// The inverse: parse_param_text(format_param_text(s), …) == s for every spec parse accepts
// (numbers printed with up to 17 significant digits, shortest first).
std::string format_param_text(const ParamSpec& spec);

}  // namespace dplab::experiment
