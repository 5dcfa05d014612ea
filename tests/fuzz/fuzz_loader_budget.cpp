// libFuzzer harness: the memory budget (core/memory_check.h) holds for every loader, whatever a
// small input claims. Structure-aware, so a few bytes can stand for a large or hostile file:
//
//   byte 0      bits 0-1: format (0 auto, 1 csv, 2 libsvm, 3 idx); bit 2: write it gzip-compressed
//   bytes 1-2   R (little-endian): the body is written R + 1 times (capped at kMaxFileBytes)
//   rest        the body
//
// For IDX the body is the images file; the labels file is made from the images header (its
// item count, so the counts agree and the loader gets as far as its size checks).
//
// The budget is kBudgetBytes (32 MB), not the 4 MB of the other harnesses, and files reach
// 64 MB, so a gzip bomb, a LIBSVM index of 2^24, a one-hot column of 100,000 levels or an IDX
// header announcing 4 GB are all within reach. After each input the harness checks that the peak
// resident memory grew by less than the budget plus ASan's shadow (1/8) and 32 MB of slack, and
// traps otherwise: an allocation the budget did not see is a finding.
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/error.h"
#include "core/memory_check.h"
#include "data/dataset_catalog.h"
#include "fuzz_input_file.h"
#include "fuzz_peak_memory.h"

namespace {

constexpr double kBudgetBytes = 32e6;
constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;
constexpr double kAllowedGrowth = kBudgetBytes * 1.125 + 32e6;

void write_repeated(const std::string& path, bool gzip, const std::uint8_t* body, std::size_t size,
                    std::size_t repeats) {
  if (size > 0) repeats = std::min(repeats, std::max<std::size_t>(1, kMaxFileBytes / size));
  if (gzip) {
    gzFile out = gzopen(path.c_str(), "wb1");
    if (out == nullptr) std::abort();
    for (std::size_t r = 0; r < repeats && size > 0; ++r)
      gzwrite(out, body, static_cast<unsigned>(size));
    gzclose(out);
    return;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  for (std::size_t r = 0; r < repeats && size > 0; ++r) std::fwrite(body, 1, size, f);
  std::fclose(f);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const int format = data[0] & 3;
  const bool gzip = (data[0] & 4) != 0;
  const std::size_t repeats = 1 + (std::size_t{data[1]} | std::size_t{data[2]} << 8);
  const std::uint8_t* body = data + 3;
  const std::size_t body_size = size - 3;

  static const char* const kNames[] = {"input", "input.csv", "input.svm", "input-images-idx3"};
  const std::string path = dplab::fuzz::input_path(kNames[format]);
  write_repeated(path, gzip, body, body_size, repeats);
  dplab::set_memory_limit_bytes(kBudgetBytes);  // after input_path(), which sets 4 MB

  dplab::data::DatasetSource source;
  source.path = path;
  static const dplab::data::DataFormat kFormats[] = {
      dplab::data::DataFormat::automatic, dplab::data::DataFormat::csv,
      dplab::data::DataFormat::libsvm, dplab::data::DataFormat::idx};
  source.format = kFormats[format];
  if (format == 3) {
    // Labels agreeing with the images header's count (at most 1 MB of them written).
    std::string labels("\0\0\x08\x01", 4);
    std::uint32_t count = 0;
    if (body_size >= 8) {
      labels.append(reinterpret_cast<const char*>(body + 4), 4);
      count = std::uint32_t{body[4]} << 24 | std::uint32_t{body[5]} << 16 |
              std::uint32_t{body[6]} << 8 | body[7];
    } else {
      labels.append(4, '\0');
    }
    for (std::uint32_t k = 0; k < std::min<std::uint32_t>(count, 1u << 20); ++k)
      labels.push_back(static_cast<char>(k % 2));
    source.second_path = dplab::fuzz::write_input(
        "input-labels-idx1", reinterpret_cast<const std::uint8_t*>(labels.data()), labels.size());
  }

  const dplab::fuzz::PeakMemoryCheck memory;
  try {
    const auto dataset = dplab::data::load_dataset(source);
    (void)dataset;
  } catch (const dplab::Error&) {
  }
  memory.check(kAllowedGrowth, kBudgetBytes, "fuzz_loader_budget");
  return 0;
}
