#include "models/cbow_negative_sampling.h"

#include <cmath>

#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"
#include "privacy/accounting/log_space.h"
#include "privacy/mechanisms/gaussian_noise.h"

namespace dplab::models {
namespace {

double dot(const float* a, const float* b, int d) {
  double s = 0;
  for (int j = 0; j < d; ++j) s += double(a[j]) * b[j];
  return s;
}

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// Adds coef * source to the gradient row of `w`, creating it if new.
void add_row(RowGradient& g, int w, int d, double coef, const float* source) {
  std::size_t r = 0;
  while (r < g.rows.size() && g.rows[r] != w) ++r;
  if (r == g.rows.size()) {
    g.rows.push_back(w);
    g.values.resize(g.values.size() + static_cast<std::size_t>(d), 0.0f);
  }
  float* out = g.values.data() + r * static_cast<std::size_t>(d);
  for (int j = 0; j < d; ++j) out[j] += static_cast<float>(coef * source[j]);
}

}  // namespace

CbowNegativeSampling::CbowNegativeSampling(int vocabulary_size, int embedding_dim)
    : vocabulary_(vocabulary_size), dim_(embedding_dim) {
  require_at_least("vocabulary_size", vocabulary_size, 2);
  require_at_least("embedding_dim", embedding_dim, 1);
  params_.setZero(static_cast<Index>(vocabulary_size) * embedding_dim);
}

double CbowNegativeSampling::default_init_std(int embedding_dim) {
  return 0.5 * std::pow(static_cast<double>(embedding_dim), -0.25);
}

void CbowNegativeSampling::initialize(std::uint64_t seed, double init_std) {
  require_non_negative("init_std", init_std);
  if (init_std == 0) init_std = default_init_std(dim_);
  privacy::GaussianNoise normal(seed);
  normal.fill(init_std, params_);
}

void CbowNegativeSampling::bind(const text::CbowExamples& examples) {
  for (std::int64_t i = 0; i < examples.size(); ++i) {
    const bool bad = examples.target[i] < 0 || examples.target[i] >= vocabulary_ ||
                     examples.context[i] < 0 || examples.context[i] >= vocabulary_;
    if (bad)
      throw InvalidArgument("example " + std::to_string(i) +
                            " has a word id outside the vocabulary");
  }
  examples_ = &examples;
}

Index CbowNegativeSampling::num_examples() const {
  return examples_ ? examples_->size() : 0;
}

double CbowNegativeSampling::example_gradient(Index i, RowGradient& g) {
  if (!examples_ || i < 0 || i >= examples_->size()) {
    throw InvalidArgument("cbow: example index " + std::to_string(i) + " is out of range");
  }
  const int t = examples_->target[i], c = examples_->context[i];
  const int* neg = examples_->negatives_of(i);
  g.rows.clear();
  g.values.clear();
  const float* et = row(t);
  const double sc = dot(et, row(c), dim_);
  double loss = privacy::detail::log1p_exp(-sc);
  const double coef_c = sigmoid(sc) - 1.0;
  add_row(g, t, dim_, coef_c, row(c));
  add_row(g, c, dim_, coef_c, et);
  for (int k = 0; k < examples_->negatives_per_example; ++k) {
    const double sn = dot(et, row(neg[k]), dim_);
    loss += privacy::detail::log1p_exp(sn);
    const double coef_n = sigmoid(sn);
    add_row(g, t, dim_, coef_n, row(neg[k]));
    add_row(g, neg[k], dim_, coef_n, et);
  }
  return loss;
}

double CbowNegativeSampling::example_loss(const text::CbowExamples& set, std::int64_t i) const {
  const float* et = row(set.target[i]);
  double loss = privacy::detail::log1p_exp(-dot(et, row(set.context[i]), dim_));
  const int* neg = set.negatives_of(i);
  for (int k = 0; k < set.negatives_per_example; ++k)
    loss += privacy::detail::log1p_exp(dot(et, row(neg[k]), dim_));
  return loss;
}

double CbowNegativeSampling::mean_loss(const text::CbowExamples& set, std::int64_t limit) const {
  const std::int64_t n = std::min(limit, set.size());
  if (n <= 0) return 0.0;
  double sum = 0;
  const std::int64_t size = set.size();
  for (std::int64_t i = 0; i < n; ++i) {
    // i size < size^2: fits in 64 bits for any set below 3e9 examples.
    sum += example_loss(set, i * size / n);
  }
  return sum / static_cast<double>(n);
}

}  // namespace dplab::models
