// Helpers shared by every Canvas (see canvas.h).
#include "figures/canvas.h"

#include <cctype>

namespace dplab::figures {

double text_width(const std::string& text, double size) {
  std::size_t glyphs = 0;
  for (unsigned char c : text) glyphs += (c & 0xC0) != 0x80;  // UTF-8 lead bytes only
  return 0.55 * size * static_cast<double>(glyphs);
}

Rgb parse_color(const std::string& color) {
  if (color.size() != 7 || color[0] != '#') return {};
  unsigned value = 0;
  for (std::size_t i = 1; i < 7; ++i) {
    const unsigned char c = static_cast<unsigned char>(color[i]);
    if (!std::isxdigit(c)) return {};
    value =
        value * 16 + static_cast<unsigned>(std::isdigit(c) ? c - '0' : std::tolower(c) - 'a' + 10);
  }
  return {((value >> 16) & 255) / 255.0, ((value >> 8) & 255) / 255.0, (value & 255) / 255.0};
}

}  // namespace dplab::figures
