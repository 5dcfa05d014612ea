// A release as its user holds it: release.json and the CSV tables it lists, as written (every
// table with its epsilon_label column). One view for a Release built in memory (what
// write_release writes, release_writer.h) and for a release folder read back from disk, so the
// Python module's dplab.train / dplab.tune results and dplab.load(folder) are the same object.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "release/release.h"

namespace dplab::release {

struct ReleaseFolder {
  nlohmann::json manifest;  // release.json: schema, experiment, mode, privacy, released, ...
  // Each listed CSV: its header and rows as text, epsilon_label the last column.
  std::vector<ReleasedTable> tables;
};

// What write_release(release, dir) writes, without writing it (the same checks: an unclassified
// or curator-only field throws Error).
ReleaseFolder release_folder(const Release& release);

// Reads DIR/release.json (schema dplab.release/1, docs/schema/release.schema.json) and every CSV
// file it lists, through the one input reader. IoError / ParseError naming the file: a missing
// release.json, another schema, a listed file that is missing, malformed or not a plain file name
// in DIR.
ReleaseFolder read_release_folder(const std::string& directory);

}  // namespace dplab::release
