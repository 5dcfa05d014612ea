// The one writer of a Release (release.h): every door that hands a run over (tune --out,
// history export, history merge, the GUI's report, train --out) writes through these functions
// and nothing else writes a released file.
//
// write_release checks first, then writes (atomically, file by file: core/atomic_file.h):
//   - every CSV column and every JSON key (as a dotted path) has a row in field_class.cpp, else
//     Error naming the file and the field (a new field cannot be released unclassified);
//   - no field is curator-only, else Error;
//   - every not-covered column is listed, with its reason, under release.json's "not_covered";
//   - every CSV gets the release's headline label as its last column, epsilon_label.
// Throws IoError naming the path when a file cannot be written.
#pragma once

#include <string>
#include <vector>

#include "release/release.h"

namespace dplab::release {

// release.json's value: {"schema", "dplab_version", "experiment", "mode", "cancelled",
// "privacy", "released", "not_covered", "files"} (docs/release.schema.json).
nlohmann::json release_json(const Release& release);

// The release's tables as write_release writes them: each checked against the field table and
// given the release's headline label as its last column, epsilon_label.
std::vector<csv::CsvTable> released_csv_tables(const Release& release);

// Writes release.json and every table into `directory` (created if missing); returns the paths
// written, release.json last.
std::vector<std::string> write_release(const Release& release, const std::string& directory);

// curator-only.json in `directory`: NOT FOR RELEASE (its name and its first key say so).
inline constexpr const char* kCuratorOnlyFile = "curator-only.json";
std::string write_curator_record(const CuratorRecord& record, const std::string& directory);

}  // namespace dplab::release
