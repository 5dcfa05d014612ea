// Output files of the CLI, written atomically (temp file + rename) so an interrupted run never
// leaves a half-written curve.csv or summary.json where a good one stood.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "training/trainer.h"

namespace dplab::cli {

void write_text_file_atomically(const std::filesystem::path& path, const std::string& text);
void write_json_file(const std::filesystem::path& path, const nlohmann::json& value);
// Columns: iteration, train_loss, val_loss, val_accuracy, epsilon_per_run, step_size, clip (the
// live C_t of adaptive clipping; the fixed C otherwise; empty when there is no clipping), val_mse
// (regression and reconstruction; empty for classifiers). `comment` (one line starting with
// '#', e.g. the epsilon label with what it does not cover) precedes the header when not empty.
void write_curve_csv(const std::filesystem::path& path,
                     const std::vector<training::CurvePoint>& curve,
                     const std::string& comment = {});
// A number for CSV/JSON: shortest round-trip text; "nan"/"inf" never appear (empty instead).
std::string csv_number(double value);

}  // namespace dplab::cli
