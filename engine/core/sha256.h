// SHA-256 (FIPS 180-4) of a byte string or a file, as 64 lowercase hex digits. Used to verify
// the data files dplab ships (datasets/SHA256SUMS) before reading them.
#pragma once

#include <string>
#include <string_view>

namespace dplab {

std::string sha256_hex(std::string_view bytes);
// Streams the file; throws IoError naming it when it cannot be read.
std::string sha256_file_hex(const std::string& path);

}  // namespace dplab
