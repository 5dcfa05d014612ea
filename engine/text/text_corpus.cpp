#include "text/text_corpus.h"

#include <algorithm>
#include <fstream>
#include <unordered_map>

#include "core/error.h"
#include "core/validate.h"

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

TextCorpus build_corpus(const std::vector<std::string>& lines, const CorpusOptions& options) {
  require_at_least("vocabulary_size", options.vocabulary_size, 2);
  const auto& stops = stop_words();
  auto is_stop = [&](const std::string& w) {
    return options.drop_stop_words && std::binary_search(stops.begin(), stops.end(), w);
  };
  TextCorpus corpus;
  std::vector<std::vector<std::string>> tokenized;
  tokenized.reserve(lines.size());
  std::unordered_map<std::string, std::int64_t> frequency;
  for (const auto& line : lines) {
    auto tokens = tokenize(line);
    corpus.raw_tokens += static_cast<std::int64_t>(tokens.size());
    for (const auto& t : tokens)
      if (!is_stop(t)) ++frequency[t];
    tokenized.push_back(std::move(tokens));
  }
  std::vector<std::pair<std::string, std::int64_t>> ranked(frequency.begin(), frequency.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (ranked.size() > static_cast<std::size_t>(options.vocabulary_size))
    ranked.resize(static_cast<std::size_t>(options.vocabulary_size));
  if (ranked.size() < 2) throw ParseError("the text has fewer than 2 distinct non-stop words");
  std::unordered_map<std::string, int> id;
  for (const auto& [word, count] : ranked) {
    id.emplace(word, static_cast<int>(corpus.vocabulary.size()));
    corpus.vocabulary.push_back(word);
    corpus.counts.push_back(count);
  }
  for (const auto& tokens : tokenized) {
    std::vector<int> ids;
    for (const auto& t : tokens) {
      const auto it = id.find(t);
      if (it != id.end()) ids.push_back(it->second);
    }
    corpus.kept_tokens += static_cast<std::int64_t>(ids.size());
    if (!ids.empty()) corpus.lines.push_back(std::move(ids));
  }
  return corpus;
}

TextCorpus load_text_corpus(const std::string& path, const CorpusOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot open the text corpus '" + path + "'");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  if (in.bad()) throw IoError("error while reading the text corpus '" + path + "'");
  try {
    return build_corpus(lines, options);
  } catch (const ParseError& e) {
    throw ParseError(path + ": " + e.what());
  }
}

}  // namespace dplab::text
