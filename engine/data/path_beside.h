// Paths written inside a file (an experiment file's dataset.source and model.file, a comparison
// preset's dataset path, an OSO protocol's dataset) are relative to that file's folder, not to the
// working directory: a preset moved with its data keeps working from any folder.
#pragma once

#include <string>

namespace dplab::data {

// `path` as seen from the folder of `file`: a relative path is joined to that folder (the result
// is relative when `file` is, lexically normalised); an absolute or empty path is returned as is.
std::string path_beside(const std::string& file, const std::string& path);

// A data set named in `file`: a built-in name (dataset_catalog.h) unchanged, anything else a path
// resolved by path_beside.
std::string source_beside(const std::string& file, const std::string& name_or_path);

}  // namespace dplab::data
