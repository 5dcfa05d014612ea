// libFuzzer harness: CSV tables -> Dataset (csv_loader.h), classification and regression.
#include <cstdint>

#include "core/error.h"
#include "data/csv_loader.h"
#include "fuzz_input_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = dplab::fuzz::write_input("input.csv", data, size);
  for (bool regression : {false, true}) {
    try {
      dplab::data::CsvOptions options;
      options.regression = regression;
      const auto dataset = dplab::data::load_csv(path, options);
      dataset.validate();
    } catch (const dplab::Error&) {
    }
  }
  return 0;
}
