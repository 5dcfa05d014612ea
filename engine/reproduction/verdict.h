// The one verdict rule of `dplab-cli reproduce` (issue #31 item 2), applied the same way to every
// item: a paper's claim is split, BEFORE the run, into its halves (ClaimHalf), each with the
// threshold it must meet; the run measures each half's margin; then
//   reproduced  every half holds;
//   partly      at least one half holds and at least one fails (the failing halves are named);
//   not         no half holds.
// The verdict text always carries every half's margin against its threshold, so a reader can
// apply a stricter or looser rule without re-running. A reduced-scale run says its scale.
// REPORT.md prints this rule from resources/rules/verdict.md (rule_files.h). Pure functions;
// thread-safe.
#pragma once

#include <string>
#include <vector>

namespace dplab::reproduction {

enum class VerdictWord { kReproduced, kPartly, kNot };

struct ClaimHalf {
  std::string name;    // "DPAdam within 1 point of DPSGD"
  std::string margin;  // what was measured against the threshold: "DPSGD - DPAdam = 1.1 points
                       // (rule: <= 1)"
  bool holds = false;
};

// "reproduced" | "partly" | "not".
std::string to_string(VerdictWord word);

// The word for these halves; throws InvalidArgument when `halves` is empty (a claim with nothing
// measured has no verdict).
VerdictWord verdict_word(const std::vector<ClaimHalf>& halves);

// "reproduced: <name> (<margin>); ..." / "partly, fails: <name> (<margin>); holds: ..." /
// "not: <name> (<margin>); ...", then " [quick scale]" when `scale_note` is not empty.
std::string verdict_text(const std::vector<ClaimHalf>& halves, const std::string& scale_note = "");

}  // namespace dplab::reproduction
