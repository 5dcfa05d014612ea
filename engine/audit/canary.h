// Secret-sharer canary audit (Carlini et al. 2019, "The secret sharer"; Zhang, Mironov &
// Hejazinia section 6.5, Figure 2 and Table 2) for the word2vec model.
//
// 1. m canaries c = (c0, c1, c2), each word uniform on the vocabulary V (seeded);
// 2. each canary is spliced n_c times into the training token stream at uniform positions;
// 3. after training, log-perplexity  P(c) = -log Pr(c1 | c0) - log Pr(c2 | c0, c1)  under the
//    model's language-model view Pr(w | C) = softmax_w(e_w . mean_{x in C} e_x);
// 4. rank: the fraction of ALL alternatives (c1', c2') in V^2 other than (c1, c2) that the model
//    finds strictly less likely than the canary,  r(c) = |{P(c0, c1', c2') > P(c)}| / (|V|^2 - 1).
//    The paper writes the count with "<=" but reads "a high rank indicates the model highly
//    favours the canary"; we count the alternatives the canary beats, so r near 1 = memorised,
//    matching its histograms (non-private mass at the right). The paper samples 10K alternatives;
//    we enumerate all |V|^2 exactly (a V x V Gram matrix makes each alternative O(1) after an
//    O(V^2) pass per canary).
// 5. Under the null (the canary is independent of the model — e.g. never inserted) c is a uniform
//    draw from V^2, so r is uniform on [0, 1]: the histogram of r over 10 equal bins is tested
//    against the uniform law with Pearson's chi-square (audit/chi_square.h; the paper's
//    "distance" = X^2 / m, its p-values = 9 degrees of freedom).
// 6. Exposure (Carlini et al. 2019, section 4, Definition 4): with the canary's rank among ALL
//    |R| = |V|^2 candidates (c1', c2') ordered by log-perplexity, 1 = the most likely,
//      rank(c)     = 1 + |{(c1', c2') : P(c0, c1', c2') < P(c)}|,
//      exposure(c) = log2 |R| - log2 rank(c)       in [0, log2 |R|] bits.
//    Exposure near log2 |R| = the model finds the canary the likeliest of all: memorised. Under
//    the null, rank is uniform on 1..|R| and E[exposure] ~ 1/ln 2 = 1.44 bits (Carlini et al.).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "audit/chi_square.h"
#include "models/cbow_negative_sampling.h"

namespace dplab::audit {

using Canary = std::array<int, 3>;

// m canaries with words uniform on [0, vocabulary).
std::vector<Canary> make_canaries(int count, int vocabulary_size, std::uint64_t seed);

// The stream with each canary spliced in `repeats` times at uniform positions (seeded).
std::vector<int> insert_canaries(const std::vector<int>& stream,
                                 const std::vector<Canary>& canaries, int repeats,
                                 std::uint64_t seed);

// r(c) for each canary (see above), in [0, 1].
std::vector<double> canary_ranks(const models::CbowNegativeSampling& model,
                                 const std::vector<Canary>& canaries);

// log2(candidates) - log2(rank), rank in [1, candidates] (Carlini et al. 2019, Definition 4).
double exposure(double candidates, double rank);

struct CanaryScore {
  double rank_fraction = 0;  // r(c): fraction of the other alternatives the canary beats
  std::int64_t rank = 1;     // Carlini's rank among all |V|^2 candidates (1 = likeliest)
  double exposure = 0;       // log2 |V|^2 - log2 rank, bits
};
// r(c), rank and exposure of each canary, from one pass over the |V|^2 candidates.
std::vector<CanaryScore> canary_scores(const models::CbowNegativeSampling& model,
                                       const std::vector<Canary>& canaries);

struct ExposureSummary {
  double mean = 0;  // mean exposure over the canaries, bits
  double max = 0;   // largest exposure, bits
};
ExposureSummary summarize_exposure(const std::vector<CanaryScore>& scores);
std::vector<double> rank_fractions(const std::vector<CanaryScore>& scores);

struct RankHistogram {
  std::vector<double> counts;  // bins of equal width on [0, 1]
  ChiSquareResult test;        // against the uniform law
};

// Histogram of ranks in `bins` equal bins (r = 1 goes to the last) and its chi-square test.
RankHistogram rank_histogram(const std::vector<double>& ranks, int bins = 10);

}  // namespace dplab::audit
