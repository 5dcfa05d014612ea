// A Playground lesson (issue #27): a small JSON file a teacher can copy and edit
// (resources/lessons/*.json, installed under share/dplab/lessons):
//   {"title": "Clipping vs noise",
//    "text": "2-4 sentences that set the scene.",
//    "question": "What happens to ... when ...?",
//    "picture": "step",                 // plane | step | curves | ledger | grid | objpert |
//                                       // sweep: where to look (grid: the alpha-C heatmap;
//                                       // objpert: objective perturbation beside DP-SGD)
//    "source": "Abadi et al. 2016, section 3.1",
//    "settings": {...},                 // playground_state.h; missing keys keep the defaults
//    "locked": ["dataset", "model"],    // knobs shown but not editable
//    "hidden": ["minority"],            // knobs not shown
//    "pinned": {"label": "DPSGD, pinned",  // optional: a first setting to compare against
//               "settings": {...}}}     // (the lesson's settings with these changes)
// A lesson with "pinned" runs its comparison itself: opening it trains the pinned setting to its
// T (on a worker) and pins it (its boundary and DP test curves in purple, labelled `label`, at
// most kPinLabelChars characters: a legend entry), so the lesson's own setting, played, trains
// beside it with no further clicks.
// Pictures: "sweep" is the C sweep (final test accuracy against C, playground_studies.h).
// Knob names: kLessonKnobs. Errors are ParseError naming the file and the key.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "playground/playground_session.h"

namespace dplab::playground {

inline constexpr const char* kLessonKnobs[] = {
    "dataset",  "points",     "label_noise", "minority",  "data_seed", "outlier",
    "model",    "activation", "features",    "optimizer", "sigma",     "clip",
    "clipping", "lot",        "alpha",       "steps",     "delta",     "seed"};
inline constexpr const char* kLessonPictures[] = {"plane", "step",    "curves", "ledger",
                                                  "grid",  "objpert", "sweep"};
inline constexpr std::size_t kPinLabelChars = 15;

struct LessonPin {
  std::string label;            // the pinned curves' legend entry and the plane's key
  PlaygroundSettings settings;  // the lesson's settings with the pin's changes
};

struct Lesson {
  std::string title, text, question, picture, source;
  PlaygroundSettings settings;
  std::vector<std::string> locked, hidden;
  std::optional<LessonPin> pinned;
};

// Parses a lesson; `origin` (a file name) prefixes every error.
Lesson parse_lesson(const std::string& json_text, const std::string& origin);

}  // namespace dplab::playground
