// libFuzzer harness: LIBSVM / svmlight files -> Dataset (libsvm_loader.h).
#include <cstdint>

#include "core/error.h"
#include "data/libsvm_loader.h"
#include "fuzz_input_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = dplab::fuzz::write_input("input.svm", data, size);
  for (bool regression : {false, true}) {
    try {
      dplab::data::LibsvmOptions options;
      options.regression = regression;
      const auto dataset = dplab::data::load_libsvm(path, options);
      dataset.validate();
    } catch (const dplab::Error&) {
    }
  }
  return 0;
}
