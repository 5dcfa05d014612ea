#include "data/preset_files.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "core/error.h"
#include "data/shipped_datasets.h"

namespace dplab::data {
namespace fs = std::filesystem;
namespace {

// A folder is dplab's presets folder when it holds this preset (every install has it).
constexpr const char* kMarkerPreset = "quick-demo.json";

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::vector<std::string> preset_names(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::string find_presets_dir() {
  if (const char* env = std::getenv("DPLAB_PRESETS_DIR"); env && *env) {
    std::error_code error;
    if (fs::is_directory(env, error)) return env;
    throw IoError(std::string("$DPLAB_PRESETS_DIR: '") + env + "' is not a folder");
  }
  std::vector<std::string> looked;
  for (const auto& datasets : shipped_data_search_dirs()) {
    if (datasets.empty()) continue;
    const fs::path share = fs::path(datasets).parent_path();
    for (const fs::path& dir : {share / "presets", share / "resources" / "presets"}) {
      std::error_code error;
      if (fs::is_regular_file(dir / kMarkerPreset, error)) return dir.string();
      looked.push_back(dir.string());
    }
  }
  throw IoError("dplab's presets folder not found (looked in " + joined(looked) +
                "); set DPLAB_PRESETS_DIR to the installed share/dplab/presets");
}

std::string resolve_preset_path(const std::string& name_or_path) {
  std::error_code error;
  const fs::path given(name_or_path);
  const bool exists = fs::exists(given, error) && !fs::is_directory(given, error);
  if (exists || name_or_path.empty() || given.has_parent_path()) return name_or_path;
  const std::string file = given.extension() == ".json" ? name_or_path : name_or_path + ".json";
  std::string dir;
  try {
    dir = find_presets_dir();
  } catch (const IoError& e) {
    throw IoError("'" + name_or_path + "' is neither a file nor a preset: " + e.what());
  }
  const fs::path preset = fs::path(dir) / file;
  if (fs::is_regular_file(preset, error)) return preset.string();
  throw IoError("'" + name_or_path + "' is neither a file nor a preset in " + dir +
                " (presets: " + joined(preset_names(dir)) + ")");
}

}  // namespace dplab::data
