// .npz writing and reading with libzip (format: npz_file.h).
#include "data/npz_file.h"

#include <zip.h>

#include <bit>
#include <cstring>
#include <ctime>
#include <functional>
#include <memory>
#include <numeric>

#include "core/error.h"
#include "data/file_reader.h"

namespace dplab::data {

static_assert(std::endian::native == std::endian::little, "NPY '<f4' data are written as held");

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicSize = 6;
constexpr std::size_t kPreambleSize = kMagicSize + 2 + 2;  // magic, version, header length
constexpr time_t kZipEpoch = 315532800;                    // 1980-01-01 00:00:00 UTC

std::size_t element_count(const std::vector<std::int64_t>& shape) {
  return static_cast<std::size_t>(
      std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>()));
}

// Python's tuple text: "()", "(4,)", "(2, 3)".
std::string shape_tuple(const std::vector<std::int64_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

[[noreturn]] void fail(const std::string& what, const std::string& message) {
  throw ParseError(what + ": " + message);
}

// The value text after "'key':" in an NPY header dict, up to the next top-level ',' or '}'.
std::string header_value(const std::string& header, const std::string& key,
                         const std::string& what) {
  const std::string token = "'" + key + "':";
  const auto at = header.find(token);
  if (at == std::string::npos) fail(what, "the NPY header has no '" + key + "'");
  std::size_t begin = at + token.size();
  while (begin < header.size() && header[begin] == ' ') ++begin;
  std::size_t end = begin;
  int depth = 0;
  for (; end < header.size(); ++end) {
    const char c = header[end];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth == 0 && (c == ',' || c == '}')) break;
    if (depth < 0) break;
  }
  if (header[begin] == '(') {
    const auto close = header.find(')', begin);
    if (close == std::string::npos) fail(what, "the NPY header's shape is not closed");
    return header.substr(begin, close - begin + 1);
  }
  return header.substr(begin, end - begin);
}

std::vector<std::int64_t> parse_shape(const std::string& tuple, const std::string& what) {
  if (tuple.size() < 2 || tuple.front() != '(' || tuple.back() != ')') {
    fail(what, "shape '" + tuple + "' is not a tuple");
  }
  std::vector<std::int64_t> shape;
  std::size_t i = 1;
  while (i + 1 < tuple.size()) {
    while (i + 1 < tuple.size() && (tuple[i] == ' ' || tuple[i] == ',')) ++i;
    if (i + 1 >= tuple.size()) break;
    std::size_t used = 0;
    std::int64_t extent = 0;
    try {
      extent = std::stoll(tuple.substr(i), &used);
    } catch (const std::exception&) {
      fail(what, "shape '" + tuple + "' is not a tuple of integers");
    }
    if (used == 0 || extent < 0) fail(what, "shape '" + tuple + "' has a bad extent");
    shape.push_back(extent);
    i += used;
  }
  return shape;
}

struct ZipCloser {
  void operator()(zip_t* archive) const { zip_discard(archive); }
};

}  // namespace

std::string npy_bytes(const NpyArray& array) {
  if (element_count(array.shape) != array.values.size()) {
    throw InvalidArgument("npz array '" + array.name + "': shape " + shape_tuple(array.shape) +
                          " does not hold " + std::to_string(array.values.size()) + " values");
  }
  std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape_tuple(array.shape) + ", }";
  // Pad with spaces so that preamble + header + '\n' is a multiple of 64 (NPY 1.0).
  const std::size_t unpadded = kPreambleSize + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string bytes(kMagic, kMagicSize);
  bytes += '\x01';
  bytes += '\x00';
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>((header.size() >> 8) & 0xff);
  bytes += header;
  const auto* data = reinterpret_cast<const char*>(array.values.data());
  bytes.append(data, array.values.size() * sizeof(float));
  return bytes;
}

