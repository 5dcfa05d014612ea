#include "release/release_folder.h"

#include <filesystem>

#include "core/error.h"
#include "data/csv_loader.h"
#include "data/file_reader.h"
#include "release/release_writer.h"

namespace dplab::release {
namespace {

// The table as a file holds it: the constant columns become ordinary columns.
csv::CsvTable as_written(csv::CsvTable table) {
  for (const auto& constant : table.constant_columns) {
    table.header.push_back(constant.name);
    for (auto& row : table.rows) row.push_back(constant.value);
  }
  table.constant_columns.clear();
  return table;
}

// A listed file must be a plain name inside the folder ("curves.csv"), never a path out of it.
bool is_plain_file_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\\') == std::string::npos;
}

// A file of the release folder: a plain name, or plain names joined by '/' (a model's files,
// "model/model.npz", "models/replicate-2/model.json"): never absolute, never "..".
bool is_release_path(const std::string& name) {
  std::size_t begin = 0;
  for (;;) {
    const std::size_t slash = name.find('/', begin);
    if (!is_plain_file_name(name.substr(begin, slash == std::string::npos ? slash : slash - begin)))
      return false;
    if (slash == std::string::npos) return true;
    begin = slash + 1;
  }
}

}  // namespace

ReleaseFolder release_folder(const Release& release) {
  ReleaseFolder folder;
  folder.manifest = release_json(release);
  const std::vector<csv::CsvTable> tables = released_csv_tables(release);
  for (std::size_t i = 0; i < tables.size(); ++i)
    folder.tables.push_back({release.tables[i].file, as_written(tables[i])});
  return folder;
}

ReleaseFolder read_release_folder(const std::string& directory) {
  const std::filesystem::path dir(directory);
  const std::string manifest_path = (dir / "release.json").string();
  std::error_code ec;
  if (!std::filesystem::exists(manifest_path, ec)) {
    throw IoError(manifest_path +
                  ": no release.json (not a dplab release folder: tune --out, "
                  "train --out and history export write one)");
  }
  ReleaseFolder folder;
  folder.manifest = data::read_json_file(manifest_path);
  if (!folder.manifest.is_object() ||
      folder.manifest.value("schema", std::string()) != kReleaseSchema) {
    throw ParseError(manifest_path + ": not a dplab release (expected \"schema\": \"" +
                     std::string(kReleaseSchema) + "\")");
  }
  const auto files = folder.manifest.find("files");
  if (files == folder.manifest.end() || !files->is_array()) {
    throw ParseError(manifest_path + ": \"files\" must be a list of file names");
  }
  for (const auto& entry : *files) {
    if (!entry.is_string() || !is_release_path(entry.get<std::string>())) {
      throw ParseError(manifest_path + ": \"files\" lists " + entry.dump() +
                       ", which is not a file name in the release folder");
    }
    const std::string name = entry.get<std::string>();
    if (std::filesystem::path(name).extension() != ".csv") continue;  // tables only
    const data::CsvTable read = data::read_csv_table((dir / name).string());
    csv::CsvTable table;
    table.header = read.header;
    const auto columns = static_cast<std::size_t>(read.columns());
    table.rows.reserve(static_cast<std::size_t>(read.rows()));
    for (Index r = 0; r < read.rows(); ++r) {
      const auto begin = read.cells.begin() + static_cast<std::ptrdiff_t>(r * read.columns());
      table.rows.emplace_back(begin, begin + static_cast<std::ptrdiff_t>(columns));
    }
    folder.tables.push_back({name, std::move(table)});
  }
  return folder;
}

}  // namespace dplab::release
