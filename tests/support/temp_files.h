// Scratch files for tests: a temporary directory (removed with the object) and byte-exact
// writes into it.
#pragma once

#include <QTemporaryDir>

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace dplab::testing {

// Replaces the file at path with bytes, unchanged (binary mode).
inline void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}
inline void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  write_file(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

class TempFiles {
 public:
  bool isValid() const { return dir_.isValid(); }

  // name inside the directory (the file need not exist).
  std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

  // Writes text to the file name in the directory and returns its path.
  std::string write(const char* name, std::string_view text) const {
    const std::string file = path(name);
    write_file(file, text);
    return file;
  }

 private:
  QTemporaryDir dir_;
};

}  // namespace dplab::testing
