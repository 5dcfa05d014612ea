// LIBSVM parsing into sparse triplets, then one dense fill (see libsvm_loader.h).
#include "data/libsvm_loader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string_view>

#include "core/error.h"
#include "core/memory_check.h"
#include "core/validate.h"
#include "data/file_reader.h"
#include "data/large_buffer.h"
#include "data/text_number.h"

namespace dplab::data {
namespace {

// Largest feature index accepted (2^24): the dense matrix has one column per index.
constexpr Index kMaxFeatureIndex = Index{1} << 24;

struct Entry {
  Index row;
  Index column;  // 0-based
  float value;
};

struct SparseFile {
  std::string path;
  std::vector<double> labels;
  std::vector<long> lines;
  std::vector<Entry> entries;
  Index max_index = 0;      // 1-based, 0 if no features at all
  long max_index_line = 0;  // where the largest index is (for memory messages)
  std::string max_index_token;
};

[[noreturn]] void fail_token(const std::string& path, long line, std::string_view token,
                             const std::string& what) {
  throw ParseError(path + ":" + std::to_string(line) + ": " + what + " in token '" +
                   std::string(token) + "'");
}

SparseFile parse_file(const std::string& path, const LibsvmOptions& options) {
  const std::string text = read_file_text(path);
  SparseFile file;
  file.path = path;
  {
    // Up-front bounds: an entry per ':' and a data line per '\n' (+1), reserved once, so the
    // parse's peak is known before it allocates: the text + the entries + labels and lines.
    const auto colons = static_cast<std::size_t>(std::count(text.begin(), text.end(), ':'));
    const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    require_memory(path + ": parsing " + std::to_string(colons) + " index:value tokens on " +
                       std::to_string(lines) + " lines",
                   static_cast<double>(text.size()) + static_cast<double>(colons) * sizeof(Entry) +
                       static_cast<double>(lines) * (sizeof(double) + sizeof(long)));
    file.entries.reserve(colons);
    file.labels.reserve(lines);
    file.lines.reserve(lines);
  }
  long line_number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    ++line_number;
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);

    Index previous = 0;
    bool have_label = false;
    std::size_t k = 0;
    while (k < line.size()) {
      while (k < line.size() && is_blank(line[k])) ++k;
      if (k >= line.size()) break;
      std::size_t stop = k;
      while (stop < line.size() && !is_blank(line[stop])) ++stop;
      const std::string_view token = line.substr(k, stop - k);
      k = stop;
      if (!have_label) {
        const auto label = parse_number(token);
        if (!label) fail_token(path, line_number, token, "label is not a number");
        file.labels.push_back(*label);
        file.lines.push_back(line_number);
        have_label = true;
        continue;
      }
      const auto colon = token.find(':');
      if (colon == std::string_view::npos) {
        fail_token(path, line_number, token, "expected index:value");
      }
      const std::string_view index_text = token.substr(0, colon);
      if (index_text == "qid") continue;
      const auto index = parse_number(index_text);
      const auto value = parse_number(token.substr(colon + 1));
      if (!index || *index != std::floor(*index)) {
        fail_token(path, line_number, token, "feature index is not an integer");
      }
      if (!value) fail_token(path, line_number, token, "feature value is not a finite number");
      // Range-check before converting (1e300 used to wrap to a negative and read as "< 1").
      if (*index < 1)
        fail_token(path, line_number, token, "feature index < 1 (indices are 1-based)");
      if (*index > static_cast<double>(kMaxFeatureIndex)) {
        fail_token(path, line_number, token,
                   "feature index " + format_number(*index) + " exceeds the largest supported (" +
                       std::to_string(kMaxFeatureIndex) + ")");
      }
      const auto column = static_cast<Index>(*index);
      if (column <= previous) {
        fail_token(path, line_number, token,
                   "feature index " + std::to_string(column) +
                       " is not greater than the previous index " + std::to_string(previous));
      }
      if (options.num_features > 0 && column > options.num_features) {
        fail_token(path, line_number, token,
                   "feature index " + std::to_string(column) +
                       " exceeds num_features = " + std::to_string(options.num_features));
      }
      previous = column;
      if (column > file.max_index) {
        file.max_index = column;
        file.max_index_line = line_number;
        file.max_index_token = std::string(token.substr(0, 40));
      }
      file.entries.push_back(
          {static_cast<Index>(file.labels.size()) - 1, column - 1, static_cast<float>(*value)});
    }
  }
  if (file.labels.empty()) throw ParseError(path + ": no data lines");
  return file;
}

