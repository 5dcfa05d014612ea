// libFuzzer harness: CSV tables -> Dataset (csv_loader.h), classification and regression, rows
// with missing values dropped or imputed, and the fitted encoding applied again through its JSON.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "data/csv_loader.h"
#include "fuzz_input_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = dplab::fuzz::write_input("input.csv", data, size);
  using dplab::data::MissingValues;
  for (bool regression : {false, true}) {
    for (MissingValues policy : {MissingValues::drop_row, MissingValues::impute_mean}) {
      try {
        dplab::data::CsvOptions options;  // the delimiter detected
        options.regression = regression;
        options.missing = policy;
        const auto dataset = dplab::data::load_csv(path, options);
        dataset.validate();
        // What predict does with the fitted rule (csv_encoding_json.cpp): JSON and back.
        if (dataset.csv_encoder) {
          const auto encoder =
              dplab::data::CsvEncoder::from_json(dataset.csv_encoder->to_json(), "fuzz");
          std::vector<long> lines;
          const auto table = dplab::data::read_csv_table(path, options.delimiter);
          encoder.encode_for_prediction(encoder.align(table), &lines).validate();
        }
      } catch (const dplab::Error&) {
      }
    }
  }
  return 0;
}
