// Safe JSON reading for user files (experiment files, run configs): a nesting-depth cap enforced
// while parsing, errors that name the line, column and key path ("optimizers[0].grid.clip:
// number 1e400 is out of range"), and short excerpts of values for messages.
//
// Why: a 100 KB file nested 50,000 levels deep parses fine but any recursive walk over it
// (dump(), a validator) overflows the stack. Capping the depth at parse time makes every later
// walk safe; dplab's own schemas are at most 5 levels deep.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace dplab {

inline constexpr int kMaxJsonDepth = 64;

// Parses `text`; throws ParseError "<origin>: line L, column C (byte B): <key path>: <what>" on
// bad syntax, a number out of double range, a key repeated in one object (nlohmann's default is
// "last wins", which silently dropped the first value), or nesting deeper than `max_depth`.
nlohmann::json parse_json_text(std::string_view text, const std::string& origin,
                               int max_depth = kMaxJsonDepth);

// A value as JSON text for an error message, cut to `max_chars` ("..." appended). Never recurses
// more than a few levels, so it is safe on any value.
std::string json_excerpt(const nlohmann::json& value, std::size_t max_chars = 60);

}  // namespace dplab
