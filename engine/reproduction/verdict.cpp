// The verdict rule of `dplab-cli reproduce` (see verdict.h).
#include "reproduction/verdict.h"

#include "core/error.h"

namespace dplab::reproduction {

std::string to_string(VerdictWord word) {
  switch (word) {
    case VerdictWord::kReproduced:
      return "reproduced";
    case VerdictWord::kPartly:
      return "partly";
    case VerdictWord::kNot:
      return "not";
  }
  return "?";
}

VerdictWord verdict_word(const std::vector<ClaimHalf>& halves) {
  if (halves.empty()) throw InvalidArgument("verdict: a claim needs at least one measured half");
  std::size_t holding = 0;
  for (const auto& h : halves) holding += h.holds ? 1 : 0;
  if (holding == halves.size()) return VerdictWord::kReproduced;
  return holding == 0 ? VerdictWord::kNot : VerdictWord::kPartly;
}

std::string verdict_text(const std::vector<ClaimHalf>& halves, const std::string& scale_note) {
  const VerdictWord word = verdict_word(halves);
  auto list = [&](bool holding) {
    std::string text;
    for (const auto& h : halves) {
      if (h.holds != holding) continue;
      text += (text.empty() ? "" : "; ") + h.name + " (" + h.margin + ")";
    }
    return text;
  };
  std::string text = to_string(word);
  if (word == VerdictWord::kReproduced) {
    text += ": " + list(true);
  } else if (word == VerdictWord::kNot) {
    text += ": fails " + list(false);
  } else {
    text += ", fails: " + list(false) + "; holds: " + list(true);
  }
  if (!scale_note.empty()) text += " [" + scale_note + "]";
  return text;
}

}  // namespace dplab::reproduction
