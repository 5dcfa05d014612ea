#include "cli/output_files.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "cli/arguments.h"
#include "core/atomic_file.h"
#include "core/error.h"

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
  write_text_file_atomically(path, value.dump(2) + "\n");
}

std::string csv_number(double value) {
  if (!std::isfinite(value)) return "";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

void write_curve_csv(const std::filesystem::path& path,
                     const std::vector<training::CurvePoint>& curve, const std::string& comment) {
  std::string text = comment.empty() ? std::string() : comment + "\n";
  text += "iteration,train_loss,val_loss,val_accuracy,epsilon_per_run,step_size,clip,val_mse\n";
  for (const auto& p : curve) {
    text += std::to_string(p.iteration) + ',' + csv_number(p.train_loss) + ',' +
            csv_number(p.val_loss) + ',' + csv_number(p.val_accuracy) + ',' +
            csv_number(p.epsilon) + ',' + csv_number(p.step_size) + ',' + csv_number(p.clip) + ',' +
            csv_number(p.val_mse) + '\n';
  }
  write_text_file_atomically(path, text);
}

}  // namespace dplab::cli