NpyArray parse_npy(const std::string& bytes, const std::string& name, const std::string& what) {
  if (bytes.size() < kPreambleSize || bytes.compare(0, kMagicSize, kMagic, kMagicSize) != 0) {
    fail(what, "not an NPY array (no \\x93NUMPY magic)");
  }
  const auto major = static_cast<unsigned char>(bytes[6]);
  std::size_t header_size = 0, offset = 0;
  if (major == 1) {
    header_size = static_cast<unsigned char>(bytes[8]) |
                  (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    offset = kPreambleSize;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail(what, "truncated NPY header");
    for (int b = 3; b >= 0; --b) {
      header_size = (header_size << 8) | static_cast<unsigned char>(bytes[8 + b]);
    }
    offset = 12;
  } else {
    fail(what, "NPY version " + std::to_string(major) + " is not 1, 2 or 3");
  }
  if (bytes.size() < offset + header_size) fail(what, "truncated NPY header");
  const std::string header = bytes.substr(offset, header_size);
  const std::string descr = header_value(header, "descr", what);
  if (descr != "'<f4'") fail(what, "dtype " + descr + " is not float32 ('<f4')");
  if (header_value(header, "fortran_order", what) != "False") {
    fail(what, "Fortran-ordered arrays are not read (save in C order)");
  }
  NpyArray array;
  array.name = name;
  array.shape = parse_shape(header_value(header, "shape", what), what);
  const std::size_t count = element_count(array.shape);
  const std::size_t data_begin = offset + header_size;
  if (bytes.size() - data_begin != count * sizeof(float)) {
    fail(what, "holds " + std::to_string(bytes.size() - data_begin) + " data bytes, shape " +
                   shape_tuple(array.shape) + " needs " + std::to_string(count * sizeof(float)));
  }
  array.values.resize(count);
  if (count) std::memcpy(array.values.data(), bytes.data() + data_begin, count * sizeof(float));
  return array;
}

void write_npz(const std::string& path, const std::vector<NpyArray>& arrays) {
  int error = 0;
  std::unique_ptr<zip_t, ZipCloser> archive(
      zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error));
  if (!archive) {
    zip_error_t reason;
    zip_error_init_with_code(&reason, error);
    const std::string text = zip_error_strerror(&reason);
    zip_error_fini(&reason);
    throw IoError("cannot write '" + path + "': " + text);
  }
  // libzip reads the member buffers at zip_close: keep them alive until then.
  std::vector<std::string> members;
  members.reserve(arrays.size());
  for (const auto& array : arrays) {
    members.push_back(npy_bytes(array));
    zip_source_t* source =
        zip_source_buffer(archive.get(), members.back().data(), members.back().size(), 0);
    const std::string member = array.name + ".npy";
    const zip_int64_t index =
        source ? zip_file_add(archive.get(), member.c_str(), source, ZIP_FL_ENC_UTF_8) : -1;
    if (index < 0) {
      if (source) zip_source_free(source);
      throw IoError("cannot write '" + path + "' member '" + member +
                    "': " + zip_strerror(archive.get()));
    }
    zip_set_file_compression(archive.get(), static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0);
    // A fixed time stamp (the zip format's earliest, 1980-01-01): the same arrays give the same
    // bytes whichever door writes them and whenever (release doors are compared byte for byte).
    zip_file_set_mtime(archive.get(), static_cast<zip_uint64_t>(index), kZipEpoch, 0);
  }
  if (zip_close(archive.get()) != 0) {
    throw IoError("cannot write '" + path + "': " + zip_strerror(archive.get()));
  }
  archive.release();  // closed
}

std::vector<NpyArray> read_npz(const std::string& path) {
  const std::vector<std::uint8_t> bytes = read_file_bytes(path, kDataFile);
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  zip_t* opened = source ? zip_open_from_source(source, ZIP_RDONLY, &error) : nullptr;
  if (!opened) {
    const std::string text = zip_error_strerror(&error);
    zip_error_fini(&error);
    if (source) zip_source_free(source);
    throw ParseError("'" + path + "' is not an .npz (zip) archive: " + text);
  }
  zip_error_fini(&error);
  std::unique_ptr<zip_t, ZipCloser> archive(opened);
  std::vector<NpyArray> arrays;
  const zip_int64_t count = zip_get_num_entries(archive.get(), 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    zip_stat_t stat;
    if (zip_stat_index(archive.get(), static_cast<zip_uint64_t>(i), 0, &stat) != 0) {
      throw ParseError("'" + path + "': " + zip_strerror(archive.get()));
    }
    const std::string member = stat.name;
    const std::string what = "'" + path + "' member '" + member + "'";
    if (member.size() < 4 || member.compare(member.size() - 4, 4, ".npy") != 0) {
      fail(what, "not an .npy member");
    }
    if (stat.size > bytes.size() * 1032 + 1024) fail(what, "claims an impossible size");
    std::string data(static_cast<std::size_t>(stat.size), '\0');
    zip_file_t* file = zip_fopen_index(archive.get(), static_cast<zip_uint64_t>(i), 0);
    if (!file) fail(what, zip_strerror(archive.get()));
    const zip_int64_t got = zip_fread(file, data.data(), data.size());
    zip_fclose(file);
    if (got < 0 || static_cast<zip_uint64_t>(got) != stat.size) fail(what, "truncated");
    arrays.push_back(parse_npy(data, member.substr(0, member.size() - 4), what));
  }
  return arrays;
}

}  // namespace dplab::data
