#include "audit/canary.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"

namespace dplab::audit {
namespace {

double log_sum_exp(const float* x, Index n) {
  float hi = x[0];
  for (Index i = 1; i < n; ++i) hi = std::max(hi, x[i]);
  double sum = 0;
  for (Index i = 0; i < n; ++i) sum += std::exp(double(x[i]) - hi);
  return hi + std::log(sum);
}

}  // namespace

std::vector<Canary> make_canaries(int count, int vocabulary_size, std::uint64_t seed) {
  require_at_least("canaries", count, 1);
  require_at_least("vocabulary_size", vocabulary_size, 2);
  Rng rng(seed);
  std::vector<Canary> canaries(static_cast<std::size_t>(count));
  for (auto& c : canaries)
    for (int& w : c) w = static_cast<int>(rng.below(static_cast<std::uint64_t>(vocabulary_size)));
  return canaries;
}

std::vector<int> insert_canaries(const std::vector<int>& stream,
                                 const std::vector<Canary>& canaries, int repeats,
                                 std::uint64_t seed) {
  require_at_least("canary_repeats", repeats, 0);
  Rng rng(seed);
  std::vector<std::pair<std::size_t, std::size_t>> insertions;  // (position, canary)
  for (std::size_t c = 0; c < canaries.size(); ++c)
    for (int r = 0; r < repeats; ++r)
      insertions.emplace_back(static_cast<std::size_t>(rng.below(stream.size() + 1)), c);
  std::sort(insertions.begin(), insertions.end());
  std::vector<int> out;
  out.reserve(stream.size() + 3 * insertions.size());
  std::size_t next = 0;
  for (std::size_t pos = 0; pos <= stream.size(); ++pos) {
    while (next < insertions.size() && insertions[next].first == pos) {
      const Canary& c = canaries[insertions[next].second];
      out.insert(out.end(), c.begin(), c.end());
      ++next;
    }
    if (pos < stream.size()) out.push_back(stream[pos]);
  }
  return out;
}

double exposure(double candidates, double rank) {
  require_at_least("candidates", candidates, 1);
  if (!(rank >= 1 && rank <= candidates))
    fail_field("rank", rank, "must be in [1, " + format_number(candidates) + "]");
  return std::log2(candidates) - std::log2(rank);
}

std::vector<double> canary_ranks(const models::CbowNegativeSampling& model,
                                 const std::vector<Canary>& canaries) {
  return rank_fractions(canary_scores(model, canaries));
}

std::vector<double> rank_fractions(const std::vector<CanaryScore>& scores) {
  std::vector<double> out;
  out.reserve(scores.size());
  for (const CanaryScore& s : scores) out.push_back(s.rank_fraction);
  return out;
}

ExposureSummary summarize_exposure(const std::vector<CanaryScore>& scores) {
  if (scores.empty()) throw InvalidArgument("exposure summary: no canaries");
  ExposureSummary out;
  for (const CanaryScore& s : scores) {
    out.mean += s.exposure;
    out.max = std::max(out.max, s.exposure);
  }
  out.mean /= static_cast<double>(scores.size());
  return out;
}

std::vector<CanaryScore> canary_scores(const models::CbowNegativeSampling& model,
                                       const std::vector<Canary>& canaries) {
  const Index v = model.num_rows(), d = model.row_width();
  const Eigen::Map<const Matrix> embeddings(model.params().data(), v, d);
  const Matrix gram = embeddings * embeddings.transpose();  // G = E E^T, V x V
  const double candidates = static_cast<double>(v) * static_cast<double>(v);
  std::vector<CanaryScore> ranks;
  ranks.reserve(canaries.size());
  std::vector<double> first(static_cast<std::size_t>(v));  // log Pr(c1' | c0)
  Vector logits(v);
  std::vector<float> second(static_cast<std::size_t>(v * v));  // log Pr(c2' | c0, c1')
  for (const Canary& c : canaries) {
    for (const int w : c)
      if (w < 0 || w >= v)
        throw InvalidArgument("canary word id " + std::to_string(w) + " is outside the vocabulary");
    const float* g0 = gram.data() + c[0] * v;
    const double lse0 = log_sum_exp(g0, v);
    for (Index w = 0; w < v; ++w) first[w] = g0[w] - lse0;
    for (Index w1 = 0; w1 < v; ++w1) {
      const float* g1 = gram.data() + w1 * v;
      for (Index w = 0; w < v; ++w) logits[w] = 0.5f * (g0[w] + g1[w]);
      const double lse = log_sum_exp(logits.data(), v);
      for (Index w = 0; w < v; ++w) second[w1 * v + w] = static_cast<float>(logits[w] - lse);
    }
    const double canary_perplexity = -first[c[1]] - double(second[c[1] * v + c[2]]);
    std::int64_t less_likely = 0, more_likely = 0;
    for (Index w1 = 0; w1 < v; ++w1)
      for (Index w2 = 0; w2 < v; ++w2) {
        const double perplexity = -first[w1] - double(second[w1 * v + w2]);
        if (perplexity > canary_perplexity) ++less_likely;
        if (perplexity < canary_perplexity) ++more_likely;
      }
    CanaryScore score;
    score.rank_fraction = static_cast<double>(less_likely) / static_cast<double>(v * v - 1);
    score.rank = 1 + more_likely;
    score.exposure = exposure(candidates, static_cast<double>(score.rank));
    ranks.push_back(score);
  }
  return ranks;
}

RankHistogram rank_histogram(const std::vector<double>& ranks, int bins) {
  require_at_least("bins", bins, 2);
  if (ranks.empty()) throw InvalidArgument("rank histogram: no ranks");
  RankHistogram h;
  h.counts.assign(static_cast<std::size_t>(bins), 0.0);
  for (const double r : ranks) {
    const int b = std::min(bins - 1, std::max(0, static_cast<int>(r * bins)));
    h.counts[static_cast<std::size_t>(b)] += 1;
  }
  const std::vector<double> uniform(static_cast<std::size_t>(bins), 1.0 / bins);
  h.test = chi_square_test(h.counts, uniform);
  return h;
}

}  // namespace dplab::audit
