// A Playground lesson (issue #27): a small JSON file a teacher can copy and edit
// (resources/lessons/*.json, installed under share/dplab/lessons):
//   {"title": "Clipping vs noise",
//    "text": "2-4 sentences that set the scene.",
//    "question": "What happens to ... when ...?",
//    "picture": "step",                 // plane | step | curves | ledger | grid | objpert:
//                                       // where to look (grid: the alpha-C heatmap; objpert:
//                                       // objective perturbation beside DP-SGD)
//    "source": "Abadi et al. 2016, section 3.1",
//    "settings": {...},                 // playground_state.h; missing keys keep the defaults
//    "locked": ["dataset", "model"],    // knobs shown but not editable
//    "hidden": ["minority"]}            // knobs not shown
// Knob names: kLessonKnobs. Errors are ParseError naming the file and the key.
#pragma once

#include <string>
#include <vector>

#include "playground/playground_session.h"

namespace dplab::playground {

inline constexpr const char* kLessonKnobs[] = {
    "dataset",  "points",     "label_noise", "minority",  "data_seed", "outlier",
    "model",    "activation", "features",    "optimizer", "sigma",     "clip",
    "clipping", "lot",        "alpha",       "steps",     "delta",     "seed"};
inline constexpr const char* kLessonPictures[] = {"plane",  "step", "curves",
                                                  "ledger", "grid", "objpert"};

struct Lesson {
  std::string title, text, question, picture, source;
  PlaygroundSettings settings;
  std::vector<std::string> locked, hidden;
};

// Parses a lesson; `origin` (a file name) prefixes every error.
Lesson parse_lesson(const std::string& json_text, const std::string& origin);

}  // namespace dplab::playground
