// A Release: everything one door of dplab hands over for a run (tune --out, train --out, history
// export, history merge, the GUI's report), built once by the engine (search_release.h) and
// written by one writer (release_writer.h). Each CSV column and each JSON key takes its privacy
// class from the one table of field_class.h when it is written, so
//   - a curator-only field cannot reach a released file: the writer refuses it (and the curator's
//     facts are a separate type, CuratorRecord, that only write_curator_record takes);
//   - a not-covered field is never written without its label: the writer lists every one it
//     writes, with the reason, under release.json's "not_covered".
// release.json's layout is the same for every mode and door: {"schema": "dplab.release/1",
// "dplab_version", "experiment", "mode", "cancelled", "privacy": the privacy card, "released":
// what the mode releases, "not_covered", "files"} (docs/release.schema.json).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/csv_table.h"
#include "release/model_artefact.h"

namespace dplab::release {

inline constexpr const char* kReleaseSchema = "dplab.release/1";

// One released CSV file: its name in the release folder and its table.
struct ReleasedTable {
  std::string file;  // e.g. "curves.csv"
  csv::CsvTable table;
};

// What only the curator may see (K of a private LT / PS search, its wall time, the hard-stop
// flags, the run-history id to resume it): written to curator-only.json, never to a release.
struct CuratorRecord {
  nlohmann::json facts = nlohmann::json::object();
};

struct Release {
  std::string experiment;
  std::string mode;  // "explore", "private lt", "private-subsampled", "train", ...
  bool cancelled = false;
  nlohmann::json privacy;   // the privacy card (search_release.h)
  std::string csv_label;    // every released CSV's epsilon_label column: the headline label
  nlohmann::json released;  // the mode's released results (winners, scores)
  std::vector<ReleasedTable> tables;
  // The released models (model_artefact.h): a train run's, a private search's winner, or in
  // explore the candidates' asked for by --save-models. Each is written to its folder.
  std::vector<ReleasedModel> models;
  CuratorRecord curator;  // empty for explore and train
};

}  // namespace dplab::release
