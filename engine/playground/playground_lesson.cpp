#include "playground/playground_lesson.h"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "playground/playground_state.h"

namespace dplab::playground {
namespace {

using nlohmann::json;

std::vector<std::string> knob_list(JsonReader& r, const std::string& key) {
  const std::vector<std::string> knobs(std::begin(kLessonKnobs), std::end(kLessonKnobs));
  const auto names = r.optional_strings(key);
  if (!names) return {};
  for (std::size_t i = 0; i < names->size(); ++i) {
    if (std::find(knobs.begin(), knobs.end(), (*names)[i]) == knobs.end()) {
      std::string expected;
      for (const auto& knob : knobs) expected += (expected.empty() ? "" : ", ") + knob;
      json_fail(r.element_path(key, i),
                "unknown knob " + json_excerpt(json((*names)[i])) + " (" + expected + ")");
    }
  }
  return *names;
}

// Characters (code points) of UTF-8 text: the bytes that do not continue a sequence.
std::size_t utf8_length(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

Lesson read_lesson(const json& j) {
  JsonReader r(j, "");
  Lesson lesson;
  lesson.title = r.required_string("title");
  lesson.text = r.required_string("text");
  lesson.question = r.required_string("question");
  lesson.source = r.required_string("source");
  const std::vector<std::string> pictures(std::begin(kLessonPictures), std::end(kLessonPictures));
  lesson.picture = pictures[r.optional_choice("picture", pictures, "picture").value_or(0)];
  if (const json* settings = r.find("settings"))
    lesson.settings = settings_from_json(*settings, PlaygroundSettings{}, "settings");
  if (const json* pin = r.find("pinned")) {
    JsonReader p(*pin, "pinned");
    LessonPin out;
    out.label = p.required_string("label");
    const std::size_t chars = utf8_length(out.label);
    if (chars == 0 || chars > kPinLabelChars) {
      json_fail(p.key_path("label"), "must be 1 to " + std::to_string(kPinLabelChars) +
                                         " characters (a legend entry), not " +
                                         std::to_string(chars));
    }
    out.settings = settings_from_json(p.require("settings"), lesson.settings, "pinned.settings");
    if (out.settings == lesson.settings) {
      json_fail(p.key_path("settings"),
                "the pinned setting is the lesson's own: nothing to compare");
    }
    p.reject_unknown();
    lesson.pinned = std::move(out);
  }
  lesson.locked = knob_list(r, "locked");
  lesson.hidden = knob_list(r, "hidden");
  r.reject_unknown();
  return lesson;
}

}  // namespace

Lesson parse_lesson(const std::string& json_text, const std::string& origin) {
  const json j = parse_json_text(json_text, origin);
  try {
    return read_lesson(j);
  } catch (const ParseError& e) {
    throw ParseError(origin + ": " + e.what());
  }
}

}  // namespace dplab::playground
