#include "store/run_history.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "core/json_text.h"
#include "store/run_status.h"
#include "tuning/honest_selection.h"
#include "tuning/private_release_view.h"
#include "tuning/release_cost.h"

namespace dplab::store {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr const char* kNotesKind = "notes";

// "runs.sqlite (run 3 notes)": where a stored JSON text came from, for its errors.
std::string stored_origin(const Store& store, std::int64_t experiment_id, const std::string& what) {
  return store.path() + " (run " + std::to_string(experiment_id) + " " + what + ")";
}

// Reads a parsed stored text with `read`; a key's error (JsonReader's "<key>: <what>") gets the
// origin in front, as parse_json_text puts it in front of a syntax error.
template <class Read>
auto read_stored(const std::string& origin, Read read) {
  try {
    return read();
  } catch (const ParseError& e) {
    throw ParseError(origin + ": " + e.what());
  }
}
}  // namespace

bool is_resumable_status(const std::string& status) {
  const std::optional<RunStatus> parsed = parse_run_status(status);
  return parsed && is_resumable(*parsed);  // store/run_status.h
}

std::string run_notes(const Store& store, std::int64_t experiment_id) {
  const auto text = store.load_summary(experiment_id, kNotesKind);
  if (!text) return {};
  const std::string origin = stored_origin(store, experiment_id, "notes");
  const nlohmann::json j = parse_json_text(*text, origin);
  // Notes of other dplab versions may carry more keys: no reject_unknown.
  return read_stored(origin, [&] { return JsonReader(j, "").string_or("text", ""); });
}

void set_run_notes(Store& store, std::int64_t experiment_id, const std::string& text) {
  store.save_summary(experiment_id, kNotesKind, json_text(nlohmann::json{{"text", text}}));
}

HistoryEntry history_entry(const Store& store, const ExperimentRecord& record) {
  HistoryEntry entry;
  entry.record = record;
  entry.best_metric = kNaN;
  entry.epsilon = kNaN;
  entry.resumable = is_resumable_status(record.status);
  try {
    try {
      entry.notes = run_notes(store, record.id);
    } catch (const ParseError&) {
      // Damaged notes (run_notes names them) never hide the run: it is listed without notes.
    }
    const tuning::SearchResults results = store.load_results(record.id, /*with_curves=*/false);
    entry.dataset = results.config.dataset.source;
    entry.release = experiment::describe_release(results.config.release);
    entry.regression = results.is_regression;
    entry.noise_multiplier = results.config.privacy.noise_multiplier;
    entry.steps = results.config.privacy.steps;
    const tuning::ReleaseCost cost =
        with_spent_budget(tuning::release_cost(results), store.spent_budget(record.id));
    entry.epsilon = cost.epsilon;
    entry.epsilon_label = tuning::epsilon_label(cost);
    if (results.config.release.mode == experiment::ReleaseMode::kExplore) {
      std::vector<int> all(results.candidates.size());
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
      const auto scores = tuning::score_candidates(results, all);
      if (const tuning::CandidateScore* best = tuning::best_score(scores))
        entry.best_metric = best->metric();
    } else if (const auto release = load_private_release(store, record.id)) {
      if (release->released > 0) {
        entry.best_metric = release->mean_score;
        entry.best_is_released_score = true;
      }
    }
  } catch (const std::exception& e) {
    entry.error = e.what();
  }
  return entry;
}

std::vector<HistoryEntry> list_history(const Store& store) {
  std::vector<HistoryEntry> out;
  for (const ExperimentRecord& record : store.list_experiments()) {
    out.push_back(history_entry(store, record));
  }
  return out;
}

std::optional<tuning::PrivateRelease> load_private_release(const Store& store,
                                                           std::int64_t experiment_id) {
  const auto stored = store.load_summary(experiment_id, "private_release");
  if (!stored) return std::nullopt;
  const std::string origin = stored_origin(store, experiment_id, "released winners");
  const nlohmann::json j = parse_json_text(*stored, origin);
  return read_stored(origin, [&] { return tuning::parse_private_release(j); });
}

nlohmann::json parse_stored_json(const Store& store, std::int64_t experiment_id,
                                 const std::string& what, const std::string& text) {
  return parse_json_text(text, stored_origin(store, experiment_id, what));
}

}  // namespace dplab::store
