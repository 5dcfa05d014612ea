// Plain-text corpus for word-embedding experiments (Zhang, Mironov & Hejazinia, section 6.1):
// any UTF-8/ASCII text file, one or more sentences per line. Preprocessing as in the paper:
//   tokens  = maximal runs of ASCII letters, lower-cased (digits, punctuation, non-ASCII bytes
//             separate tokens; "Ge1:1" gives "ge", so strip verse references before loading);
//   drop English stop words (a fixed list, stop_words()),
//   vocabulary = the V most frequent remaining words (ties broken alphabetically);
//   every other word is removed from the token stream ("remove the least frequent words").
// Lines are kept: a line is the unit assigned to the train or test split.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dplab::text {

struct CorpusOptions {
  int vocabulary_size = 1000;  // V
  bool drop_stop_words = true;
};

struct TextCorpus {
  std::vector<std::string> vocabulary;     // id -> word, most frequent first
  std::vector<std::int64_t> counts;        // id -> occurrences in the corpus
  std::vector<std::vector<int>> lines;     // each line as word ids (empty lines dropped)
  std::int64_t raw_tokens = 0;             // tokens before filtering
  std::int64_t kept_tokens = 0;            // tokens after filtering
  int id_of(std::string_view word) const;  // -1 if not in the vocabulary
};

// Lower-cased ASCII-letter tokens of one line.
std::vector<std::string> tokenize(std::string_view line);

// The fixed English stop-word list (sorted), including archaic pronoun and verb forms
// (thee, thou, thy, ye, hath, unto, ...) that play the same role in older texts.
const std::vector<std::string>& stop_words();

// Builds the corpus from lines of text. Throws ParseError if no word survives the filtering,
// InvalidArgument if its tables would not fit in the memory budget (core/memory_check.h: the
// id lists are checked before the first pass allocates, the word table each time it doubles).
TextCorpus build_corpus(const std::vector<std::string>& lines, const CorpusOptions& options);

// Reads `path` with the one reader (data/file_reader.h: a regular file, at most 4 GiB, UTF-8
// text; IoError / ParseError naming the path and the byte offset otherwise) and builds the
// corpus within the memory budget.
TextCorpus load_text_corpus(const std::string& path, const CorpusOptions& options);

}  // namespace dplab::text
