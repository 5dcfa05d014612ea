// libFuzzer harness: IDX images and labels files (plain or gzip). Any dplab::Error is a correct
// rejection; a crash, a sanitizer report, another exception or a leak is a finding.
#include <cstdint>

#include "core/error.h"
#include "data/idx_loader.h"
#include "fuzz_input_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = dplab::fuzz::write_input("input.idx", data, size);
  const std::string labels = dplab::fuzz::input_path("labels.idx");
  try {
    const auto images = dplab::data::read_idx_u8(path, 3);
    // A labels file of the announced count with labels 0,1,2,...: the pair conversion too.
    std::string bytes = {0, 0, 8, 1};
    for (int shift = 24; shift >= 0; shift -= 8)
      bytes.push_back(static_cast<char>(images.dims[0] >> shift));
    if (images.dims[0] <= 4096) {
      for (std::uint32_t i = 0; i < images.dims[0]; ++i) bytes.push_back(static_cast<char>(i % 3));
      dplab::fuzz::write_input("labels.idx", reinterpret_cast<const std::uint8_t*>(bytes.data()),
                               bytes.size());
      (void)dplab::data::load_idx_pair(path, labels);
    }
  } catch (const dplab::Error&) {
  }
  try {
    (void)dplab::data::read_idx_u8(path, 1);
    (void)dplab::data::load_idx_pair(dplab::fuzz::input_path("labels.idx"), path);
  } catch (const dplab::Error&) {
  }
  return 0;
}
