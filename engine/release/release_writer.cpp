// The one writer of a Release. See release_writer.h.
#include "release/release_writer.h"
#include "core/json_text.h"

#include <filesystem>
#include <set>

#include "core/atomic_file.h"
#include "core/error.h"
#include "data/dataset.h"
#include "data/npz_file.h"
#include "release/field_class.h"
#include "release/model_artefact.h"
#include "release/onnx_model.h"

#ifndef DPLAB_VERSION
#error "DPLAB_VERSION is set for this file by engine/CMakeLists.txt"
#endif

namespace dplab::release {
namespace {

void refuse_curator_only(const FieldRule& rule) {
  if (rule.klass == FieldClass::kCuratorOnly) {
    throw Error(std::string(rule.file) + ": the field '" + std::string(rule.field) +
                "' is curator-only and is never released");
  }
}

// Every key of `value` as a dotted path (arrays collapsed), checked against the table.
void check_json(const std::string& file, const nlohmann::json& value, const std::string& path) {
  if (value.is_array()) {
    for (const auto& item : value) check_json(file, item, path);
    return;
  }
  if (!value.is_object()) return;
  for (const auto& [key, child] : value.items()) {
    const std::string child_path = path.empty() ? key : path + "." + key;
    refuse_curator_only(field_rule(file, child_path));
    check_json(file, child, child_path);
  }
}

nlohmann::json not_covered_list(const Release& release) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& table : release.tables) {
    for (const auto& column : table.table.header) {
      const FieldRule& rule = field_rule(table.file, column);
      if (rule.klass != FieldClass::kNotCovered) continue;
      list.push_back({{"file", table.file}, {"field", column}, {"reason", rule.reason}});
    }
  }
  for (const auto& model : release.models) {
    for (auto& entry : model_not_covered(model)) list.push_back(std::move(entry));
  }
  const auto& preprocessing = release.privacy.value("preprocessing", nlohmann::json::object());
  if (preprocessing.value("fitted_on_private_data", false)) {
    list.push_back(
        {{"file", "*"}, {"field", "preprocessing"}, {"reason", data::kPreprocessingNotCovered}});
  }
  return list;
}

// model.json, checked against the field table like release.json.
nlohmann::json checked_model_json(const ReleasedModel& model, const nlohmann::json& privacy) {
  nlohmann::json j = model_json(model, privacy, DPLAB_VERSION);
  check_json("model.json", j, "");
  refuse_curator_only(field_rule("model.npz", "arrays"));
  refuse_curator_only(field_rule(kOnnxFile, "graph"));
  return j;
}

}  // namespace

nlohmann::json release_json(const Release& release) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& table : release.tables) files.push_back(table.file);
  for (const auto& model : release.models) {
    files.push_back(model.folder + "/model.npz");
    files.push_back(model.folder + "/model.json");
    files.push_back(model.folder + "/" + kOnnxFile);
  }
  nlohmann::json j{{"schema", kReleaseSchema},
                   {"dplab_version", DPLAB_VERSION},
                   {"experiment", release.experiment},
                   {"mode", release.mode},
                   {"cancelled", release.cancelled},
                   {"privacy", release.privacy},
                   {"released", release.released},
                   {"not_covered", not_covered_list(release)},
                   {"files", files}};
  check_json("release.json", j, "");
  return j;
}

std::vector<csv::CsvTable> released_csv_tables(const Release& release) {
  std::vector<csv::CsvTable> tables;
  for (const auto& released : release.tables) {
    for (const auto& column : released.table.header)
      refuse_curator_only(field_rule(released.file, column));
    csv::CsvTable table = released.table;
    table.constant_columns.push_back({"epsilon_label", release.csv_label});
    field_rule(released.file, "epsilon_label");
    tables.push_back(std::move(table));
  }
  return tables;
}

std::vector<std::string> write_release(const Release& release, const std::string& directory) {
  // Check everything before the first byte is written.
  const nlohmann::json summary = release_json(release);
  const std::vector<csv::CsvTable> tables = released_csv_tables(release);
  std::vector<nlohmann::json> model_files;
  for (const auto& model : release.models)
    model_files.push_back(checked_model_json(model, release.privacy));
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) throw IoError(directory + ": cannot create the output folder: " + ec.message());
  const std::filesystem::path dir(directory);
  std::vector<std::string> written;
  for (std::size_t i = 0; i < release.models.size(); ++i) {
    const ReleasedModel& model = release.models[i];
    const std::filesystem::path folder = dir / model.folder;
    std::filesystem::create_directories(folder, ec);
    if (ec) throw IoError(folder.string() + ": cannot create the model folder: " + ec.message());
    std::vector<data::NpyArray> arrays;
    for (const auto& tensor : model.model->graph.tensors) {
      arrays.push_back({tensor.name, {tensor.shape.begin(), tensor.shape.end()}, tensor.values});
    }
    data::write_npz((folder / "model.npz").string(), arrays);
    written.push_back((folder / "model.npz").string());
    write_file_atomically((folder / "model.json").string(), json_text(model_files[i], 2) + "\n");
    written.push_back((folder / "model.json").string());
    write_onnx(*model.model, (folder / kOnnxFile).string());
    written.push_back((folder / kOnnxFile).string());
  }
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const std::string path = (dir / release.tables[i].file).string();
    csv::write_csv_file(path, tables[i]);
    written.push_back(path);
  }
  const std::string path = (dir / "release.json").string();
  write_file_atomically(path, json_text(summary, 2) + "\n");
  written.push_back(path);
  return written;
}

std::string write_curator_record(const CuratorRecord& record, const std::string& directory) {
  nlohmann::json j{{"curator_only",
                    "NOT FOR RELEASE: the number of runs trained K, the hard-stop flags and the "
                    "wall time reveal K, which the Liu-Talwar / Papernot-Steinke epsilon does not "
                    "cover (docs/privacy-model.md)"}};
  for (const auto& [key, value] : record.facts.items()) j[key] = value;
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) throw IoError(directory + ": cannot create the output folder: " + ec.message());
  const std::string path = (std::filesystem::path(directory) / kCuratorOnlyFile).string();
  write_file_atomically(path, json_text(j, 2) + "\n");
  return path;
}

}  // namespace dplab::release
