#include "data/shipped_datasets.h"

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "core/sha256.h"
#include "data/file_reader.h"

namespace dplab::data {
namespace fs = std::filesystem;
namespace {

constexpr const char* kSumsFile = "SHA256SUMS";
// SHA256SUMS: one line of 64 hex digits and a file name per shipped file; 1 MiB is thousands.
constexpr FileRules kSumsFileRules{std::size_t{1} << 20, true, "a SHA256SUMS file"};

std::string executable_relative_dir() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (error) return {};
  return (exe.parent_path().parent_path() / "share" / "dplab" / "datasets").string();
}

// The checksum recorded for `relative` in root/SHA256SUMS.
std::string recorded_sha256(const std::string& root, const std::string& relative) {
  const std::string sums_path = (fs::path(root) / kSumsFile).string();
  // The one reader: $DPLAB_DATA_DIR may name any folder, so its SHA256SUMS is user input.
  std::istringstream in(read_file_text(sums_path, kSumsFileRules));
  std::string line;
  long line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::string hex, name;
    fields >> hex >> name;
    if (!name.empty() && name[0] == '*') name.erase(0, 1);  // sha256sum's binary-mode marker
    if (hex.size() != 64 || name.empty()) {
      throw ParseError(sums_path + ":" + std::to_string(line_number) +
                       ": expected '<64 hex digits>  <file>'");
    }
    if (name == relative) return hex;
  }
  throw ParseError(sums_path + ": no checksum for '" + relative + "'");
}

}  // namespace

// Where shipped data may be, in order: $DPLAB_DATA_DIR, beside the executable, the install
// prefix, the source tree (a build folder's binaries only: a package must not look there).
std::vector<std::string> shipped_data_search_dirs() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("DPLAB_DATA_DIR"); env && *env) candidates.emplace_back(env);
  candidates.push_back(executable_relative_dir());
  candidates.emplace_back(DPLAB_INSTALLED_DATASETS_DIR);
#ifdef DPLAB_SOURCE_DATASETS_DIR
  candidates.emplace_back(DPLAB_SOURCE_DATASETS_DIR);
#endif
  return candidates;
}

std::string find_generated_shipped_file(const std::string& relative,
                                        const std::string& how_to_make) {
  std::string looked;
  for (const auto& dir : shipped_data_search_dirs()) {
    if (dir.empty()) continue;
    std::error_code error;
    const fs::path path = fs::path(dir) / relative;
    if (fs::is_regular_file(path, error)) return path.string();
    looked += (looked.empty() ? "" : ", ") + path.string();
  }
  throw IoError("'" + relative + "' not found; looked for " + looked + " ($DPLAB_DATA_DIR, the " +
                "installed share/dplab/datasets, the source tree's datasets/); " + how_to_make);
}

std::string find_shipped_datasets_dir() {
  std::string looked;
  for (const auto& dir : shipped_data_search_dirs()) {
    if (dir.empty()) continue;
    std::error_code error;
    if (fs::is_regular_file(fs::path(dir) / kSumsFile, error)) return dir;
    looked += (looked.empty() ? "" : ", ") + dir;
  }
  throw IoError("dplab's data folder (with " + std::string(kSumsFile) + ") not found; looked in " +
                looked + "; set DPLAB_DATA_DIR to the installed share/dplab/datasets");
}

std::string verified_shipped_file(const std::string& root, const std::string& relative) {
  static std::mutex mutex;
  static std::set<std::string> verified;
  const std::string path = (fs::path(root) / relative).string();
  {
    std::lock_guard lock(mutex);
    if (verified.count(path)) return path;
  }
  const std::string expected = recorded_sha256(root, relative);
  require_regular_file(path);  // sha256_file_hex streams: a FIFO would block it for ever
  const std::string actual = sha256_file_hex(path);
  if (actual != expected) {
    throw ParseError("'" + path + "' is damaged or was changed: its SHA-256 is " + actual + ", " +
                     kSumsFile + " records " + expected + " (reinstall dplab or restore the file)");
  }
  std::lock_guard lock(mutex);
  verified.insert(path);
  return path;
}

}  // namespace dplab::data
