// libFuzzer harness: the text corpus (text/text_corpus.h) under a small memory budget, as
// loader_budget holds the data loaders to theirs. Structure-aware, so a few bytes stand for a
// large corpus:
//
//   byte 0      bits 0-1: vocabulary size V (2, 10, 1000, 100000); bit 2: keep stop words;
//               bit 3: write the file gzip-compressed
//   byte 1      e: the body is written 2^(e mod 16) times (capped at kMaxFileBytes), so most
//               inputs stay small (fast) and a few stand for a file of a megabyte
//   rest        the body (text: lines of words, or any bytes)
//
// The budget is kBudgetBytes (4 MB) and files reach 1 MB, so a corpus of many distinct words or
// of very long lines outgrows it. After each input the peak resident memory must have grown by
// less than the budget plus ASan's shadow (1/8) and 16 MB of slack (fuzz_peak_memory.h). A corpus
// that loads must be what text_corpus.h says: at most V words, most frequent first (ties
// alphabetical), none a stop word unless kept, every line's ids in range and non-empty, and the
// kept tokens at most the raw ones; build_corpus over the same lines gives the same corpus.
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/memory_check.h"
#include "fuzz_input_file.h"
#include "fuzz_peak_memory.h"
#include "text/text_corpus.h"

namespace {

constexpr double kBudgetBytes = 4e6;
constexpr std::size_t kMaxFileBytes = std::size_t{1} << 20;
constexpr double kAllowedGrowth = kBudgetBytes * 1.125 + 16e6;

std::string repeated(const std::uint8_t* body, std::size_t size, std::size_t repeats) {
  if (size == 0) return {};
  repeats = std::min(repeats, std::max<std::size_t>(1, kMaxFileBytes / size));
  std::string text;
  text.reserve(size * repeats);
  for (std::size_t r = 0; r < repeats; ++r) text.append(reinterpret_cast<const char*>(body), size);
  return text;
}

void write_file(const std::string& path, const std::string& text, bool gzip) {
  if (gzip) {
    gzFile out = gzopen(path.c_str(), "wb1");
    if (out == nullptr) std::abort();
    if (!text.empty()) gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
    gzclose(out);
    return;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), f) != text.size()) std::abort();
  std::fclose(f);
}

void check_corpus(const dplab::text::TextCorpus& c, const dplab::text::CorpusOptions& options) {
  const auto& stops = dplab::text::stop_words();
  if (c.vocabulary.size() < 2 ||
      c.vocabulary.size() > static_cast<std::size_t>(options.vocabulary_size))
    __builtin_trap();
  if (c.counts.size() != c.vocabulary.size()) __builtin_trap();
  for (std::size_t i = 0; i < c.vocabulary.size(); ++i) {
    if (c.vocabulary[i].empty() || c.counts[i] < 1) __builtin_trap();
    if (options.drop_stop_words && std::binary_search(stops.begin(), stops.end(), c.vocabulary[i]))
      __builtin_trap();
    if (i > 0 && (c.counts[i] > c.counts[i - 1] ||
                  (c.counts[i] == c.counts[i - 1] && !(c.vocabulary[i - 1] < c.vocabulary[i]))))
      __builtin_trap();
  }
  std::int64_t ids = 0;
  for (const auto& line : c.lines) {
    if (line.empty()) __builtin_trap();
    for (const int id : line)
      if (id < 0 || id >= static_cast<int>(c.vocabulary.size())) __builtin_trap();
    ids += static_cast<std::int64_t>(line.size());
  }
  if (ids != c.kept_tokens || c.kept_tokens > c.raw_tokens) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  static const int kVocabulary[] = {2, 10, 1000, 100000};
  dplab::text::CorpusOptions options;
  options.vocabulary_size = kVocabulary[data[0] & 3];
  options.drop_stop_words = (data[0] & 4) == 0;
  const bool gzip = (data[0] & 8) != 0;
  const std::size_t repeats = std::size_t{1} << (data[1] % 16);
  const std::string text = repeated(data + 2, size - 2, repeats);
  const std::string path = dplab::fuzz::input_path("corpus.txt");
  write_file(path, text, gzip);
  dplab::set_memory_limit_bytes(kBudgetBytes);  // after input_path(), which sets 4 MB too

  const dplab::fuzz::PeakMemoryCheck memory;
  try {
    const auto corpus = dplab::text::load_text_corpus(path, options);
    check_corpus(corpus, options);
    // The same lines through build_corpus (the in-memory door, getline's lines) when small.
    if (text.size() <= 4096) {
      std::vector<std::string> lines;
      std::size_t begin = 0;
      while (begin < text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string::npos) end = text.size();
        lines.emplace_back(text, begin, end - begin);
        begin = end + 1;
      }
      const auto again = dplab::text::build_corpus(lines, options);
      if (again.vocabulary != corpus.vocabulary || again.counts != corpus.counts ||
          again.lines != corpus.lines || again.raw_tokens != corpus.raw_tokens)
        __builtin_trap();
    }
  } catch (const dplab::Error&) {
  }
  memory.check(kAllowedGrowth, kBudgetBytes, "fuzz_corpus");
  return 0;
}
