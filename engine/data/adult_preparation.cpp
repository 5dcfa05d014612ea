// Adult's preparations (see adult_preparation.h).
#include "data/adult_preparation.h"

#include <filesystem>

#include "core/error.h"
#include "data/csv_loader.h"
#include "data/shipped_datasets.h"

namespace dplab::data {
namespace fs = std::filesystem;
namespace {

// "workclass=Private" -> "workclass"; a numeric feature's name has no '=' -> "".
std::string one_hot_column(const std::string& feature_name) {
  const auto at = feature_name.find('=');
  return at == std::string::npos ? std::string() : feature_name.substr(0, at);
}

}  // namespace

std::optional<AdultPreparation> adult_preparation(const std::string& name) {
  if (name == "adult") return AdultPreparation{false, false};
  if (name == "adult-paper") return AdultPreparation{true, false};
  if (name == "adult-files") return AdultPreparation{false, true};
  if (name == "adult-paper-files") return AdultPreparation{true, true};
  return std::nullopt;
}

Dataset duplicate_one_hot_blocks(const Dataset& encoded) {
  const Index d = encoded.dim();
  if (static_cast<Index>(encoded.feature_names.size()) != d) {
    throw InvalidArgument(encoded.name + ": the paper's encoding needs the feature names (" +
                          std::to_string(encoded.feature_names.size()) + " names for " +
                          std::to_string(d) + " features)");
  }
  // Source column of every output feature, block by block.
  std::vector<Index> source;
  std::vector<std::string> names;
  for (Index j = 0; j < d;) {
    const std::string column = one_hot_column(encoded.feature_names[static_cast<std::size_t>(j)]);
    Index end = j + 1;
    if (!column.empty()) {
      while (end < d &&
             one_hot_column(encoded.feature_names[static_cast<std::size_t>(end)]) == column) {
        ++end;
      }
    }
    const int copies = column.empty() ? 1 : 2;
    for (int copy = 0; copy < copies; ++copy) {
      for (Index k = j; k < end; ++k) {
        source.push_back(k);
        names.push_back(encoded.feature_names[static_cast<std::size_t>(k)] +
                        (copy == 0 ? "" : "#2"));
      }
    }
    j = end;
  }
  Dataset out = encoded;
  out.feature_names = std::move(names);
  out.features.resize(encoded.size(), static_cast<Index>(source.size()));
  for (Index i = 0; i < encoded.size(); ++i) {
    for (std::size_t k = 0; k < source.size(); ++k) {
      out.features(i, static_cast<Index>(k)) = encoded.features(i, source[k]);
    }
  }
  return out;
}

Dataset load_adult(const AdultPreparation& preparation, const std::string& folder,
                   const std::string& label_column, const std::string& name,
                   const FeatureBounds& bounds) {
  std::string train_file, test_file;
  if (folder.empty()) {
    const std::string root = find_shipped_datasets_dir();
    train_file = verified_shipped_file(root, "adult/adult.data.csv");
    test_file = verified_shipped_file(root, "adult/adult.test.csv");
  } else {
    train_file = (fs::path(folder) / "adult.data.csv").string();
    test_file = (fs::path(folder) / "adult.test.csv").string();
  }
  CsvOptions options;
  options.label_column = label_column;
  options.delimiter = ',';              // the UCI files' own format, as the paper reads them
  options.missing_markers = {"?", ""};  // UCI's marker: 45,222 complete rows (appendix B)
  const CsvPair pair = load_csv_pair(train_file, test_file, options);
  Dataset data = concatenate(pair.first, pair.second, name);
  if (bounds.empty()) {
    MinMaxScaler::fit(data).apply(data);
  } else {
    apply_feature_bounds(data, bounds);
  }
  if (preparation.paper_encoding) data = duplicate_one_hot_blocks(data);
  if (preparation.file_split) {
    data.fixed_validation_begin = pair.first.size();
    data.notes.push_back("validation = " + fs::path(test_file).filename().string() + " (" +
                         std::to_string(pair.second.size()) +
                         " rows), train = " + fs::path(train_file).filename().string() + " (" +
                         std::to_string(pair.first.size()) +
                         " rows); validation_fraction and split_seed are not used");
  }
  if (preparation.paper_encoding) {
    data.notes.push_back("the paper's encoding: each categorical one-hot block appears twice (" +
                         std::to_string(data.dim()) + " features; docs/adult-encoding.md)");
  }
  return data;
}

}  // namespace dplab::data
