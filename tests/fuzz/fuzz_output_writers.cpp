// libFuzzer harness: the engine's writers of JSON (core/json_text.h, every output file) and CSV
// (core/csv_table.h, releases and every GUI export), and the excerpts its readers put in messages
// (core/json_guard.h json_excerpt), fed arbitrary bytes as names, labels and values: not UTF-8,
// control characters, NUL, quotes, blanks at either end, byte order marks, and numbers of every
// kind (huge integers, subnormals, infinities, NaN).
//
// What must hold, for every input:
// - JSON: json_text never throws; its text parses back (nlohmann::json::parse and dplab's own
//   parse_json_text alike) to the same content, with each ill-formed UTF-8 sequence as U+FFFD
//   (utf8_replaced, core/utf8.h) and non-finite numbers as null. (Keys that differ only in bytes
//   that are not UTF-8 would become one key; the harness keeps such keys apart.)
// - json_excerpt of any value returns UTF-8 (never half a character) of at most 60 bytes, and
//   JsonReader's errors on such values are dplab::Errors.
// - CSV: csv_text is UTF-8, and a table written by write_csv_file reads back through
//   data::read_csv_table to the same header and cells (utf8_replaced); a number written by
//   number_text reads back as the same double.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/csv_table.h"
#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "core/json_text.h"
#include "core/number_text.h"
#include "core/utf8.h"
#include "data/csv_loader.h"
#include "data/text_number.h"
#include "fuzz_input_file.h"

namespace {

using nlohmann::json;

[[noreturn]] void fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "fuzz_output_writers: %s%s%s\n", what, detail.empty() ? "" : ": ",
               detail.c_str());
  __builtin_trap();
}

