// NumPy's .npz format for float32 arrays: a zip archive of .npy files, one per named array, as
// numpy.savez writes it and numpy.load reads it with no dplab code (model.npz of a release).
//
// Each member "<name>.npy" is the NPY format version 1.0 (numpy.lib.format): the magic
// "\x93NUMPY", version bytes 1 0, a little-endian uint16 header length, then an ASCII dict
// "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" padded with spaces and a final
// '\n' so that the data start at a multiple of 64 bytes, then the values in C order,
// little-endian. The archive is written by libzip (stored, not compressed: numpy reads either,
// and the arrays are floats that barely compress).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dplab::data {

struct NpyArray {
  std::string name;                 // the member is name + ".npy"
  std::vector<std::int64_t> shape;  // () for a scalar
  std::vector<float> values;        // product of shape, C order
};

// Writes the arrays to `path` (libzip writes a temporary file and renames it over `path` when
// done, so a reader never sees half a file). Throws IoError naming the path.
void write_npz(const std::string& path, const std::vector<NpyArray>& arrays);

// Reads an .npz of float32 arrays (C order, little-endian), in the archive's order. Throws
// ParseError naming the file and the member for anything else (another dtype, Fortran order,
// a truncated member), IoError when the file cannot be opened; read through the one input reader
// (file_reader.h), then unzipped in memory.
std::vector<NpyArray> read_npz(const std::string& path);

// The NPY bytes of one array (header + data), and its inverse; `what` names it in errors.
std::string npy_bytes(const NpyArray& array);
NpyArray parse_npy(const std::string& bytes, const std::string& name, const std::string& what);

}  // namespace dplab::data
