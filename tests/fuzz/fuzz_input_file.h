// Shared by the loader harnesses: the loaders read files, so each input is written to a file in
// a per-process folder on tmpfs (/dev/shm when present), and the memory limit the loaders check
// (core/memory_check.h) is lowered to what libFuzzer allows (-rss_limit_mb, 2 GB by default).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "core/memory_check.h"

namespace dplab::fuzz {

inline std::string input_path(const char* name) {
  static const std::string dir = [] {
    const std::filesystem::path base =
        std::filesystem::exists("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    const auto d = base / ("dplab-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    // 4 MB: larger (legitimate) allocations are rejected by require_memory instead of filling
    // memory slowly under ASan (a 50-byte LIBSVM file can ask for a 500 MB dense matrix). The
    // parsers' paths are the same at any size; a 64 MB cap made every such input cost a 64 MB
    // fill and held LIBSVM at ~20 inputs/s.
    set_memory_limit_bytes(4.0 * 1024 * 1024);
    return d.string();
  }();
  return dir + "/" + name;
}

// Writes `size` bytes to `path` (any path: the harnesses that build folders pass their own).
inline void write_file(const std::string& path, const void* data, std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
}

inline void write_file(const std::string& path, const std::string& text) {
  write_file(path, text.data(), text.size());
}

inline std::string write_input(const char* name, const std::uint8_t* data, std::size_t size) {
  const std::string path = input_path(name);
  write_file(path, data, size);
  return path;
}

}  // namespace dplab::fuzz