double any_double(FuzzedDataProvider& p) {
  const auto bits = p.ConsumeIntegral<std::uint64_t>();
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// A value and what it must read back as.
struct Pair {
  json value, expected;
};

Pair scalar(FuzzedDataProvider& p) {
  switch (p.ConsumeIntegralInRange(0, 6)) {
    case 0: {
      const std::string s = p.ConsumeRandomLengthString(40);
      return {json(s), json(dplab::utf8_replaced(s))};
    }
    case 1: {
      const double x = any_double(p);
      return {json(x), std::isfinite(x) ? json(x) : json(nullptr)};
    }
    case 2: {
      const auto x = p.ConsumeIntegral<std::int64_t>();
      return {json(x), json(x)};
    }
    case 3: {
      const auto x = p.ConsumeIntegral<std::uint64_t>();
      return {json(x), json(x)};
    }
    case 4: {
      const bool b = p.ConsumeBool();
      return {json(b), json(b)};
    }
    case 5:
      return {json(nullptr), json(nullptr)};
    default: {
      static const double kOdd[] = {
          std::nan(""), HUGE_VAL, -HUGE_VAL,          1e308,
          -0.0,         4.9e-324, 9007199254740993.0, 1.7976931348623157e308};
      const double x = p.PickValueInArray(kOdd);
      return {json(x), std::isfinite(x) ? json(x) : json(nullptr)};
    }
  }
}

Pair value(FuzzedDataProvider& p, int depth) {
  if (depth >= 3 || p.ConsumeIntegralInRange(0, 3) > 0) return scalar(p);
  const bool object = p.ConsumeBool();
  Pair out{object ? json::object() : json::array(), object ? json::object() : json::array()};
  const int n = p.ConsumeIntegralInRange(0, 4);
  std::set<std::string> keys;  // after replacement: distinct (see the header)
  for (int i = 0; i < n && p.remaining_bytes() > 0; ++i) {
    Pair item = value(p, depth + 1);
    if (object) {
      const std::string key = p.ConsumeRandomLengthString(20);
      if (!keys.insert(dplab::utf8_replaced(key)).second || out.value.contains(key)) continue;
      out.value[key] = std::move(item.value);
      out.expected[dplab::utf8_replaced(key)] = std::move(item.expected);
    } else {
      out.value.push_back(std::move(item.value));
      out.expected.push_back(std::move(item.expected));
    }
  }
  return out;
}

void check_json(FuzzedDataProvider& p) {
  const Pair v = value(p, 0);
  for (int indent : {-1, 1}) {
    const std::string text = dplab::json_text(v.value, indent);
    if (dplab::first_invalid_utf8(text)) fail("json_text wrote bytes that are not UTF-8", text);
    json back;
    try {
      back = json::parse(text);
    } catch (const json::exception& e) {
      fail("json_text wrote what nlohmann cannot parse", e.what());
    }
    if (back != v.expected) fail("json_text read back differs", text);
    try {
      if (dplab::parse_json_text(text, "fuzz") != v.expected)
        fail("parse_json_text read back differs", text);
    } catch (const dplab::Error& e) {
      fail("parse_json_text refused what json_text wrote", e.what());
    }
  }
  const std::string excerpt = dplab::json_excerpt(v.value);
  if (excerpt.size() > 60 || dplab::first_invalid_utf8(excerpt))
    fail("json_excerpt is not at most 60 bytes of UTF-8", excerpt);
  // The readers' errors on such values: dplab::Errors (their excerpts as above).
  try {
    dplab::JsonReader r(v.value, "fuzz");
    if (v.value.is_object()) {
      for (const auto& [key, item] : v.value.items()) {
        try {
          switch (key.size() % 5) {
            case 0:
              (void)r.optional_string(key);
              break;
            case 1:
              (void)r.optional_number(key);
              break;
            case 2:
              (void)r.optional_integer(key, 0, 10);
              break;
            case 3:
              (void)r.optional_choice(key, {"a", "b"});
              break;
            default:
              (void)r.optional_strings(key);
              break;
          }
        } catch (const dplab::Error&) {
        }
      }
      r.reject_unknown();
    }
  } catch (const dplab::Error&) {
  }
}

void check_csv(FuzzedDataProvider& p) {
  dplab::csv::CsvTable table;
  const int width = p.ConsumeIntegralInRange(2, 4);
  const int rows = p.ConsumeIntegralInRange(0, 4);
  const int constants = p.ConsumeIntegralInRange(0, 2);
  std::vector<double> numbers;  // cells written by number_text, in cell order (NaN: not one)
  for (int c = 0; c < width; ++c) table.header.push_back(p.ConsumeRandomLengthString(16));
  for (int c = 0; c < constants; ++c)
    table.constant_columns.push_back(
        {p.ConsumeRandomLengthString(16), p.ConsumeRandomLengthString(16)});
  for (int r = 0; r < rows; ++r) {
    std::vector<std::string> row;
    for (int c = 0; c < width; ++c) {
      if (p.ConsumeBool()) {
        const double x = any_double(p);
        row.push_back(dplab::number_text(x));
        if (std::isfinite(x)) {
          const auto back = dplab::data::parse_number(row.back());
          if (!back || *back != x) fail("number_text does not read back", row.back());
        }
      } else {
        row.push_back(p.ConsumeRandomLengthString(16));
      }
    }
    table.rows.push_back(std::move(row));
  }
  const std::string text = dplab::csv::csv_text(table);
  if (dplab::first_invalid_utf8(text)) fail("csv_text wrote bytes that are not UTF-8");
  const std::string path = dplab::fuzz::input_path("table.csv");
  try {
    dplab::csv::write_csv_file(path, table);
  } catch (const dplab::Error& e) {
    fail("write_csv_file failed", e.what());
  }
  dplab::data::CsvTable back;
  try {
    back = dplab::data::read_csv_table(path, ',');
  } catch (const dplab::Error& e) {
    fail("a written table does not read back", e.what());
  }
  std::vector<std::string> header;
  for (const auto& h : table.header) header.push_back(dplab::utf8_replaced(h));
  for (const auto& c : table.constant_columns) header.push_back(dplab::utf8_replaced(c.name));
  if (back.header != header) fail("the header read back differs", text);
  if (back.rows() != rows) fail("the rows read back differ in number", text);
  for (int r = 0; r < rows; ++r) {
    std::vector<std::string> cells;
    for (const auto& cell : table.rows[static_cast<std::size_t>(r)])
      cells.push_back(dplab::utf8_replaced(cell));
    for (const auto& c : table.constant_columns) cells.push_back(dplab::utf8_replaced(c.value));
    for (std::size_t c = 0; c < cells.size(); ++c)
      if (back.cell(r, static_cast<dplab::Index>(c)) != cells[c])
        fail("a cell read back differs",
             cells[c] + " vs " + back.cell(r, static_cast<dplab::Index>(c)));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider p(data, size);
  if (p.ConsumeBool())
    check_json(p);
  else
    check_csv(p);
  return 0;
}
