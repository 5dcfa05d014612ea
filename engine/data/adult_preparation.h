// The UCI Adult census data (datasets/adult, checksum-verified; Kohavi 1996) in the preparations
// dplab offers, chosen by built-in name:
//
//   name               rows used as train / validation            features
//   adult              both files pooled (45,222 rows after        104 (dplab's encoding)
//                      dropping rows with a missing value), a
//                      seeded random 80/20 split (main paper
//                      appendix H)
//   adult-paper        the same pooled rows and split              202 (the paper's encoding)
//   adult-files        adult.data.csv (30,162) as train,           104
//                      adult.test.csv (15,060) as the fixed test
//                      split (validation_fraction is not used)
//   adult-paper-files  the files split                             202
//
// dplab's encoding (csv_loader.h): the 6 numeric columns stay one feature each, the 8 categorical
// columns are one-hot encoded (7 + 16 + 7 + 14 + 6 + 5 + 2 + 41 = 98 features).
// The paper's encoding: the main paper's Table 2 gives Adult 202 dimensions. No standard encoding
// of the 14 columns gives 202 (docs/adult-encoding.md lists what was tried); the paper's released
// code does: its one-hot routine appends each categorical column's block twice, so the features
// are 6 numeric + 2 x 98 = 202. For a linear model the two copies of a feature act as one weight
// w1 + w2 that moves with twice the learning rate and receives two independent noise draws
// (docs/adult-encoding.md); it also doubles the categorical share of every per-example gradient
// norm, so clipping bites differently. dplab offers it to reproduce the paper, not as advice.
//
// Every preparation min-max scales the numeric features to [0, 1] over all rows of both files
// (the paper's "preprocessed state", appendix H; fitted on private data, not covered by epsilon),
// unless public bounds are given (feature_scaling.h): then every numeric feature is clamped to its
// bound and mapped to [0, 1], independently of the rows.
#pragma once

#include <optional>
#include <string>

#include "data/dataset.h"
#include "data/feature_scaling.h"

namespace dplab::data {

struct AdultPreparation {
  bool paper_encoding = false;  // 202 features (categorical one-hot blocks twice) instead of 104
  bool file_split = false;      // the test file as a fixed validation/test split
};

// The preparation behind a built-in name ("adult", "adult-paper", "adult-files",
// "adult-paper-files"); empty for any other name.
std::optional<AdultPreparation> adult_preparation(const std::string& name);

// Loads Adult from `folder` (its adult.data.csv and adult.test.csv; empty = the shipped,
// checksum-verified copy) as `preparation` says. label_column empty = the last column.
// `bounds` empty: min-max fitted on all rows; else public bounds (names as in dplab's encoding).
Dataset load_adult(const AdultPreparation& preparation, const std::string& folder,
                   const std::string& label_column, const std::string& name,
                   const FeatureBounds& bounds = {});

// The paper code's encoding from dplab's: every run of consecutive one-hot features of one column
// (named "column=value", csv_loader.h) is followed by a copy of itself (named "column=value#2");
// numeric features (names without '=') stay single. Rows, targets and classes are unchanged.
Dataset duplicate_one_hot_blocks(const Dataset& encoded);

}  // namespace dplab::data
