// Whole-file reading, plain (stdio) or gzip (zlib gzopen/gzread), see file_reader.h.
#include "data/file_reader.h"

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>

#include "core/error.h"
#include "core/memory_check.h"
#include "data/large_buffer.h"

namespace dplab::data {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 22;  // 4 MiB per gzread call
constexpr unsigned kZlibBufferBytes = 1u << 20;            // zlib's input buffer (default 8 KiB)

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

struct GzCloser {
  void operator()(gzFile_s* g) const { gzclose(g); }
};
using GzPtr = std::unique_ptr<gzFile_s, GzCloser>;

const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

FilePtr open_or_throw(const std::string& path) {
  require_regular_file(path);
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) throw IoError("cannot open '" + path + "': " + std::strerror(errno));
  return file;
}

// The compressed file's size in bytes (0 if unknown). The gzip trailer's ISIZE is NOT used to
// size anything: it is attacker-controlled (a 220-byte file claimed 4 GB). Memory grows only as
// real data inflates, doubling from a start proportional to the compressed input.
std::size_t compressed_size(std::FILE* file) {
  if (std::fseek(file, 0, SEEK_END) != 0) return 0;
  const long size = std::ftell(file);
  std::rewind(file);
  return size > 0 ? static_cast<std::size_t>(size) : 0;
}

bool starts_with_gzip_magic(std::FILE* file) {
  unsigned char magic[2] = {0, 0};
  const bool gzip = std::fread(magic, 1, 2, file) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  std::rewind(file);
  return gzip;
}

// Grows `out` to `size` bytes, advising huge pages before the new memory is first written. The
// old and the new buffer coexist while growing, and the allocator may keep the earlier, smaller
// buffers of the doubling chain (together less than the old one) resident: 2 x old + new is
// checked against the memory budget (measured: test_memory_budget).
template <class Buffer>
void grow(Buffer& out, std::size_t size, const std::string& path, std::size_t compressed) {
  if (size > out.capacity()) {
    const double peak = 2.0 * static_cast<double>(out.capacity()) + static_cast<double>(size);
    require_memory(
        "'" + path + "': " +
            (compressed > 0 ? "inflating " + format_bytes(static_cast<double>(compressed)) +
                                  " of gzip data (stopped after " +
                                  format_bytes(static_cast<double>(out.size())) +
                                  " decompressed, still growing; a gzip bomb?)"
                            : "reading its " + format_bytes(static_cast<double>(size))),
        peak);
    out.reserve(size);
    advise_huge_pages(out.data(), out.capacity());
  }
  out.resize(size);
}

// Reads up to `limit` decompressed bytes into `out` (a std::string or std::vector<uint8_t>).
template <class Buffer>
void read_into(const std::string& path, Buffer& out, std::size_t limit) {
  FilePtr file = open_or_throw(path);
  if (!starts_with_gzip_magic(file.get())) {
    std::fseek(file.get(), 0, SEEK_END);
    const long size = std::ftell(file.get());
    std::rewind(file.get());
    if (size < 0) throw IoError("cannot read '" + path + "': " + std::strerror(errno));
    const std::size_t wanted = std::min(static_cast<std::size_t>(size), limit);
    grow(out, wanted, path, 0);
    if (std::fread(out.data(), 1, wanted, file.get()) != wanted) {
      throw IoError("cannot read '" + path + "': " + std::strerror(errno));
    }
    return;
  }

  // Typical ratios are 2-10x; start at 4x the input (at least 64 KiB), then double.
  const std::size_t compressed = std::max<std::size_t>(1, compressed_size(file.get()));
  const std::size_t start = std::max<std::size_t>(std::size_t{1} << 16, compressed * 4);
  file.reset();
  GzPtr gz(gzopen(path.c_str(), "rb"));
  if (!gz) throw IoError("cannot open '" + path + "': " + std::strerror(errno));
  gzbuffer(gz.get(), kZlibBufferBytes);
  std::size_t size = 0;
  grow(out, std::min(limit, start), path, compressed);
  while (size < limit) {
    if (size == out.size()) {
      grow(out, std::min(limit, std::max<std::size_t>(out.size() * 2, 1)), path, compressed);
    }
    const std::size_t want = std::min({out.size() - size, kChunkBytes, std::size_t{INT_MAX}});
    const int got =
        gzread(gz.get(), reinterpret_cast<char*>(out.data()) + size, static_cast<unsigned>(want));
    if (got < 0) {
      int code = Z_OK;
      const char* message = gzerror(gz.get(), &code);
      throw ParseError(path + ": byte offset " + std::to_string(size) +
                       " (decompressed): corrupt gzip data: " + message);
    }
    if (got == 0) break;
    size += static_cast<std::size_t>(got);
  }
  int code = Z_OK;
  const char* message = gzerror(gz.get(), &code);
  if (code != Z_OK && code != Z_STREAM_END) {
    throw ParseError(path + ": byte offset " + std::to_string(size) +
                     " (decompressed): gzip stream is truncated or corrupt: " + message);
  }
  out.resize(size);
}

}  // namespace

void require_regular_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    throw IoError("cannot open '" + path + "': " + std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) {
    throw IoError("cannot read '" + path + "': it is " + file_kind(info.st_mode) +
                  ", not a regular file (dplab reads data and settings only from regular files)");
  }
}

std::vector<std::uint8_t> read_file_bytes(const std::string& path) {
  std::vector<std::uint8_t> bytes;
  read_into(path, bytes, SIZE_MAX);
  return bytes;
}

std::string read_file_text(const std::string& path) {
  std::string text;
  read_into(path, text, SIZE_MAX);
  return text;
}

std::vector<std::uint8_t> read_file_prefix(const std::string& path, std::size_t count) {
  std::vector<std::uint8_t> bytes;
  read_into(path, bytes, count);
  return bytes;
}

bool is_gzip_file(const std::string& path) {
  FilePtr file = open_or_throw(path);
  return starts_with_gzip_magic(file.get());
}

}  // namespace dplab::data
