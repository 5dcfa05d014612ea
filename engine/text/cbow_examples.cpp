#include "text/cbow_examples.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"

namespace dplab::text {

TokenStreams split_streams(const TextCorpus& corpus, const CbowDataOptions& options) {
  require_open_interval("test_fraction", options.test_fraction, 0, 1);
  Rng rng(derive_seed(options.seed, 11));
  TokenStreams streams;
  for (const auto& line : corpus.lines) {
    auto& stream = rng.uniform() < options.test_fraction ? streams.test : streams.train;
    const std::int64_t limit =
        &stream == &streams.test ? options.max_test_tokens : options.max_train_tokens;
    for (const int id : line) {
      if (static_cast<std::int64_t>(stream.size()) >= limit) break;
      stream.push_back(id);
    }
  }
  return streams;
}

double balanced_test_fraction(std::int64_t max_train_tokens, std::int64_t max_test_tokens) {
  require_at_least("max_train_tokens", static_cast<double>(max_train_tokens), 1);
  require_at_least("max_test_tokens", static_cast<double>(max_test_tokens), 1);
  return static_cast<double>(max_test_tokens) /
         static_cast<double>(max_train_tokens + max_test_tokens);
}

CbowExamples make_cbow_examples(const std::vector<int>& stream,
                                const std::vector<std::int64_t>& counts,
                                const CbowDataOptions& options, std::uint64_t seed) {
  require_at_least("window", options.window, 1);
  require_at_least("negatives", options.negatives, 0);
  if (options.contexts_per_token != 0 && options.contexts_per_token != 1) {
    fail_field("contexts_per_token", options.contexts_per_token, "must be 0 (all) or 1");
  }
  if (stream.size() < 2) throw InvalidArgument("the token stream has fewer than 2 tokens");
  // Cumulative unigram^(3/4) law.
  std::vector<double> cumulative(counts.size());
  double total = 0;
  for (std::size_t w = 0; w < counts.size(); ++w) {
    total += std::pow(static_cast<double>(counts[w]), 0.75);
    cumulative[w] = total;
  }
  Rng rng(seed);
  CbowExamples ex;
  ex.negatives_per_example = options.negatives;
  const auto n = static_cast<std::int64_t>(stream.size());
  auto add = [&](std::int64_t t, std::int64_t c) {
    ex.target.push_back(stream[static_cast<std::size_t>(t)]);
    ex.context.push_back(stream[static_cast<std::size_t>(c)]);
    for (int k = 0; k < options.negatives; ++k) {
      const double u = rng.uniform() * total;
      const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
      ex.negatives.push_back(static_cast<int>(std::min<std::ptrdiff_t>(
          it - cumulative.begin(), static_cast<std::ptrdiff_t>(counts.size()) - 1)));
    }
  };
  for (std::int64_t t = 0; t < n; ++t) {
    const std::int64_t lo = std::max<std::int64_t>(0, t - options.window);
    const std::int64_t hi = std::min<std::int64_t>(n - 1, t + options.window);
    if (options.contexts_per_token == 1) {
      // uniform over [lo, hi] \ {t}
      auto c = lo + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(hi - lo)));
      if (c >= t) ++c;
      add(t, c);
    } else {
      for (std::int64_t c = lo; c <= hi; ++c)
        if (c != t) add(t, c);
    }
  }
  return ex;
}

}  // namespace dplab::text
