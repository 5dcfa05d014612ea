// word2vec CBOW with negative sampling (Mikolov et al. 2013) as in Zhang, Mironov & Hejazinia,
// section 6.1: one embedding table E (V x d, p = V d parameters; the paper's 1,000 x 100 = 100K)
// shared by targets, contexts and negatives. For an example (t, c, U):
//   l = -log sigma(e_t . e_c) - sum_{n in U} log sigma(-e_t . e_n)
//     = softplus(-s_c) + sum_n softplus(s_n),          s_x = e_t . e_x
//   dl/de_t = (sigma(s_c) - 1) e_c + sum_n sigma(s_n) e_n
//   dl/de_c = (sigma(s_c) - 1) e_t,       dl/de_n = sigma(s_n) e_t
// (rows that coincide add up). The gradient touches at most |U| + 2 rows: O((|U|+2) d) per example.
//
// Language-model view used by the canary audit (audit/canary.h): the next word given a context
// set C is  Pr(w | C) = softmax_w(e_w . h),  h = mean_{x in C} e_x.
//
// Initialisation: E_ij ~ N(0, init_std^2), seeded; the default init_std = 0.5 d^(-1/4) gives
// initial scores e.e' with standard deviation init_std^2 sqrt(d) = 0.25 for every d.
// Not thread-safe (binds one example set).
#pragma once

#include <cstdint>

#include "models/row_sparse_model.h"
#include "text/cbow_examples.h"

namespace dplab::models {

class CbowNegativeSampling final : public RowSparseModel {
 public:
  CbowNegativeSampling(int vocabulary_size, int embedding_dim);
  // init_std <= 0 picks the default (default_init_std).
  void initialize(std::uint64_t seed, double init_std = 0);
  // 0.5 d^(-1/4): initial scores with standard deviation 0.25 for every d (0.158 at d = 100).
  static double default_init_std(int embedding_dim);
  // The training examples used by example_gradient (must outlive the model's use).
  void bind(const text::CbowExamples& examples);

  Index num_rows() const override { return vocabulary_; }
  Index row_width() const override { return dim_; }
  Vector& params() override { return params_; }
  const Vector& params() const { return params_; }
  Index num_examples() const override;
  double example_gradient(Index example, RowGradient& gradient) override;

  // Loss of one example of any set.
  double example_loss(const text::CbowExamples& set, std::int64_t i) const;
  // Mean loss over n = min(limit, size) examples spread evenly over `set`: indices
  // floor(i size / n), i = 0..n-1 (all of them when limit >= size). Not the first n: examples
  // are made in corpus order, so a prefix is a few consecutive chapters of one book, and its
  // mean is not an estimate of the set's (issue #31 item 4: on the KJV the first 5,000 test
  // pairs read 0.15-0.3 nats below the whole test set once the model has trained).
  double mean_loss(const text::CbowExamples& set, std::int64_t limit) const;

 private:
  const float* row(int w) const { return params_.data() + static_cast<Index>(w) * dim_; }
  int vocabulary_, dim_;
  Vector params_;
  const text::CbowExamples* examples_ = nullptr;
};

}  // namespace dplab::models
