#include "cli/output_files.h"
#include "core/json_text.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "cli/arguments.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/number_text.h"

namespace dplab::cli {

void require_output_file(const std::string& path, const std::string& flag) {
  if (path.empty()) throw UsageError(flag + ": the file name is empty (give a file)");
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    throw IoError(flag + " '" + path + "': cannot write there: " + ec.message());
  if (std::filesystem::is_directory(status))
    throw IoError(flag + " '" + path + "': is a folder; give a file name");
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    return;  // a device or a FIFO: write_file_atomically writes it in place
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  require_writable_folder(parent.empty() ? "." : parent.string(),
                          flag + " '" + path + "': its folder");
}

void write_text_file_atomically(const std::filesystem::path& path, const std::string& text) {
  write_file_atomically(path.string(), text);  // one implementation: core/atomic_file.h
}

void write_json_file(const std::filesystem::path& path, const nlohmann::json& value) {
  write_text_file_atomically(path, json_text(value, 2) + "\n");
}

}  // namespace dplab::cli
