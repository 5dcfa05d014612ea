#include "release/spent_budget.h"

namespace dplab::release {

tuning::ReleaseCost with_spent_budget(tuning::ReleaseCost cost, const SpentBudget& spent) {
  cost.epsilon = spent.epsilon;
  if (spent.composition != "none") cost.delta = spent.delta;  // nothing spent: eps 0 at any delta
  if (spent.attempts > 1) {
    cost.covers += "; spent over " + std::to_string(spent.attempts) + " attempts (";
    if (spent.composition == "rdp") {
      cost.covers += "their RDP curves composed";
    } else if (spent.composition == "basic") {
      cost.covers += "basic composition: the sum of their eps and delta";
    } else if (spent.composition == "single") {
      cost.covers += "one of them trained";
    } else {
      cost.covers += spent.composition;
    }
    cost.covers += ", a job re-run after a cancel charged again)";
  }
  return cost;
}

}  // namespace dplab::release
