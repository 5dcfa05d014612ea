// The followups item's rules (see followup_rules.h).
#include "reproduction/followup_rules.h"

#include <cmath>

#include "reproduction/item_outcome.h"
#include "reproduction/number_text.h"

namespace dplab::reproduction {
namespace {

std::string points(double fraction) {
  return fixed(100 * fraction, 2) + " points";
}

bool has_band(const BestCandidate& c) {
  return std::isfinite(c.ci_low) && std::isfinite(c.ci_high);
}

// Both halves of "`a` beats `b`" hold.
bool beats(const BestCandidate& a, const BestCandidate& b) {
  for (const auto& half : beats_halves(a, b))
    if (!half.holds) return false;
  return true;
}

}  // namespace

std::vector<ClaimHalf> beats_halves(const BestCandidate& a, const BestCandidate& b) {
  const double gap = a.mean - b.mean;
  const bool bands = has_band(a) && has_band(b);
  return {{a.optimizer + "'s best mean above " + b.optimizer + "'s",
           a.optimizer + " - " + b.optimizer + " = " + points(gap) + " (rule: > 0)",
           std::isfinite(gap) && gap > 0},
          {"seed bands disjoint in " + a.optimizer + "'s favour",
           bands ? a.optimizer + "'s low " + fixed(a.ci_low) + " vs " + b.optimizer + "'s high " +
                       fixed(b.ci_high) + " (rule: low > high)"
                 : std::to_string(std::min(a.repeats, b.repeats)) +
                       " repeat(s): no band (rule: low > high)",
           bands && a.ci_low > b.ci_high}};
}

std::string beats_answer(const BestCandidate& a, const BestCandidate& b) {
  if (beats(a, b)) return a.optimizer + " beats " + b.optimizer;
  if (beats(b, a)) return b.optimizer + " beats " + a.optimizer;
  return "tie";
}

std::vector<ClaimHalf> grid_unnecessary_halves(const BestCandidate& automatic,
                                               const BestCandidate& grid) {
  const double gap = automatic.mean - grid.mean;
  return {{automatic.optimizer + "'s best within 1 point of " + grid.optimizer + "'s (or above it)",
           automatic.optimizer + " - " + grid.optimizer + " = " + points(gap) + " (rule: >= -1)",
           std::isfinite(gap) && gap >= -kAccuracyTolerance}};
}

std::string grid_unnecessary_answer(const BestCandidate& automatic, const BestCandidate& grid) {
  const double gap = automatic.mean - grid.mean;
  if (grid_unnecessary_halves(automatic, grid).front().holds)
    return "yes: automatic clipping's best is " + points(gap) + " from the grid's";
  return "no: the C grid gains " + points(-gap);
}

std::string band_text(const BestCandidate& c) {
  if (!has_band(c)) return fixed(c.mean) + " (" + std::to_string(c.repeats) + " repeat: no band)";
  return fixed(c.mean) + " [" + fixed(c.ci_low) + ", " + fixed(c.ci_high) + "]";
}

}  // namespace dplab::reproduction
