// Output files of the CLI, written atomically (temp file + rename) so an interrupted run never
// leaves a half-written curve.csv or summary.json where a good one stood.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/number_text.h"  // number_text: the numbers of every file the CLI writes
#include "training/trainer.h"

namespace dplab::cli {

void write_text_file_atomically(const std::filesystem::path& path, const std::string& text);
void write_json_file(const std::filesystem::path& path, const nlohmann::json& value);

}  // namespace dplab::cli
