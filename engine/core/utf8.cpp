// See utf8.h. Table 3-7 of the Unicode standard: the well-formed byte sequences.
//   00..7F
//   C2..DF 80..BF
//   E0 A0..BF 80..BF | E1..EC 80..BF 80..BF | ED 80..9F 80..BF | EE..EF 80..BF 80..BF
//   F0 90..BF 80..BF 80..BF | F1..F3 80..BF 80..BF 80..BF | F4 80..8F 80..BF 80..BF
#include "core/utf8.h"

namespace dplab {

namespace {

// The UTF-8 sequence that starts at bytes[i] (i < n): its length (1 to 4) when it is well-formed;
// else 0, with *prefix = how many of its bytes a well-formed sequence could start with (0: the
// lead byte itself cannot start one; 1 to 3: a lead and continuation bytes cut short).
std::size_t sequence_at(const unsigned char* bytes, std::size_t n, std::size_t i,
                        std::size_t* prefix) {
  const unsigned char lead = bytes[i];
  *prefix = 0;
  if (lead < 0x80) return 1;
  std::size_t tail = 0;                   // continuation bytes after the lead
  unsigned char low = 0x80, high = 0xBF;  // the range of the first continuation byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    tail = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    tail = 2;
    if (lead == 0xE0) low = 0xA0;   // overlong below U+0800
    if (lead == 0xED) high = 0x9F;  // U+D800..DFFF are surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    tail = 3;
    if (lead == 0xF0) low = 0x90;   // overlong below U+10000
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return 0;  // 80..C1 (a stray continuation or an overlong lead) or F5..FF
  }
  for (std::size_t k = 1; k <= tail; ++k) {
    *prefix = k;
    if (i + k >= n) return 0;  // cut by the end of the text
    const unsigned char c = bytes[i + k];
    const unsigned char lo = k == 1 ? low : 0x80, hi = k == 1 ? high : 0xBF;
    if (c < lo || c > hi) return 0;
  }
  return tail + 1;
}

}  // namespace

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0, prefix = 0;
  while (i < n) {
    const std::size_t length = sequence_at(bytes, n, i, &prefix);
    if (length == 0) return i;
    i += length;
  }
  return std::nullopt;
}

std::string utf8_replaced(std::string_view text) {
  if (!first_invalid_utf8(text)) return std::string(text);
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::string out;
  out.reserve(n + n / 2);
  std::size_t i = 0, prefix = 0;
  while (i < n) {
    const std::size_t length = sequence_at(bytes, n, i, &prefix);
    if (length > 0) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out.append("\xEF\xBF\xBD");  // U+FFFD for the lead and the continuation bytes it had
      i += prefix > 0 ? prefix : 1;
    }
  }
  return out;
}

std::size_t utf8_prefix_length(std::string_view text, std::size_t max_bytes) {
  if (max_bytes >= text.size()) return text.size();
  std::size_t end = max_bytes;
  // Back over the continuation bytes (at most 3) of a sequence the cut would split.
  for (int k = 0; k < 3 && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80; ++k)
    --end;
  if ((static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) return max_bytes;  // not UTF-8
  return end;
}

std::string latin1_to_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x80) {
      out.push_back(c);
    } else {
      out.push_back(static_cast<char>(0xC0 | (b >> 6)));
      out.push_back(static_cast<char>(0x80 | (b & 0x3F)));
    }
  }
  return out;
}

}  // namespace dplab
