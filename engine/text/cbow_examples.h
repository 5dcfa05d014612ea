// Training examples for word2vec CBOW with negative sampling (Mikolov et al. 2013; Zhang, Mironov
// & Hejazinia section 6.1): one example = (target word, one context word, |U| negative words).
//
// From a token stream (lines concatenated): for every position t and every context position t'
// within `window` of t (|t' - t| <= window, t' != t; word2vec's pairs, up to 2 window per token) —
// or, with contexts_per_token = 1, one such t' drawn uniformly — one example (t, t'), and |U|
// negatives are drawn i.i.d. from the unigram distribution raised to 3/4 (Mikolov et al. 2013),
// once, when the data set is built: the examples are then fixed data, as DP requires.
// Splits: each corpus line goes to the test stream with probability test_fraction (seeded), so
// train and test share no line. Streams are cut to max_train / max_test tokens. A test fraction
// other than max_test / (max_train + max_test) makes one stream fill up first, so the other
// reads on into later lines (later books of the KJV): at 25,000 + 25,000 tokens and 0.3 the test
// stream spans 2.3 times the corpus range of the training stream (issue #48).
// balanced_test_fraction gives the fraction at which both streams end near the same line. Canaries
// (audit/canary.h) are spliced into the train stream before examples are drawn.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "text/text_corpus.h"

namespace dplab::text {

struct CbowExamples {
  int negatives_per_example = 8;  // |U|
  std::vector<int> target, context;
  std::vector<int> negatives;  // size() * |U|, row-major
  std::int64_t size() const { return static_cast<std::int64_t>(target.size()); }
  const int* negatives_of(std::int64_t i) const {
    return negatives.data() + i * negatives_per_example;
  }
};

struct CbowDataOptions {
  int window = 4;
  int negatives = 8;
  int contexts_per_token = 0;  // 0 = every position in the window; 1 = one drawn uniformly
  double test_fraction = 0.3;
  std::int64_t max_train_tokens = 50000;
  std::int64_t max_test_tokens = 10000;
  std::uint64_t seed = 1;
};

struct TokenStreams {
  std::vector<int> train, test;
};

// Seeded line-level split, each stream cut to its maximum.
TokenStreams split_streams(const TextCorpus& corpus, const CbowDataOptions& options);

// max_test / (max_train + max_test): each stream then fills at the same expected line, so train
// and test cover the same part of the corpus. InvalidArgument unless both are >= 1.
double balanced_test_fraction(std::int64_t max_train_tokens, std::int64_t max_test_tokens);

// Examples from every token of `stream` (see above); negatives from the unigram^(3/4) law of
// `counts`.
CbowExamples make_cbow_examples(const std::vector<int>& stream,
                                const std::vector<std::int64_t>& counts,
                                const CbowDataOptions& options, std::uint64_t seed);

}  // namespace dplab::text
