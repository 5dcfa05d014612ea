// IDX files (the MNIST family's format: big-endian header, then raw items), plain or gzip.
// Header: two zero bytes, a type byte (0x08 = unsigned byte, the only type the MNIST family
// uses), a dimension count, then one big-endian uint32 per dimension. Images are magic
// 0x00000803 (n x rows x cols), labels 0x00000801 (n). Errors name the file and byte offset.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace dplab::data {

// One unsigned-byte IDX array: dims[0] items of product(dims[1..]) bytes each.
struct IdxArray {
  std::vector<std::uint32_t> dims;
  std::vector<std::uint8_t> values;  // row-major, product(dims) entries
};

// Reads an unsigned-byte IDX file with exactly `expected_dims` dimensions (3 for images, 1 for
// labels; 2 is accepted for images as n x d). Throws IoError / ParseError naming the file.
IdxArray read_idx_u8(const std::string& path, int expected_dims);

// Images + labels -> Dataset. Features are pixel / 255 (the maximum is known a priori, so this
// scaling costs no privacy; paper appendix H), kept as the native bytes (Dataset::pixels; the
// map is data/feature_rows.h), num_classes = max label + 1. The item counts must match. `name`
// defaults to the images file name.
Dataset load_idx_pair(const std::string& images_path, const std::string& labels_path,
                      const std::string& name = "");

}  // namespace dplab::data