// Sorted distinct labels of a classification file; non-integers mean it is regression data.
std::vector<double> class_values(const SparseFile& file) {
  std::vector<double> values = file.labels;
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  for (double v : values) {
    if (v != std::floor(v)) {
      throw InvalidArgument(file.path + ": label " + format_number(v) +
                            " is not an integer class label; load it as regression");
    }
  }
  return values;
}

// The parse's memory (still alive while the dense matrix is filled).
double parsed_bytes(const SparseFile& file) {
  return static_cast<double>(file.entries.capacity()) * sizeof(Entry) +
         static_cast<double>(file.labels.capacity()) * (sizeof(double) + sizeof(long));
}

// dplab's models take dense features, so d = the largest index is a dense column each: the peak
// (the parsed entries + the n x d floats + their copy for the train/validation split) is checked
// before allocating, naming the index that sets d and where it is.
void require_dense_memory(const SparseFile& file, Index dim, Index total_rows, double parsed) {
  const std::string where = file.max_index == dim && file.max_index_line > 0
                                ? file.path + ":" + std::to_string(file.max_index_line) +
                                      ": feature index " + std::to_string(dim) + " (token '" +
                                      file.max_index_token + "') sets d = " + std::to_string(dim) +
                                      ": "
                                : file.path + ": d = " + std::to_string(dim) + ": ";
  require_memory(
      where + "the dense " + std::to_string(total_rows) + " x " + std::to_string(dim) +
          " feature matrix and its copy for the train/validation split (dplab's models "
          "take dense features; remove or renumber the sparse columns)",
      parsed + 2.0 * static_cast<double>(total_rows) * static_cast<double>(dim) * sizeof(float));
}

Dataset to_dense(const SparseFile& file, Index dim, const std::vector<double>& classes,
                 bool regression) {
  Dataset data;
  data.name = std::filesystem::path(file.path).filename().string();
  const auto n = static_cast<Index>(file.labels.size());
  resize_zero(data.features, n, dim);
  for (const Entry& e : file.entries) data.features(e.row, e.column) = e.value;
  data.targets.resize(n);
  if (regression) {
    for (Index i = 0; i < n; ++i)
      data.targets[i] = static_cast<float>(file.labels[static_cast<std::size_t>(i)]);
    return data;
  }
  data.num_classes = static_cast<int>(classes.size());
  for (double c : classes) data.class_names.push_back(format_number(c));
  for (Index i = 0; i < n; ++i) {
    const double label = file.labels[static_cast<std::size_t>(i)];
    const auto it = std::lower_bound(classes.begin(), classes.end(), label);
    if (it == classes.end() || *it != label) {
      throw ParseError(file.path + ":" + std::to_string(file.lines[static_cast<std::size_t>(i)]) +
                       ": label " + format_number(label) + " is not a class of the first file");
    }
    data.targets[i] = static_cast<float>(it - classes.begin());
  }
  return data;
}

Index choose_dim(const LibsvmOptions& options, Index max_index, const std::string& path) {
  const Index dim = options.num_features > 0 ? options.num_features : max_index;
  if (dim == 0) throw ParseError(path + ": no feature appears in any line (d = 0)");
  return dim;
}

}  // namespace

Dataset load_libsvm(const std::string& path, const LibsvmOptions& options) {
  const SparseFile file = parse_file(path, options);
  const std::vector<double> classes =
      options.regression ? std::vector<double>{} : class_values(file);
  const Index dim = choose_dim(options, file.max_index, path);
  require_dense_memory(file, dim, static_cast<Index>(file.labels.size()), parsed_bytes(file));
  return to_dense(file, dim, classes, options.regression);
}

LibsvmPair load_libsvm_pair(const std::string& first_path, const std::string& second_path,
                            const LibsvmOptions& options) {
  const SparseFile first = parse_file(first_path, options);
  const SparseFile second = parse_file(second_path, options);
  const std::vector<double> classes =
      options.regression ? std::vector<double>{} : class_values(first);
  const Index dim = choose_dim(options, std::max(first.max_index, second.max_index), first_path);
  // Both files' dense matrices, then their concatenation (dataset_catalog): ~2 copies of the sum.
  require_dense_memory(first.max_index >= second.max_index ? first : second, dim,
                       static_cast<Index>(first.labels.size() + second.labels.size()),
                       parsed_bytes(first) + parsed_bytes(second));
  return {to_dense(first, dim, classes, options.regression),
          to_dense(second, dim, classes, options.regression)};
}

}  // namespace dplab::data
