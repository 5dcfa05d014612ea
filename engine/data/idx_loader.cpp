// IDX reading and the images+labels -> Dataset conversion (see idx_loader.h).
#include "data/idx_loader.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>

#include "core/error.h"
#include "core/memory_check.h"
#include "data/file_reader.h"
#include "data/large_buffer.h"

namespace dplab::data {
namespace {

constexpr std::uint8_t kTypeUnsignedByte = 0x08;
// Largest IDX payload loaded (as floats it takes 4x this in memory). Fashion-MNIST is 47 MB.
constexpr std::uint64_t kMaxIdxBytes = std::uint64_t{4} << 30;

std::string hex32(std::uint32_t value) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%08X", value);
  return buffer;
}

std::uint32_t big_endian_u32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 |
         std::uint32_t{p[3]};
}

[[noreturn]] void fail_at(const std::string& path, std::size_t offset, const std::string& what) {
  throw ParseError(path + ": byte offset " + std::to_string(offset) + ": " + what);
}

// What an IDX header announces, checked (magic, dimensions, size cap) but nothing read beyond it.
struct IdxHeader {
  std::vector<std::uint32_t> dims;
  std::size_t header_bytes = 0;
  std::uint64_t item_bytes = 1;
  std::uint64_t total_bytes = 0;  // the payload after the header
};

IdxHeader read_idx_header(const std::string& path, int expected_dims) {
  // The header first (at most 4 + 4 * 255 bytes), so the size the header announces bounds how
  // much is inflated or read: a gzip trailer or a hostile header never sizes an allocation.
  std::vector<std::uint8_t> bytes = read_file_prefix(path, 4 + 4 * 255);
  const std::string kind = expected_dims == 1 ? "labels" : "images";
  if (bytes.size() < 4) {
    fail_at(path, bytes.size(),
            "file ends inside the 4-byte IDX magic number (" + std::to_string(bytes.size()) +
                " bytes)");
  }
  const std::uint32_t magic = big_endian_u32(bytes.data());
  const int ndims = bytes[3];
  const bool dims_ok = ndims == expected_dims || (expected_dims == 3 && ndims == 2);
  if (bytes[0] != 0 || bytes[1] != 0 || bytes[2] != kTypeUnsignedByte || !dims_ok) {
    fail_at(path, 0,
            "bad magic number " + hex32(magic) + ", expected " +
                hex32(0x0800u | static_cast<std::uint32_t>(expected_dims)) + " (IDX " + kind +
                " of unsigned bytes)");
  }
  const std::size_t header = 4 + 4 * static_cast<std::size_t>(ndims);
  if (bytes.size() < header) {
    fail_at(path, bytes.size(),
            "file ends inside the IDX header (" + std::to_string(header) + " bytes expected)");
  }
  IdxHeader array;
  std::uint64_t& item_bytes = array.item_bytes;
  std::uint64_t& total_bytes = array.total_bytes;
  bool too_large = false;
  for (int k = 0; k < ndims; ++k) {
    const std::uint32_t dim = big_endian_u32(bytes.data() + 4 + 4 * k);
    if (dim == 0)
      fail_at(path, 4 + 4 * static_cast<std::size_t>(k),
              "dimension " + std::to_string(k) + " is 0");
    array.dims.push_back(dim);
    if (k > 0) too_large |= __builtin_mul_overflow(item_bytes, std::uint64_t{dim}, &item_bytes);
  }
  too_large |= __builtin_mul_overflow(std::uint64_t{array.dims[0]}, item_bytes, &total_bytes);
  too_large |= total_bytes > kMaxIdxBytes;
  if (too_large) {
    std::string shape;
    for (const auto dim : array.dims) shape += (shape.empty() ? "" : " x ") + std::to_string(dim);
    fail_at(path, 4,
            "header announces " + shape + " bytes of " + kind + ", more than dplab loads (" +
                std::to_string(kMaxIdxBytes >> 30) + " GiB): corrupt header?");
  }
  array.header_bytes = header;
  return array;
}

}  // namespace

