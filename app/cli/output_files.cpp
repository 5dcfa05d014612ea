#include "cli/output_files.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/atomic_file.h"
#include "core/error.h"

namespace dplab::cli {

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
