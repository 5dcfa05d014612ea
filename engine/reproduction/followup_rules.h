// The two questions of the `followups` item (issue #47), asked of the main paper's protocol
// (Figure 4's data, L, T, delta and repeats) with optimizers published after it, and the rules
// that answer them, fixed BEFORE the run (resources/rules/followups.md, which REPORT.md prints,
// and docs/guide/reproduction.md quote them):
//
//   1. "Does DPAdamWOSM beat DP-AdamBC?" (Tang et al., AAAI 2024: theta -= alpha m^ /
//      sqrt(max(v^ - Phi, gamma')), Phi = (sigma C / L)^2). Each optimizer over its own grid
//      (its default hyperparameters x the paper's 4 clips, as Figure 4 gives DPAdam). Per
//      optimizer, its best candidate = the highest mean over repeats of the final validation
//      accuracy (Figure 4's "final max"); its seed band = the 95% t-interval of that candidate's
//      accuracy over the repeats (tuning::repeat_spread). Halves:
//        (a) DPAdamWOSM's best mean above DP-AdamBC's (gap > 0);
//        (b) the two seed bands disjoint in DPAdamWOSM's favour (its low > DP-AdamBC's high).
//      Answer: "DPAdamWOSM beats DP-AdamBC" when both hold, "DP-AdamBC beats DPAdamWOSM" when
//      the mirror halves hold, "tie" otherwise (including fewer than 2 repeats: no band).
//   2. "Does automatic clipping make C's grid unnecessary?" (Bu et al. 2023, g_i / (||g_i|| +
//      0.01)). DPSGD with automatic clipping over the learning-rate axis only (10 values, no C)
//      vs flat-clipped DPSGD over the paper's 40 (alpha x C). One half: automatic's best mean
//      >= the grid's best mean - 1 point (kAccuracyTolerance). Answer "yes, unnecessary" when
//      it holds, else "no, the C grid gains <margin>".
// Every margin is printed in accuracy points. Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "reproduction/verdict.h"

namespace dplab::reproduction {

// One optimizer entry's best candidate: its mean final accuracy over repeats and its seed band.
struct BestCandidate {
  std::string optimizer;  // the entry's name in reports: "dpadamwosm", "dpsgd (auto-clip)"
  std::string label;      // the candidate: "lr=0.001 C=0.5"
  double mean = 0;
  double ci_low = 0, ci_high = 0;  // 95% t-interval over repeats; NaN with < 2 repeats
  int repeats = 0;
};

// Question 1's halves (a), (b) for `a` beating `b`.
std::vector<ClaimHalf> beats_halves(const BestCandidate& a, const BestCandidate& b);
// "<a> beats <b>" | "<b> beats <a>" | "tie", by the rule above.
std::string beats_answer(const BestCandidate& a, const BestCandidate& b);

// Question 2's one half: `automatic`'s best within 1 point of `grid`'s (or above it).
std::vector<ClaimHalf> grid_unnecessary_halves(const BestCandidate& automatic,
                                               const BestCandidate& grid);
// "yes: automatic within 1 point of the grid (...)" | "no: the C grid gains x points".
std::string grid_unnecessary_answer(const BestCandidate& automatic, const BestCandidate& grid);

// "0.845 [0.843, 0.847]" or "0.845 (1 repeat: no band)".
std::string band_text(const BestCandidate& c);

}  // namespace dplab::reproduction
