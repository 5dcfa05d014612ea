// The run history's schema version (SQLite's PRAGMA user_version) and what each version added;
// docs/guide/history-database.md has the tables and this list for users.
//   2: experiments.writer_* columns;
//   3: experiments.release_mode, runs_trained, runs_charged, epsilon (older databases are
//      migrated in place and their runs back-filled from what they hold);
//   4: curve_points.clip (live C_t) and curve_points.val_mse;
//   5: the attempts table and jobs.attempt (each older run back-filled with one attempt charged
//      what the run holds);
//   6: experiments.input_encoding (how the data's rows became features,
//      release/model_artefact.h) and jobs.model_params / model_shape (a trained model's flat
//      parameters, float32), so that a run read back from the history releases the same model
//      files as the run itself (older runs have none);
//   7: candidates.epsilon renamed candidates.adam_epsilon: it is Adam's denominator constant,
//      and a column called "epsilon" beside the privacy epsilon of experiments and attempts was
//      read as a privacy cost (issue #43, finding 7).
#pragma once

namespace dplab::store {

inline constexpr int kSchemaVersion = 7;

}  // namespace dplab::store
