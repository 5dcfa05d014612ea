// The one reader of user files: data (CSV, LIBSVM, IDX), the text corpus, and every JSON file
// (experiment files, train --config, presets, --feature-bounds, plan.json, slurm.json). Plain or
// gzip-compressed: compression is detected by the gzip magic bytes (1f 8b), not by the file name,
// so "x.gz" that is really plain still loads. Reading is in large chunks (zlib's own buffer is
// enlarged too): Fashion-MNIST's 47 MB of pixels inflate in a fraction of a second.
//
// Rules (one implementation for every format; scripts/check-layers.sh refuses a raw
// std::ifstream elsewhere):
// - only regular files are read: the file is opened without blocking (O_NONBLOCK) and checked
//   with fstat on that descriptor, so a FIFO, a device (/dev/zero, /dev/stdin), a socket or a
//   directory is refused with a message naming the file, and nothing reads for ever or blocks in
//   open() (nor can the path be swapped for a FIFO between the check and the read);
// - a size cap per kind of file (FileRules::max_bytes, on the decompressed bytes): a JSON file
//   above 256 MiB or a corpus above 4 GiB is refused before it is read; data files have no fixed
//   cap, the memory budget is theirs;
// - what is read or inflated is checked against the memory budget (core/memory_check.h) before
//   each buffer grows (a plain file by its size, up front; a gzip stream as it inflates, because
//   its trailer's size is attacker-controlled): a gzip bomb stops at the budget with a message
//   naming the file, the compressed size and how far it got;
// - text with names (JSON, the corpus) must be UTF-8: the first malformed byte is named by its
//   byte offset (core/utf8.h), before any parser sees the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace dplab::data {

// What one kind of input file may be, beyond "a regular file within the memory budget".
struct FileRules {
  std::size_t max_bytes = SIZE_MAX;  // size cap on the (decompressed) bytes
  bool utf8 = false;                 // text with names: must be well-formed UTF-8
  const char* kind = "data file";    // names the kind in messages ("a JSON file")
  // Memory the caller's parse will build per byte of text, at worst; checked with the text's own
  // bytes against the memory budget before the file is read (0: the caller checks its own).
  double parsed_bytes_per_byte = 0;
};

// Data sets: no fixed cap (the memory budget is the cap), any bytes (the loaders' own rules).
inline constexpr FileRules kDataFile{};
// JSON settings and plans. A plan of 10^6 jobs (core/limits.h kMaxTrainingJobs) is about 100 MB.
inline constexpr std::size_t kMaxJsonFileBytes = std::size_t{256} << 20;
// nlohmann::json's parse tree per byte of JSON text, at worst: a value is 16 bytes and needs 2
// bytes of text ("0,"), and an array's vector may hold twice its size; an object member is a map
// node (~80 bytes) for 5 bytes of text; a string 48 bytes for 3.
inline constexpr double kJsonTreeBytesPerTextByte = 16;
inline constexpr FileRules kJsonFile{kMaxJsonFileBytes, true, "a JSON file",
                                     kJsonTreeBytesPerTextByte};
// A text corpus (text/text_corpus.h): the papers' corpora are 4 MB (KJV) to 1 GB (text8-like).
inline constexpr std::size_t kMaxCorpusFileBytes = std::size_t{4} << 30;
inline constexpr FileRules kCorpusFile{kMaxCorpusFileBytes, true, "a text corpus"};

// Throws IoError "cannot read 'PATH': it is a FIFO, not a regular file" (or "is a directory",
// "a character device", ...) unless `path` is a regular file (symbolic links followed); IoError
// with the system's reason if it does not exist.
void require_regular_file(const std::string& path);

// The decompressed bytes of `path`. Throws IoError naming the file if it cannot be opened or
// read or breaks the size cap, ParseError naming the file and the decompressed byte offset if the
// gzip stream is corrupt or truncated (or, with rules.utf8, at the first malformed UTF-8 byte),
// InvalidArgument naming the file when it does not fit in the memory budget.
std::vector<std::uint8_t> read_file_bytes(const std::string& path,
                                          const FileRules& rules = kDataFile);

// The same, as text (the CSV and LIBSVM loaders, the corpus, JSON).
std::string read_file_text(const std::string& path, const FileRules& rules = kDataFile);

// A JSON file: read_file_text(path, kJsonFile) (its parse tree checked against the memory budget
// before reading), then parse_json_text (core/json_guard.h: depth-capped, duplicate keys refused,
// errors name the file, line, column and byte).
nlohmann::json read_json_file(const std::string& path);

// The first `count` decompressed bytes (fewer if the file is shorter); used to sniff a format.
std::vector<std::uint8_t> read_file_prefix(const std::string& path, std::size_t count);

// True if the file starts with the gzip magic bytes.
bool is_gzip_file(const std::string& path);

}  // namespace dplab::data
