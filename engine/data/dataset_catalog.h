// The one entry point the CLI and the GUI use to get data: built-in data sets by name and
// user files by path (format detected or given). Everything returned is ready to train on:
// features in [0, 1] (pixels / 255 for images; for CSV, LIBSVM and Adult either public bounds,
// clamped (feature_scaling.h), or else min-max scaling over all loaded rows, as the paper
// preprocesses, appendix H: fitted on private data, not covered by epsilon, and every loaded data
// set says which in Dataset::preprocessing). The 80/20 train/validation split is left to the caller
// (split_train_validation in dataset.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/csv_reading.h"
#include "data/dataset.h"
#include "data/feature_scaling.h"

namespace dplab::data {

enum class DataFormat { automatic, idx, csv, libsvm };

// "auto", "idx", "csv", "libsvm" (also "svmlight"); throws InvalidArgument otherwise.
DataFormat parse_data_format(const std::string& text);
const char* to_string(DataFormat format);

struct DatasetSource {
  // A built-in name (see builtin_datasets()), or empty to load `path` as a user file.
  std::string name;
  // User file; for "adult" (and its preparations "adult-paper", "adult-files",
  // "adult-paper-files", adult_preparation.h) an optional folder with one's own adult.data.csv and
  // adult.test.csv (default: the shipped, checksum-verified copy, see shipped_datasets.h); for
  // "fashion-mnist" an optional folder overriding the search of find_fashion_mnist().
  std::string path;
  // Optional second file loaded with the first one's encoding and appended (a CSV/LIBSVM test
  // file), or for IDX the labels file (default: the images file name with "images-idx3"
  // replaced by "labels-idx1").
  std::string second_path;
  DataFormat format = DataFormat::automatic;

  std::string label_column;  // CSV: header name, empty = last column
  // CSV: columns one-hot encoded whatever their values (CsvOptions::categorical_columns).
  std::vector<std::string> categorical_columns;
  // CSV: the delimiter (detected by default) and the missing-value markers and policy.
  CsvReading csv;
  bool regression = false;    // CSV/LIBSVM: real-valued target
  bool min_max_scale = true;  // CSV/LIBSVM: scale every feature to [0, 1] over all loaded rows
  // CSV/LIBSVM/Adult/synthetic: public bounds instead of the min-max fit (feature_scaling.h).
  FeatureBounds feature_bounds;

  // Synthetic generators.
  Index num_samples = 10000;
  Index dim = 10;
  double label_noise = 0.05;  // synthetic-binary only
  std::uint64_t seed = 0;
};

// Loads a data set, validated. Throws InvalidArgument (unknown name/format, bad option),
// IoError (file missing) or ParseError (malformed file, naming the file and line/offset).
Dataset load_dataset(const DatasetSource& source);

// How load_dataset scales `source`'s features, without loading it (what Dataset::preprocessing
// will say): a function of the source alone, so a search reloaded from the run history labels
// its epsilon as the live one did. A user file of undetermined format counts as fitted on data.
Preprocessing preprocessing_of(const DatasetSource& source);

struct BuiltinDatasetInfo {
  std::string name;
  std::string description;  // one line, for a combo box tooltip or `dplab-cli datasets`
  bool needs_path = false;  // true when the user must point at the files (none today)
};
std::vector<BuiltinDatasetInfo> builtin_datasets();

// True when `name` is one of builtin_datasets().
bool is_builtin_dataset(const std::string& name);
// A source for what a user typed: a built-in name goes to `name`, anything else to `path`.
DatasetSource source_for(const std::string& name_or_path);

// The folder holding Fashion-MNIST's {train,t10k}-{images-idx3,labels-idx1}-ubyte(.gz):
// $DPLAB_FASHION_MNIST_DIR if set, else /usr/share/datasets/fashion-mnist. Throws IoError saying
// to install the Debian package dataset-fashion-mnist when neither has the files.
std::string find_fashion_mnist();

// The format of a file judged by its name (.csv, .svm/.libsvm/.svmlight, "-ubyte"/.idx, after
// stripping .gz), else by its first bytes (IDX magic; "label idx:val" text; delimited text).
DataFormat detect_format(const std::string& path);

}  // namespace dplab::data
