// UTF-8 validation for text that carries names (JSON keys and strings, corpus words): the first
// byte that breaks RFC 3629 (Unicode 15, table 3-7), so an error can point at it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dplab {

// The byte offset where the first ill-formed UTF-8 sequence starts (the byte to show a user: a
// Latin-1 "caf\xE9 " is named at its 0xE9): a stray continuation byte, a lead byte without its
// continuation bytes (or cut by the end of the text), an overlong form (C0, C1, E0 80..9F,
// F0 80..8F), a surrogate (ED A0..BF) or a code point above U+10FFFF (F4 90.., F5..FF).
// nullopt when all of `text` is well-formed (ASCII is).
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

// `text` with each ill-formed sequence (as first_invalid_utf8 finds them: a lead byte and the
// continuation bytes it had before the one that broke it, or one byte that starts nothing)
// replaced by U+FFFD; well-formed text is returned as it is. The rule nlohmann::json's dump applies
// with error_handler_t::replace (core/json_text.h), so JSON and CSV outputs (core/csv_table.h)
// write the same text for the same bytes.
std::string utf8_replaced(std::string_view text);

// The length of the longest prefix of `text` of at most `max_bytes` bytes that does not end inside
// a UTF-8 sequence, for cutting a name or an excerpt for a message (a cut through "é" left half a
// character, which no UTF-8 reader takes). Text that is not UTF-8 there is cut at max_bytes.
std::size_t utf8_prefix_length(std::string_view text, std::size_t max_bytes);

// `text` read as ISO-8859-1 (Latin-1: byte b is code point U+00bb), in UTF-8: bytes below 0x80
// stay, every other byte becomes two. What a CSV saved by a spreadsheet in a Western-European
// locale (or Windows-1252, whose letters agree with Latin-1's) holds; the caller says it did it.
std::string latin1_to_utf8(std::string_view text);

}  // namespace dplab
