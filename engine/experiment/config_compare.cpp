// Compares the JSON forms (to_json is canonical: parse(to_json(c)) == c) without "name".
#include "experiment/config_compare.h"

#include <nlohmann/json.hpp>

namespace dplab::experiment {

bool same_run_settings(const ExperimentConfig& a, const ExperimentConfig& b) {
  nlohmann::json ja = to_json(a);
  nlohmann::json jb = to_json(b);
  ja.erase("name");
  jb.erase("name");
  return ja == jb;
}

}  // namespace dplab::experiment
