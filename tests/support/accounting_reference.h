// The reference accounting values of tests/data/accounting.json (trusted accountants: Opacus RDP,
// Google dp_accounting PLD and RepeatAndSelect, the main paper's own accountant), parsed once.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include "support/test_paths.h"

namespace dplab::test {

inline const nlohmann::json& accounting_reference() {
  static const nlohmann::json data = [] {
    std::ifstream in(testing::test_data_dir() + "/accounting.json");
    if (!in) throw std::runtime_error("cannot open tests/data/accounting.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

}  // namespace dplab::test
