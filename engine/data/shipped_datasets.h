// The data files that ship with dplab (the repository's datasets/ folder, installed as
// share/dplab/datasets/): where they are, and a SHA-256 check of each file against the folder's
// SHA256SUMS (the `sha256sum` format: "<64 hex digits>  <path relative to the folder>") before
// it is read, so a damaged or edited copy is refused with a message instead of training on it.
#pragma once

#include <string>
#include <vector>

namespace dplab::data {

// The first folder holding SHA256SUMS among: $DPLAB_DATA_DIR; <this executable's folder>/../
// share/dplab/datasets (an installed or relocated tree); the configured install prefix's
// share/dplab/datasets; the source tree's datasets/ (running from a build folder; not in a
// package build, -DDPLAB_SOURCE_TREE_DATA=OFF). Throws IoError listing where it looked.
std::string find_shipped_datasets_dir();

// The folders find_shipped_datasets_dir searches, in its order, whether they exist or not: the
// one search rule that the presets (data/preset_files.h) follow too.
std::vector<std::string> shipped_data_search_dirs();

// A shipped data file that is generated on the machine rather than kept in git (so it has no
// entry in SHA256SUMS), e.g. "kjv/kjv.txt" written by scripts/make-kjv-corpus.sh: the same
// folders, in the same order, as find_shipped_datasets_dir (one rule for every shipped data
// set), but the first that holds `relative`. Throws IoError listing where it looked and
// `how_to_make`.
std::string find_generated_shipped_file(const std::string& relative,
                                        const std::string& how_to_make);

// root/relative after checking its SHA-256 against root/SHA256SUMS (once per process and file).
// Throws IoError (missing file or SHA256SUMS) or ParseError (no entry, or a checksum mismatch,
// naming the file and both checksums).
std::string verified_shipped_file(const std::string& root, const std::string& relative);

}  // namespace dplab::data
