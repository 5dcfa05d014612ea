// CsvEncoder's JSON form (model.json "input.encoding") and the column alignment that applies a
// fitted encoding to a new file (dplab-cli predict). See csv_loader.h.
#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_reader.h"
#include "data/csv_loader.h"

namespace dplab::data {

nlohmann::json CsvEncoder::to_json() const {
  nlohmann::json columns = nlohmann::json::array();
  for (std::size_t c = 0; c < header_.size(); ++c) {
    if (static_cast<Index>(c) == label_index_) continue;
    const Column& column = columns_[c];
    nlohmann::json entry{{"name", header_[c]},
                         {"encoding", column.numeric ? "numeric" : "one-hot"}};
    if (!column.numeric) entry["levels"] = column.categories;
    // impute-mean: what a missing cell of this column becomes (the training table's mean, or its
    // most frequent level), so that predict reads a new file as training read its own.
    if (options_.missing == MissingValues::impute_mean) {
      if (column.numeric) {
        entry["impute"] = column.impute_mean;
      } else if (!column.categories.empty()) {
        entry["impute"] = column.categories[static_cast<std::size_t>(column.impute_level)];
      }
    }
    columns.push_back(std::move(entry));
  }
  return {{"format", "csv"},
          {"file", std::filesystem::path(fitted_path_).filename().string()},
          {"delimiter", std::string(1, options_.delimiter)},
          {"header", header_},
          {"label_column", label_column()},
          {"regression", options_.regression},
          {"missing_markers", options_.missing_markers},
          {"missing_policy", to_string(options_.missing)},
          {"columns", columns},
          {"classes", class_names_},
          {"features", feature_names_}};
}

CsvEncoder CsvEncoder::from_json(const nlohmann::json& j, const std::string& path) {
  JsonReader r(j, path);
  if (r.required_string("format") != "csv") json_fail(r.key_path("format"), "expected \"csv\"");
  CsvEncoder encoder;
  encoder.fitted_path_ = r.string_or("file", "the training file");
  const std::string delimiter = r.string_or("delimiter", ",");
  if (delimiter.size() != 1) json_fail(r.key_path("delimiter"), "expected one character");
  encoder.options_.delimiter = delimiter[0];
  encoder.options_.regression = r.optional_bool("regression").value_or(false);
  encoder.options_.missing_markers =
      r.optional_strings("missing_markers").value_or(std::vector<std::string>{});
  // Models written before the policy was recorded refused a missing value in predict.
  if (auto policy = r.optional_string("missing_policy")) {
    try {
      encoder.options_.missing = parse_na_policy(*policy, "missing_policy");
    } catch (const InvalidArgument&) {
      json_fail(r.key_path("missing_policy"), "expected drop, impute-mean or fail");
    }
  } else {
    encoder.options_.missing = MissingValues::fail;
  }
  const bool impute = encoder.options_.missing == MissingValues::impute_mean;
  encoder.header_ = r.optional_strings("header").value_or(std::vector<std::string>{});
  const std::string label = r.required_string("label_column");
  encoder.options_.label_column = label;
  encoder.class_names_ = r.optional_strings("classes").value_or(std::vector<std::string>{});
  const auto features = r.optional_strings("features").value_or(std::vector<std::string>{});
  const nlohmann::json* columns = r.optional_array("columns");
  if (!columns) json_fail(r.key_path("columns"), "missing (required)");
  r.reject_unknown();

  std::map<std::string, Column> by_name;
  for (std::size_t i = 0; i < columns->size(); ++i) {
    JsonReader c((*columns)[i], r.element_path("columns", i));
    const std::string name = c.required_string("name");
    Column column;
    const auto kind = c.optional_choice("encoding", {"numeric", "one-hot"}, "encoding");
    column.numeric = kind.value_or(0) == 0;
    if (!column.numeric) {
      column.categories = c.optional_strings("levels").value_or(std::vector<std::string>{});
    }
    if (impute && column.numeric) {
      const auto mean = c.optional_number("impute");
      if (!mean) json_fail(c.key_path("impute"), "missing (impute-mean needs each column's mean)");
      column.impute_mean = *mean;
    } else if (impute && !column.categories.empty()) {
      const auto level = c.optional_string("impute");
      if (!level)
        json_fail(c.key_path("impute"), "missing (impute-mean needs each column's level)");
      const auto at = std::find(column.categories.begin(), column.categories.end(), *level);
      if (at == column.categories.end())
        json_fail(c.key_path("impute"), "'" + *level + "' is not one of the column's levels");
      column.impute_level = at - column.categories.begin();
    }
    c.reject_unknown();
    if (!by_name.emplace(name, std::move(column)).second) {
      json_fail(r.element_path("columns", i), "column '" + name + "' is listed twice");
    }
  }
  encoder.label_index_ = -1;
  encoder.columns_.resize(encoder.header_.size());
  for (std::size_t c = 0; c < encoder.header_.size(); ++c) {
    const std::string& name = encoder.header_[c];
    if (name == label) {
      encoder.label_index_ = static_cast<Index>(c);
      continue;
    }
    const auto it = by_name.find(name);
    if (it == by_name.end()) json_fail(r.key_path("columns"), "no entry for column '" + name + "'");
    Column& column = encoder.columns_[c];
    column = it->second;
    column.first_feature = static_cast<Index>(encoder.feature_names_.size());
    if (column.numeric) {
      encoder.feature_names_.push_back(name);
    } else {
      for (const auto& level : column.categories)
        encoder.feature_names_.push_back(one_hot_feature_name(name, level));
    }
  }
  if (encoder.label_index_ < 0) {
    json_fail(r.key_path("label_column"), "'" + label + "' is not in the header");
  }
  if (encoder.feature_names_ != features) {
    json_fail(r.key_path("features"), "does not match the columns' encoding (" +
                                          std::to_string(features.size()) + " listed, " +
                                          std::to_string(encoder.feature_names_.size()) +
                                          " from the columns)");
  }
  return encoder;
}

CsvTable CsvEncoder::align(const CsvTable& table, bool* labelled) const {
  std::map<std::string, Index> position;
  for (Index c = 0; c < table.columns(); ++c) {
    position.emplace(table.header[static_cast<std::size_t>(c)], c);
  }
  std::vector<Index> source(header_.size(), -1);  // -1: the absent label column
  for (std::size_t c = 0; c < header_.size(); ++c) {
    const auto it = position.find(header_[c]);
    if (it != position.end()) {
      source[c] = it->second;
    } else if (static_cast<Index>(c) != label_index_) {
      throw InvalidArgument(table.path + ": no column '" + header_[c] +
                            "', which the model's input encoding needs (columns of the training "
                            "file '" +
                            fitted_path_ + "')");
    }
  }
  const std::string filler = class_names_.empty() ? std::string("0") : class_names_.front();
  if (labelled) *labelled = source[static_cast<std::size_t>(label_index_)] >= 0;
  CsvTable out;
  out.path = table.path;
  out.delimiter = table.delimiter;
  out.header = header_;
  out.line_numbers = table.line_numbers;
  out.cells.reserve(static_cast<std::size_t>(table.rows()) * header_.size());
  for (Index r = 0; r < table.rows(); ++r) {
    for (std::size_t c = 0; c < header_.size(); ++c) {
      if (source[c] < 0) {
        out.cells.push_back(filler);
      } else if (static_cast<Index>(c) == label_index_ && is_missing(table.cell(r, source[c]))) {
        out.cells.push_back(filler);  // a row to predict needs no label
        if (labelled) *labelled = false;
      } else {
        out.cells.push_back(table.cell(r, source[c]));
      }
    }
  }
  return out;
}

}  // namespace dplab::data
