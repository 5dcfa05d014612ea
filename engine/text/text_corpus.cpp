#include "text/text_corpus.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "core/error.h"
#include "core/memory_check.h"
#include "core/validate.h"
#include "data/file_reader.h"

namespace dplab::text {

int TextCorpus::id_of(std::string_view word) const {
  for (std::size_t i = 0; i < vocabulary.size(); ++i)
    if (vocabulary[i] == word) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> tokenize(std::string_view line) {
  std::vector<std::string> tokens;
  std::string current;
  for (const char ch : line) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      current.push_back(static_cast<char>(c | 0x20));
    } else if (!current.empty()) {
      tokens.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) tokens.push_back(std::move(current));
  return tokens;
}

const std::vector<std::string>& stop_words() {
  static const std::vector<std::string> words = [] {
    std::vector<std::string> w{
        "a",         "about",     "above",   "after",   "again", "against", "all",     "also",
        "am",        "an",        "and",     "any",     "are",   "art",     "as",      "at",
        "be",        "because",   "been",    "before",  "being", "below",   "between", "both",
        "but",       "by",        "can",     "could",   "did",   "do",      "does",    "doing",
        "doth",      "down",      "during",  "each",    "even",  "few",     "for",     "from",
        "further",   "had",       "has",     "hast",    "hath",  "have",    "having",  "he",
        "her",       "here",      "hers",    "herself", "him",   "himself", "his",     "how",
        "i",         "if",        "in",      "into",    "is",    "it",      "its",     "itself",
        "just",      "may",       "me",      "might",   "mine",  "more",    "most",    "must",
        "my",        "myself",    "no",      "nor",     "not",   "now",     "o",       "of",
        "off",       "on",        "once",    "only",    "or",    "other",   "our",     "ours",
        "ourselves", "out",       "over",    "own",     "s",     "said",    "same",    "saith",
        "shall",     "shalt",     "she",     "should",  "so",    "some",    "such",    "t",
        "than",      "that",      "the",     "thee",    "their", "theirs",  "them",    "themselves",
        "then",      "there",     "these",   "they",    "thine", "this",    "those",   "thou",
        "through",   "thy",       "thyself", "to",      "too",   "under",   "unto",    "until",
        "up",        "upon",      "us",      "very",    "was",   "we",      "were",    "what",
        "when",      "where",     "which",   "while",   "who",   "whom",    "why",     "will",
        "wilt",      "with",      "would",   "ye",      "yea",   "you",     "your",    "yours",
        "yourself",  "yourselves"};
    std::sort(w.begin(), w.end());
    return w;
  }();
  return words;
}

namespace {

// Calls visit(word) for each lower-cased ASCII-letter token of `line` (tokenize's rule), reusing
// one buffer: no allocation per token.
template <class Visit>
void for_each_token(std::string_view line, std::string& word, Visit&& visit) {
  word.clear();
  for (const char ch : line) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      word.push_back(static_cast<char>(c | 0x20));
    } else if (!word.empty()) {
      visit(std::string_view(word));
      word.clear();
    }
  }
  if (!word.empty()) visit(std::string_view(word));
}

// Memory of one distinct word in the frequency table (an unordered_map node: the string, the
// count, the next pointer and the cached hash, plus a bucket slot), before the word's own bytes.
constexpr double kWordEntryBytes = sizeof(std::string) + 3 * sizeof(std::int64_t) + sizeof(void*);