IdxArray read_idx_u8(const std::string& path, int expected_dims) {
  const IdxHeader h = read_idx_header(path, expected_dims);
  const std::string kind = expected_dims == 1 ? "labels" : "images";
  IdxArray array;
  array.dims = h.dims;
  const std::size_t header = h.header_bytes;
  const std::uint64_t item_bytes = h.item_bytes;
  const std::uint64_t total_bytes = h.total_bytes;
  const std::size_t expected = header + static_cast<std::size_t>(total_bytes);
  // One byte more than announced, to notice trailing garbage without reading all of it.
  std::vector<std::uint8_t> bytes = read_file_prefix(path, expected + 1);
  if (bytes.size() < expected) {
    const std::size_t complete = (bytes.size() - header) / static_cast<std::size_t>(item_bytes);
    fail_at(path, bytes.size(),
            "file is truncated: header announces " + std::to_string(array.dims[0]) + " " + kind +
                " of " + std::to_string(item_bytes) + " bytes (" + std::to_string(expected) +
                " bytes in all) but it ends after item " + std::to_string(complete));
  }
  if (bytes.size() > expected) {
    fail_at(path, expected,
            "unexpected bytes after the last of " + std::to_string(array.dims[0]) + " " + kind);
  }
  // Drop the header in place rather than copying 47 MB.
  bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(header));
  array.values = std::move(bytes);
  return array;
}

Dataset load_idx_pair(const std::string& images_path, const std::string& labels_path,
                      const std::string& name) {
  // Both headers first: a count mismatch or a size over the budget is found before anything is
  // inflated (a 2 MB gzip of images used to inflate 4 GB before its labels were looked at).
  const IdxHeader image_header = read_idx_header(images_path, 3);
  const IdxHeader label_header = read_idx_header(labels_path, 1);
  if (image_header.dims[0] != label_header.dims[0]) {
    // Offset 4: the item count in the labels header.
    fail_at(labels_path, 4,
            "header announces " + std::to_string(label_header.dims[0]) + " labels but '" +
                images_path + "' has " + std::to_string(image_header.dims[0]) + " images");
  }
  // Peak: the images as read, their copy as the pixel matrix, and the copy a train/validation
  // split makes, plus the labels.
  require_memory(images_path + ": " + std::to_string(image_header.dims[0]) + " images of " +
                     std::to_string(image_header.item_bytes) +
                     " bytes (as read, as pixels, and the train/validation split's copy)",
                 3.0 * static_cast<double>(image_header.total_bytes + image_header.header_bytes) +
                     static_cast<double>(label_header.total_bytes) * (1 + sizeof(float)));
  const IdxArray images = read_idx_u8(images_path, 3);
  const IdxArray labels = read_idx_u8(labels_path, 1);
  if (images.dims[0] != labels.dims[0]) {
    fail_at(labels_path, 4, "the item count changed while reading");  // the file was replaced
  }
  const auto n = static_cast<Index>(images.dims[0]);
  const auto d = static_cast<Index>(images.values.size() / images.dims[0]);

  Dataset data;
  data.name = name.empty() ? std::filesystem::path(images_path).filename().string() : name;
  // The native bytes (4x smaller than floats); feature = byte / 255 (data/feature_rows.h).
  resize_for_overwrite(data.pixels, n, d);
  std::copy(images.values.begin(), images.values.end(), data.pixels.data());

  data.targets.resize(n);
  std::uint8_t max_label = 0;
  std::vector<std::size_t> first_seen(256, SIZE_MAX);  // item index of each label's first use
  for (Index i = 0; i < n; ++i) {
    const std::uint8_t label = labels.values[static_cast<std::size_t>(i)];
    data.targets[i] = static_cast<float>(label);
    max_label = std::max(max_label, label);
    if (first_seen[label] == SIZE_MAX) first_seen[label] = static_cast<std::size_t>(i);
  }
  // Classes are 0..K-1, each used at least once: a corrupt byte (255) must not make 256 classes.
  for (int k = 0; k < max_label; ++k) {
    if (first_seen[static_cast<std::size_t>(k)] != SIZE_MAX) continue;
    int next = k + 1;
    while (first_seen[static_cast<std::size_t>(next)] == SIZE_MAX) ++next;
    fail_at(labels_path, 8 + first_seen[static_cast<std::size_t>(next)],
            "label " + std::to_string(next) + " but no item has label " + std::to_string(k) +
                " (labels must be the classes 0..K-1, each used; corrupt labels file?)");
  }
  data.num_classes = max_label + 1;
  return data;
}

}  // namespace dplab::data
