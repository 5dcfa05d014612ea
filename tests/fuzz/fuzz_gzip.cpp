// libFuzzer harness: whole-file reading with gzip detection (file_reader.h). Inputs that are
// not gzip get the magic bytes prepended half of the time, so the inflate path is exercised.
#include <cstdint>
#include <vector>

#include "core/error.h"
#include "data/file_reader.h"
#include "fuzz_input_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  if (size > 0 && (data[0] & 1) && !(size >= 2 && data[0] == 0x1f && data[1] == 0x8b)) {
    bytes.insert(bytes.begin(), {0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0xff});
  }
  const std::string path = dplab::fuzz::write_input("input.gz", bytes.data(), bytes.size());
  try {
    const auto all = dplab::data::read_file_bytes(path);
    const auto prefix = dplab::data::read_file_prefix(path, 16);
    // The prefix must be the first bytes of the whole.
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      if (i >= all.size() || prefix[i] != all[i]) __builtin_trap();
    }
  } catch (const dplab::Error&) {
  }
  return 0;
}