// The corpus from `lines` (std::string or std::string_view), in two passes over the text: count
// the words, then map each line to vocabulary ids (no token is stored as a string). `what` names
// the corpus in memory messages; `fixed_bytes` is what the caller already holds (the text).
template <class Lines>
TextCorpus build_from_lines(const Lines& lines, const CorpusOptions& options,
                            const std::string& what, double fixed_bytes) {
  require_at_least("vocabulary_size", options.vocabulary_size, 2);
  const auto& stops = stop_words();
  auto is_stop = [&](std::string_view w) {
    return options.drop_stop_words && std::binary_search(stops.begin(), stops.end(), w);
  };
  TextCorpus corpus;
  std::string word;
  // Up front: the id lists of every line (at most one id per token), before any of it exists.
  std::int64_t tokens = 0;
  for (const auto& line : lines) for_each_token(line, word, [&](std::string_view) { ++tokens; });
  corpus.raw_tokens = tokens;
  const double fixed = fixed_bytes + static_cast<double>(lines.size()) * sizeof(std::vector<int>) +
                       static_cast<double>(tokens) * sizeof(int);
  require_memory(
      what + " (" + std::to_string(lines.size()) + " lines, " + std::to_string(tokens) + " words)",
      fixed);
  // The frequency table, checked each time it doubles (a rehash allocates then too).
  std::unordered_map<std::string, std::int64_t> frequency;
  double word_bytes = 0;
  std::size_t next_check = 1024;
  for (const auto& line : lines) {
    for_each_token(line, word, [&](std::string_view w) {
      if (is_stop(w)) return;
      const auto [it, fresh] = frequency.try_emplace(std::string(w), 0);
      ++it->second;
      if (!fresh) return;
      if (w.size() >= sizeof(std::string)) word_bytes += static_cast<double>(w.size() + 1);
      if (frequency.size() < next_check) return;
      next_check *= 2;
      require_memory(
          what + " (" + std::to_string(frequency.size()) + " distinct words so far)",
          fixed + 2.0 * static_cast<double>(frequency.size()) * kWordEntryBytes + word_bytes);
    });
  }
  std::vector<std::pair<std::string, std::int64_t>> ranked(frequency.begin(), frequency.end());
  frequency.clear();
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (ranked.size() > static_cast<std::size_t>(options.vocabulary_size))
    ranked.resize(static_cast<std::size_t>(options.vocabulary_size));
  if (ranked.size() < 2) throw ParseError("the text has fewer than 2 distinct non-stop words");
  std::unordered_map<std::string, int> id;
  for (const auto& [w, count] : ranked) {
    id.emplace(w, static_cast<int>(corpus.vocabulary.size()));
    corpus.vocabulary.push_back(w);
    corpus.counts.push_back(count);
  }
  for (const auto& line : lines) {
    std::vector<int> ids;
    for_each_token(line, word, [&](std::string_view w) {
      const auto it = id.find(std::string(w));
      if (it != id.end()) ids.push_back(it->second);
    });
    corpus.kept_tokens += static_cast<std::int64_t>(ids.size());
    if (!ids.empty()) corpus.lines.push_back(std::move(ids));
  }
  return corpus;
}

}  // namespace

TextCorpus build_corpus(const std::vector<std::string>& lines, const CorpusOptions& options) {
  return build_from_lines(lines, options, "the text corpus", 0);
}

TextCorpus load_text_corpus(const std::string& path, const CorpusOptions& options) {
  // The one reader: regular files only, size-capped, within the memory budget, UTF-8 checked.
  const std::string text = data::read_file_text(path, data::kCorpusFile);
  std::vector<std::string_view> lines;
  std::size_t line_count = 0;
  for (const char c : text) line_count += c == '\n';
  require_memory("the text corpus '" + path + "' (" + std::to_string(line_count) + " lines)",
                 static_cast<double>(text.size()) +
                     static_cast<double>(line_count + 1) * sizeof(std::string_view));
  lines.reserve(line_count + 1);
  std::size_t begin = 0;
  while (begin < text.size()) {  // std::getline's lines: a final line without '\n' counts
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    lines.emplace_back(text.data() + begin, end - begin);
    begin = end + 1;
  }
  try {
    return build_from_lines(lines, options, "the text corpus '" + path + "'",
                            static_cast<double>(text.size()) +
                                static_cast<double>(lines.capacity()) * sizeof(std::string_view));
  } catch (const ParseError& e) {
    throw ParseError(path + ": " + e.what());
  }
}

}  // namespace dplab::text
