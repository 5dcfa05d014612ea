// Paths relative to the file that names them (see path_beside.h).
#include "data/path_beside.h"

#include <filesystem>

#include "data/dataset_catalog.h"

namespace dplab::data {

std::string path_beside(const std::string& file, const std::string& path) {
  const std::filesystem::path p(path);
  if (path.empty() || p.is_absolute()) return path;
  const std::filesystem::path folder = std::filesystem::path(file).parent_path();
  if (folder.empty()) return path;
  return (folder / p).lexically_normal().string();
}

std::string source_beside(const std::string& file, const std::string& name_or_path) {
  return is_builtin_dataset(name_or_path) ? name_or_path : path_beside(file, name_or_path);
}

}  // namespace dplab::data
