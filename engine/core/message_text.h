// Values quoted in error messages: a token from a flag, a file or a command line is cut so that a
// 1 MB token cannot flood the terminal, while its start still identifies it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dplab {

// `text` as it appears in a message: its first `max_chars` characters, then
// "... (N characters)" when it is longer.
inline std::string cut_for_message(std::string_view text, std::size_t max_chars = 60) {
  if (text.size() <= max_chars) return std::string(text);
  return std::string(text.substr(0, max_chars)) + "... (" + std::to_string(text.size()) +
         " characters)";
}

}  // namespace dplab
