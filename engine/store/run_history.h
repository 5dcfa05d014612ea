// The run history as a user browses it: one entry per stored run with its display name, data
// set, status, jobs, the epsilon the run SPENT (Store::spent_budget: every attempt's charge
// composed; tuning/release_cost.h labels it, rounded up by epsilon_label), the best candidate's
// score (honest selection over the whole search: accuracy, or final training loss for regression)
// and the user's notes.
//
// Notes live in the `summaries` table under kind "notes" as {"text": ...}: no schema change, so
// every older history file stays readable and deleting a run deletes its notes (ON DELETE
// CASCADE). A run is resumable when it was interrupted (its writer died), cancelled or incomplete
// (finished jobs the history could not store): Runner::
// resume_from + StoreWriter::resume run only its missing jobs, as `dplab-cli tune --resume`.
// Thread-safety: as Store (every call takes the Store's mutex).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "store/store.h"
#include "tuning/private_release_view.h"
#include "tuning/release_cost.h"

namespace dplab::store {

struct HistoryEntry {
  ExperimentRecord record;
  std::string dataset;  // the config's data set source
  std::string release;  // "explore", "private lt", ...
  bool regression = false;
  double noise_multiplier = 0;  // σ of every run (privacy.noise_multiplier)
  std::int64_t steps = 0;       // T, noisy-gradient steps per run
  // Explore: the best candidate's score over the whole search. Private: what was released, the
  // mean of the replicates' released (noisy, if validation is private) winner scores; the whole
  // search's best is curator-only there. NaN when nothing finished or was released.
  double best_metric = 0;
  bool best_is_released_score = false;
  double epsilon = 0;         // NaN when it cannot be computed
  std::string epsilon_label;  // what the epsilon covers
  std::string notes;
  bool resumable = false;
  std::string error;  // set when the run could not be read (its row is still listed)
};

// Newest first. Reads every run's jobs without their curves.
std::vector<HistoryEntry> list_history(const Store& store);
HistoryEntry history_entry(const Store& store, const ExperimentRecord& record);

// The run's notes ("" when it has none). Throws ParseError naming the history file, the run and
// the key when its notes row is damaged (history_entry then lists the run without notes).
std::string run_notes(const Store& store, std::int64_t experiment_id);
void set_run_notes(Store& store, std::int64_t experiment_id, const std::string& text);

bool is_resumable_status(const std::string& status);

// with_spent_budget (release/spent_budget.h, through store/spent_budget.h): the release cost of a
// stored run with the epsilon it has SPENT, what the history row, `history list/show`, the GUI
// header and every release of the run state.

// The winners a private run released, as recorded when it ended (summary kind "private_release");
// nullopt for a run that released nothing (explore, or a private run that did not finish).
// Throws dplab::Error naming the history file and run if the record is unreadable.
std::optional<tuning::PrivateRelease> load_private_release(const Store& store,
                                                           std::int64_t experiment_id);

// A JSON text stored with a run (Store::load_summary) parsed by the one reader (parse_json_text):
// a damaged row is a ParseError naming the history file, the run and `what` the text is
// ("runs.sqlite (run 3 summary): line 1, column 2 (byte 1): ..."), never nlohmann's own error.
nlohmann::json parse_stored_json(const Store& store, std::int64_t experiment_id,
                                 const std::string& what, const std::string& text);

}  // namespace dplab::store
