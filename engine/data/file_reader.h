// Whole-file reading for the loaders, plain or gzip-compressed. Compression is detected by the
// gzip magic bytes (1f 8b), not by the file name, so "x.gz" that is really plain still loads.
// Reading is in large chunks (zlib's own buffer is enlarged too): Fashion-MNIST's 47 MB of
// pixels inflate in a fraction of a second.
//
// Limits (one rule for every format and every reader of user files, JSON included):
// - only regular files are read: a FIFO, a device (/dev/zero, /dev/stdin), a socket or a
//   directory is refused before it is opened, so nothing reads for ever or blocks in open();
// - what is read or inflated is checked against the memory budget (core/memory_check.h) before
//   each buffer grows (a plain file by its size, up front; a gzip stream as it inflates, because
//   its trailer's size is attacker-controlled): a gzip bomb stops at the budget with a message
//   naming the file, the compressed size and how far it got.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dplab::data {

// Throws IoError "cannot read 'PATH': it is a FIFO, not a regular file" (or "is a directory",
// "a character device", ...) unless `path` is a regular file (symbolic links followed); IoError
// with the system's reason if it does not exist. Every reader below calls it first.
void require_regular_file(const std::string& path);

// The decompressed bytes of `path`. Throws IoError naming the file if it cannot be opened or
// read, ParseError naming the file and the decompressed byte offset if the gzip stream is corrupt
// or truncated.
std::vector<std::uint8_t> read_file_bytes(const std::string& path);

// The same, as text (for the CSV and LIBSVM loaders).
std::string read_file_text(const std::string& path);

// The first `count` decompressed bytes (fewer if the file is shorter); used to sniff a format.
std::vector<std::uint8_t> read_file_prefix(const std::string& path, std::size_t count);

// True if the file starts with the gzip magic bytes.
bool is_gzip_file(const std::string& path);

}  // namespace dplab::data
