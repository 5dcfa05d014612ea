// LIBSVM / SVMlight sparse text -> dense Dataset.
//
// Each line: `label index:value index:value ...` with 1-based, strictly ascending indices;
// '#' starts a comment; blank lines are skipped; SVMlight's `qid:N` token is ignored. Labels are
// class labels (-1/+1, 0..k-1, 1..k, ...) mapped to 0..k-1 in ascending numeric order, or real
// targets with `regression`. d is the largest index seen, or `num_features` when given.
// Errors name FILE:LINE and the offending token. Files may be gzip-compressed.
#pragma once

#include <string>

#include "data/dataset.h"

namespace dplab::data {

struct LibsvmOptions {
  bool regression = false;
  Index num_features = 0;  // 0 = the largest index in the file(s)
};

Dataset load_libsvm(const std::string& path, const LibsvmOptions& options = {});

// Two files (e.g. a train and a test file) with one d (the larger, unless given) and the class
// mapping of the first file; a label the first file does not have is a ParseError.
struct LibsvmPair {
  Dataset first;
  Dataset second;
};
LibsvmPair load_libsvm_pair(const std::string& first_path, const std::string& second_path,
                            const LibsvmOptions& options = {});

}  // namespace dplab::data
