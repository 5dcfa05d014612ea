#include "cli/output_files.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/number_text.h"

namespace dplab::cli {

void write_text_file_atomically(const std::filesystem::path& path, const std::string& text) {
  write_file_atomically(path.string(), text);  // one implementation: core/atomic_file.h
}

void write_json_file(const std::filesystem::path& path, const nlohmann::json& value) {
  write_text_file_atomically(path, value.dump(2) + "\n");
}

}  // namespace dplab::cli
