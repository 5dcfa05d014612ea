// JSON as the text dplab writes it (every output file, stdout, the run history): nlohmann's dump,
// except that a string holding bytes that are not UTF-8 — a Latin-1 file name or column name the
// user gave — is written with each such byte as U+FFFD instead of throwing type_error 316, which
// ended a run in "internal error" after its training, with summary.json lost (issue #45 item 5).
// Valid UTF-8 is written byte for byte as dump() writes it.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace dplab {

// indent < 0: one line (dump()); else pretty-printed with that many spaces.
std::string json_text(const nlohmann::json& value, int indent = -1);

}  // namespace dplab
