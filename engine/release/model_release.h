// The release of a search's trained model alone (the GUI's "Export model…"): the same Release as
// the search's own (search_release.h: the released winners' models, model/ or
// models/replicate-<r>/, each with its model.json privacy card), without the result tables.
// release.json stays beside the models: it is the card of what was released and lists the model
// files. A model the search did not keep in memory (a run read back from an older history, or
// trained in an earlier attempt) is named under released.models_not_kept, as in every door.
#pragma once

#include <optional>

#include "release/release.h"
#include "release/spent_budget.h"
#include "tuning/private_search.h"
#include "tuning/results.h"

namespace dplab::release {

// Throws InvalidArgument when the search released no model: an explore search (its models are
// written by tune --save-models), a private search with no winner, or one whose winners' models
// were not kept (the message says which).
Release model_release(const tuning::SearchResults& runs,
                      const std::optional<tuning::PrivateRelease>& winners,
                      const std::optional<SpentBudget>& spent = std::nullopt);

}  // namespace dplab::release
