#include "playground/playground_lesson.h"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "core/json_guard.h"
#include "playground/playground_state.h"

namespace dplab::playground {
namespace {

[[noreturn]] void fail(const std::string& origin, const std::string& key, const std::string& what) {
  throw ParseError(origin + ": " + key + ": " + what);
}

std::string text_field(const nlohmann::json& j, const std::string& key, const std::string& origin,
                       bool required) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (required) fail(origin, key, "missing (a string)");
    return "";
  }
  if (!it->is_string()) fail(origin, key, "expected a string, got " + json_excerpt(*it));
  return it->get<std::string>();
}

std::vector<std::string> knob_list(const nlohmann::json& j, const std::string& key,
                                   const std::string& origin) {
  std::vector<std::string> out;
  const auto it = j.find(key);
  if (it == j.end()) return out;
  if (!it->is_array()) fail(origin, key, "expected a list of knob names");
  for (std::size_t i = 0; i < it->size(); ++i) {
    const auto& v = (*it)[i];
    const std::string where = key + "[" + std::to_string(i) + "]";
    if (!v.is_string()) fail(origin, where, "expected a knob name");
    const std::string name = v.get<std::string>();
    if (std::find_if(std::begin(kLessonKnobs), std::end(kLessonKnobs),
                     [&](const char* k) { return name == k; }) == std::end(kLessonKnobs)) {
      fail(origin, where,
           "unknown knob \"" + name +
               "\" (dataset, points, label_noise, minority, data_seed, outlier, model, "
               "activation, features, optimizer, sigma, clip, lot, alpha, steps, delta, seed)");
    }
    out.push_back(name);
  }
  return out;
}

}  // namespace

Lesson parse_lesson(const std::string& json_text, const std::string& origin) {
  const nlohmann::json j = parse_json_text(json_text, origin);
  if (!j.is_object()) throw ParseError(origin + ": expected a JSON object");
  static const std::set<std::string> keys{"title",  "text",     "question", "picture",
                                          "source", "settings", "locked",   "hidden"};
  for (const auto& item : j.items()) {
    if (!keys.count(item.key())) fail(origin, item.key(), "unknown key");
  }
  Lesson lesson;
  lesson.title = text_field(j, "title", origin, true);
  lesson.text = text_field(j, "text", origin, true);
  lesson.question = text_field(j, "question", origin, true);
  lesson.source = text_field(j, "source", origin, true);
  lesson.picture = text_field(j, "picture", origin, false);
  if (lesson.picture.empty()) lesson.picture = "plane";
  if (std::find_if(std::begin(kLessonPictures), std::end(kLessonPictures), [&](const char* p) {
        return lesson.picture == p;
      }) == std::end(kLessonPictures)) {
    fail(origin, "picture", "must be plane, step, curves, ledger, grid or objpert");
  }
  if (const auto s = j.find("settings"); s != j.end()) {
    try {
      lesson.settings = settings_from_json(*s, PlaygroundSettings{}, "settings");
    } catch (const ParseError& e) {
      throw ParseError(origin + ": " + e.what());
    }
  }
  lesson.locked = knob_list(j, "locked", origin);
  lesson.hidden = knob_list(j, "hidden", origin);
  return lesson;
}

}  // namespace dplab::playground
