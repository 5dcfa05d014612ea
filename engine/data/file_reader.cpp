// Whole-file reading, plain (pread) or gzip (zlib gzdopen/gzread), see file_reader.h.
#include "data/file_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/memory_check.h"
#include "core/utf8.h"
#include "data/large_buffer.h"

namespace dplab::data {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 22;  // 4 MiB per gzread call
constexpr unsigned kZlibBufferBytes = 1u << 20;            // zlib's input buffer (default 8 KiB)

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

// An open regular file: its descriptor (closed on destruction unless released) and its size.
class InputFile {
 public:
  explicit InputFile(const std::string& path) : path_(path) {
    require_regular_file(path);  // a clear message before anything is opened
    // O_NONBLOCK: if the path was swapped for a FIFO since the check, open() must not wait for a
    // writer; fstat on the descriptor then refuses it.
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) throw IoError("cannot open '" + path + "': " + std::strerror(errno));
    struct stat info {};
    if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
      ::close(fd_);
      throw IoError("cannot read '" + path + "': it is " + file_kind(info.st_mode) +
                    ", not a regular file (dplab reads data and settings only from regular files)");
    }
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
    size_ = static_cast<std::size_t>(std::max<off_t>(info.st_size, 0));
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() {
    if (fd_ >= 0) ::close(fd_);
  }

  std::size_t size() const { return size_; }
  int fd() const { return fd_; }
  // Hands the descriptor over (to gzdopen, whose gzclose closes it).
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

  bool starts_with_gzip_magic() const {
    unsigned char magic[2] = {0, 0};
    return ::pread(fd_, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  }

  // Reads up to `count` bytes at the start into `out`; the number read (fewer at the end).
  std::size_t read_start(unsigned char* out, std::size_t count) const {
    std::size_t done = 0;
    while (done < count) {
      const ssize_t got =
          ::pread(fd_, out + done, std::min(count - done, kChunkBytes), static_cast<off_t>(done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw IoError("cannot read '" + path_ + "': " + std::strerror(errno));
      if (got == 0) break;
      done += static_cast<std::size_t>(got);
    }
    return done;
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::size_t size_ = 0;
};

// "cannot read 'plan.json': it is 268435457 bytes, and a JSON file may be at most 268435456
// bytes (268.4 MB) ..." (`how_big`: "is N bytes" or "inflates to more than N bytes").
[[noreturn]] void fail_size_cap(const std::string& path, const FileRules& rules,
                                const std::string& how_big) {
  throw IoError("cannot read '" + path + "': it " + how_big + ", and " + rules.kind +
                " may be at most " + std::to_string(rules.max_bytes) + " bytes (" +
                format_bytes(static_cast<double>(rules.max_bytes)) +
                "; dplab's size cap for this kind of file)");
}

// The text and what the caller's parse builds from it (rules.parsed_bytes_per_byte), checked
// against the memory budget before the parse (for a plain file: before the read).
void require_parse_memory(const std::string& path, std::size_t bytes, const FileRules& rules) {
  if (rules.parsed_bytes_per_byte <= 0) return;
  require_memory("'" + path + "': parsing its " + format_bytes(static_cast<double>(bytes)) +
                     " as " + rules.kind,
                 (1 + rules.parsed_bytes_per_byte) * static_cast<double>(bytes));
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

// Reads up to `limit` decompressed bytes into `out` (a std::string or std::vector<uint8_t>),
// within rules.max_bytes.
template <class Buffer>
void read_into(const std::string& path, Buffer& out, std::size_t limit, const FileRules& rules) {
  InputFile file(path);
  if (!file.starts_with_gzip_magic()) {
    if (file.size() > rules.max_bytes && limit > rules.max_bytes)
      fail_size_cap(path, rules, "is " + std::to_string(file.size()) + " bytes");
    const std::size_t wanted = std::min(file.size(), limit);
    require_parse_memory(path, wanted, rules);
    grow(out, wanted, path, 0);
    out.resize(file.read_start(reinterpret_cast<unsigned char*>(out.data()), wanted));
    return;
  }

  // Typical ratios are 2-10x; start at 4x the input (at least 64 KiB), then double. One byte
  // past the cap is read to tell "exactly the cap" from "more".
  const bool capped = rules.max_bytes < limit;
  if (capped) limit = rules.max_bytes + 1;
  const std::size_t compressed = std::max<std::size_t>(1, file.size());
  const std::size_t start = std::max<std::size_t>(std::size_t{1} << 16, compressed * 4);
  if (::lseek(file.fd(), 0, SEEK_SET) != 0)
    throw IoError("cannot read '" + path + "': " + std::strerror(errno));
  GzPtr gz(gzdopen(file.fd(), "rb"));
  if (!gz) throw IoError("cannot open '" + path + "': " + std::strerror(errno));
  file.release();  // gzclose closes it now
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
  if (capped && size > rules.max_bytes)
    fail_size_cap(path, rules,
                  "inflates to more than " + std::to_string(rules.max_bytes) + " bytes");
  int code = Z_OK;
  const char* message = gzerror(gz.get(), &code);
  if (code != Z_OK && code != Z_STREAM_END) {
    throw ParseError(path + ": byte offset " + std::to_string(size) +
                     " (decompressed): gzip stream is truncated or corrupt: " + message);
  }
  out.resize(size);
  require_parse_memory(path, size, rules);
}

// ParseError "<path>: byte offset N: not UTF-8 (byte 0xE9) ..." at the first malformed byte.
void require_utf8(const std::string& path, std::string_view text, const FileRules& rules) {
  const auto bad = first_invalid_utf8(text);
  if (!bad) return;
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[*bad]));
  throw ParseError(path + ": byte offset " + std::to_string(*bad) + ": not UTF-8 (byte " + byte +
                   "); " + rules.kind +
                   " must be UTF-8 text (convert it, e.g. iconv -f latin1 -t utf-8)");
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

std::vector<std::uint8_t> read_file_bytes(const std::string& path, const FileRules& rules) {
  std::vector<std::uint8_t> bytes;
  read_into(path, bytes, SIZE_MAX, rules);
  if (rules.utf8)
    require_utf8(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                 rules);
  return bytes;
}

std::string read_file_text(const std::string& path, const FileRules& rules) {
  std::string text;
  read_into(path, text, SIZE_MAX, rules);
  if (rules.utf8) require_utf8(path, text, rules);
  return text;
}

nlohmann::json read_json_file(const std::string& path) {
  return parse_json_text(read_file_text(path, kJsonFile), path);
}

std::vector<std::uint8_t> read_file_prefix(const std::string& path, std::size_t count) {
  std::vector<std::uint8_t> bytes;
  read_into(path, bytes, count, kDataFile);
  return bytes;
}

bool is_gzip_file(const std::string& path) {
  return InputFile(path).starts_with_gzip_magic();
}

}  // namespace dplab::data
