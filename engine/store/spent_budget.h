// What a run has spent over all its attempts (Store::spent_budget, store/store.h): the type is the
// release layer's (release/spent_budget.h), named here as the store's, so that views can hold one
// without the store's header.
#pragma once

#include "release/spent_budget.h"

namespace dplab::store {

using release::SpentBudget;
using release::with_spent_budget;

}  // namespace dplab::store
