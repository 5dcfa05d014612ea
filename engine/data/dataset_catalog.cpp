// Built-in data sets and format dispatch (see dataset_catalog.h).
#include "data/dataset_catalog.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iterator>

#include "core/error.h"
#include "data/adult_preparation.h"
#include "data/csv_loader.h"
#include "data/file_reader.h"
#include "data/idx_loader.h"
#include "data/libsvm_loader.h"
#include "data/shipped_datasets.h"
#include "data/synthetic.h"

namespace dplab::data {
namespace fs = std::filesystem;
namespace {

constexpr const char* kFashionMnistPackageDir = "/usr/share/datasets/fashion-mnist";

// Built per call from literals, not kept in a static std::vector: a load still running on a GUI
// worker thread when the process exits (closing the window never waits for a data load) read
// the vector after exit's static destructors had freed it (ThreadSanitizer, test_report_export).
std::vector<std::string> fashion_mnist_classes() {
  static constexpr const char* kNames[] = {"T-shirt/top", "Trouser",   "Pullover", "Dress",
                                           "Coat",        "Sandal",    "Shirt",    "Sneaker",
                                           "Bag",         "Ankle boot"};
  return {std::begin(kNames), std::end(kNames)};
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "<dir>/<stem>" or "<dir>/<stem>.gz", whichever exists (the package ships .gz).
std::string idx_file(const std::string& dir, const std::string& stem) {
  const fs::path plain = fs::path(dir) / stem;
  const fs::path gz = fs::path(dir) / (stem + ".gz");
  return fs::exists(gz) || !fs::exists(plain) ? gz.string() : plain.string();
}

bool has_fashion_mnist(const std::string& dir) {
  const std::string stem = "train-images-idx3-ubyte";
  return fs::exists(fs::path(dir) / stem) || fs::exists(fs::path(dir) / (stem + ".gz"));
}

Dataset load_fashion_mnist_part(const std::string& dir, const std::string& part) {
  Dataset data = load_idx_pair(idx_file(dir, part + "-images-idx3-ubyte"),
                               idx_file(dir, part + "-labels-idx1-ubyte"));
  if (data.num_classes == 10) data.class_names = fashion_mnist_classes();
  return data;
}

// Public bounds when given, else the paper's min-max fit over all loaded rows.
void scale_in_place(Dataset& data, const DatasetSource& source) {
  if (!source.feature_bounds.empty()) {
    apply_feature_bounds(data, source.feature_bounds);
  } else if (source.min_max_scale) {
    MinMaxScaler::fit(data).apply(data);
  }
}

bool is_fashion_mnist(const std::string& name) {
  return name == "fashion-mnist" || name == "fashion-mnist-all" || name == "fashion-mnist-files";
}

// IDX by the format given or the file's name (no file access, see preprocessing_of).
bool named_as_idx(const DatasetSource& source) {
  if (source.format != DataFormat::automatic) return source.format == DataFormat::idx;
  std::string name = lower(fs::path(source.path).filename().string());
  if (ends_with(name, ".gz")) name.resize(name.size() - 3);
  return ends_with(name, "-ubyte") || ends_with(name, ".idx") ||
         name.find("idx3") != std::string::npos;
}

std::string default_labels_path(const std::string& images_path) {
  const std::string key = "images-idx3";
  const fs::path path(images_path);
  std::string file = path.filename().string();
  const auto at = file.find(key);
  if (at == std::string::npos) {
    throw InvalidArgument("IDX file '" + images_path +
                          "': give the labels file too (second path); it cannot be guessed from a "
                          "name without 'images-idx3'");
  }
  file.replace(at, key.size(), "labels-idx1");
  return (path.parent_path() / file).string();
}

Dataset load_user_file(const DatasetSource& source) {
  if (source.path.empty()) throw InvalidArgument("no data set name and no file path given");
  if (!fs::exists(source.path)) throw IoError("cannot open '" + source.path + "': no such file");
  if (fs::is_directory(source.path))
    throw IoError("'" + source.path + "' is a directory, not a data file");
  const DataFormat format =
      source.format == DataFormat::automatic ? detect_format(source.path) : source.format;
  Dataset data;
  switch (format) {
    case DataFormat::idx:
      return load_idx_pair(source.path, source.second_path.empty()
                                            ? default_labels_path(source.path)
                                            : source.second_path);
    case DataFormat::csv: {
      CsvOptions options;
      options.label_column = source.label_column;
      options.regression = source.regression;
      options.categorical_columns = source.categorical_columns;
      options.delimiter = source.csv.delimiter;
      options.missing = source.csv.na_policy;
      options.missing_markers = source.csv.na_values;
      if (source.second_path.empty()) {
        data = load_csv(source.path, options);
      } else {
        CsvPair pair = load_csv_pair(source.path, source.second_path, options);
        data = concatenate(pair.first, pair.second, pair.first.name);
      }
      break;
    }
    case DataFormat::libsvm: {
      LibsvmOptions options;
      options.regression = source.regression;
      if (source.second_path.empty()) {
        data = load_libsvm(source.path, options);
      } else {
        LibsvmPair pair = load_libsvm_pair(source.path, source.second_path, options);
        data = concatenate(pair.first, pair.second, pair.first.name);
      }
      break;
    }
    case DataFormat::automatic:
      throw InvalidArgument("cannot tell the format of '" + source.path + "'");
  }
  scale_in_place(data, source);
  return data;
}

}  // namespace

DataFormat parse_data_format(const std::string& text) {
  const std::string t = lower(text);
  if (t == "auto" || t == "automatic" || t.empty()) return DataFormat::automatic;
  if (t == "idx") return DataFormat::idx;
  if (t == "csv") return DataFormat::csv;
  if (t == "libsvm" || t == "svmlight") return DataFormat::libsvm;
  throw InvalidArgument("format = '" + text + "' must be one of auto, idx, csv, libsvm");
}

const char* to_string(DataFormat format) {
  switch (format) {
    case DataFormat::automatic:
      return "auto";
    case DataFormat::idx:
      return "idx";
    case DataFormat::csv:
      return "csv";
    case DataFormat::libsvm:
      return "libsvm";
  }
  return "auto";
}

std::vector<BuiltinDatasetInfo> builtin_datasets() {
  return {
      {"fashion-mnist", "Fashion-MNIST: 60,000 28x28 clothing images (784 features), 10 classes",
       false},
      {"fashion-mnist-all", "Fashion-MNIST train + test: 70,000 images, 784 features, 10 classes",
       false},
      {"fashion-mnist-files",
       "Fashion-MNIST: the 60,000 training images as train, the 10,000 test images as the test "
       "split",
       false},
      {"synthetic-linear", "Paper 4.1: x ~ U(0,1)^10, y = x.w*, w* = 10*1; regression, n = 10,000",
       false},
      {"synthetic-binary", "Logistic teacher on x ~ U(0,1)^d with label noise; 2 classes", false},
      {"adult",
       "UCI Adult census income (train + test files): 45,222 rows, 104 features, 2 classes", false},
      {"adult-paper",
       "Adult as the paper's code encodes it: 45,222 rows, 202 features (one-hot blocks twice)",
       false},
      {"adult-files",
       "Adult: train file (30,162 rows) as train, test file (15,060) as the test split; 104 "
       "features",
       false},
      {"adult-paper-files",
       "Adult: train file as train, test file as the test split; the paper's 202 features", false},
  };
}

std::string find_fashion_mnist() {
  std::vector<std::string> looked;
  if (const char* env = std::getenv("DPLAB_FASHION_MNIST_DIR"); env && *env) {
    if (has_fashion_mnist(env)) return env;
    looked.push_back(std::string(env) + " ($DPLAB_FASHION_MNIST_DIR)");
  }
  if (has_fashion_mnist(kFashionMnistPackageDir)) return kFashionMnistPackageDir;
  looked.push_back(kFashionMnistPackageDir);
  std::string where;
  for (const auto& dir : looked) where += (where.empty() ? "" : ", ") + dir;
  throw IoError("Fashion-MNIST not found (looked in " + where +
                "): install the Debian package 'dataset-fashion-mnist' "
                "(apt-get install dataset-fashion-mnist) or set DPLAB_FASHION_MNIST_DIR");
}

DataFormat detect_format(const std::string& path) {
  std::string name = lower(fs::path(path).filename().string());
  if (ends_with(name, ".gz")) name.resize(name.size() - 3);
  if (ends_with(name, ".csv")) return DataFormat::csv;
  if (ends_with(name, ".svm") || ends_with(name, ".libsvm") || ends_with(name, ".svmlight")) {
    return DataFormat::libsvm;
  }
  if (ends_with(name, "-ubyte") || ends_with(name, ".idx") ||
      name.find("idx3") != std::string::npos) {
    return DataFormat::idx;
  }
  // By content: IDX starts 00 00 08; LIBSVM's first data line has "index:value" tokens.
  const std::vector<std::uint8_t> head = read_file_prefix(path, 4096);
  if (head.size() >= 4 && head[0] == 0 && head[1] == 0 && head[2] == 0x08) return DataFormat::idx;
  std::string text(head.begin(), head.end());
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const bool has_pair =
        line.find(':') != std::string::npos && line.find_first_of(",;") == std::string::npos;
    return has_pair ? DataFormat::libsvm : DataFormat::csv;
  }
  throw ParseError(path + ": cannot tell its format (no data in the first 4 KB); give format");
}

Dataset load_dataset(const DatasetSource& source) {
  Dataset data;
  const std::string name = lower(source.name);
  if (name.empty()) {
    data = load_user_file(source);
  } else if (is_fashion_mnist(name)) {
    const std::string dir = source.path.empty() ? find_fashion_mnist() : source.path;
    data = load_fashion_mnist_part(dir, "train");
    const Index train_rows = data.size();
    if (name != "fashion-mnist")
      data = concatenate(data, load_fashion_mnist_part(dir, "t10k"), name);
    if (name == "fashion-mnist-files") {
      // The standard split, as the main paper's code loads MNIST (60,000 train, 10,000 test).
      data.fixed_validation_begin = train_rows;
      data.notes.push_back("validation = the t10k test images (" +
                           std::to_string(data.size() - train_rows) +
                           "); validation_fraction and split_seed are not used");
    }
    data.name = name;
  } else if (name == "synthetic-linear") {
    data = make_synthetic_linear({source.num_samples, source.dim, 10.0, source.seed});
    if (!source.feature_bounds.empty()) apply_feature_bounds(data, source.feature_bounds);
  } else if (name == "synthetic-binary") {
    data = make_synthetic_binary({source.num_samples, source.dim, source.label_noise, source.seed});
    if (!source.feature_bounds.empty()) apply_feature_bounds(data, source.feature_bounds);
  } else if (const auto adult = adult_preparation(name)) {
    data = load_adult(*adult, source.path, source.label_column, name, source.feature_bounds);
  } else {
    std::string names;
    for (const auto& info : builtin_datasets()) names += (names.empty() ? "" : ", ") + info.name;
    throw InvalidArgument("data set '" + source.name + "' is not built in (built-in: " + names +
                          "); to load a file, leave the name empty and give its path");
  }
  if (data.stores_pixels() && !source.feature_bounds.empty()) {
    apply_feature_bounds(data, source.feature_bounds);  // throws: pixels have public bounds
  }
  data.validate();
  data.preprocessing = preprocessing_of(source);
  return data;
}

namespace {
Preprocessing scaling_of(const DatasetSource& source);
}  // namespace

Preprocessing preprocessing_of(const DatasetSource& source) {
  Preprocessing p = scaling_of(source);
  // Means and most frequent levels fitted on the user's file are preprocessing fitted on private
  // data too, public feature bounds or not (IDX and LIBSVM files have no missing values).
  const bool csv_file =
      lower(source.name).empty() && !named_as_idx(source) && source.format != DataFormat::libsvm;
  if (csv_file && source.csv.na_policy == MissingValues::impute_mean) {
    p.description += std::string(
                         "; missing values imputed with the file's column means and most "
                         "frequent levels") +
                     (p.fitted_on_private_data ? "" : std::string(": ") + kPreprocessingNotCovered);
    p.fitted_on_private_data = true;
  }
  return p;
}

namespace {
Preprocessing scaling_of(const DatasetSource& source) {
  const std::string name = lower(source.name);
  if (is_fashion_mnist(name) || (name.empty() && named_as_idx(source))) {
    return {false, "pixels / 255 (public bounds 0..255)"};
  }
  if (!source.feature_bounds.empty())
    return {false, describe_feature_bounds(source.feature_bounds)};
  if (name == "synthetic-linear" || name == "synthetic-binary") {
    return {false, "generated features, uniform in [0, 1) (synthetic, public): not scaled"};
  }
  if (adult_preparation(name)) {
    return {true,
            std::string("min-max ranges fitted on all rows of adult.data.csv and adult.test.csv "
                        "(no public bounds given): ") +
                kPreprocessingNotCovered};
  }
  return {true, std::string(source.min_max_scale
                                ? "min-max ranges fitted on all loaded rows"
                                : "min-max ranges fitted on the training part if outside [0, 1]") +
                    " (no public bounds given): " + kPreprocessingNotCovered};
}
}  // namespace

bool is_builtin_dataset(const std::string& name) {
  const auto builtins = builtin_datasets();
  return std::any_of(builtins.begin(), builtins.end(),
                     [&](const BuiltinDatasetInfo& info) { return info.name == name; });
}

DatasetSource source_for(const std::string& name_or_path) {
  DatasetSource source;
  (is_builtin_dataset(name_or_path) ? source.name : source.path) = name_or_path;
  return source;
}

}  // namespace dplab::data
