#include "privacy/mechanisms/exponential_top_k.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::privacy {
namespace {

double standard_exponential(Rng& rng) {
  return -std::log(rng.uniform_open_zero());
}

}  // namespace

double exponential_top_k_draw_epsilon(double selection_epsilon, double selection_delta, Index k) {
  require_positive("selection_epsilon", selection_epsilon);
  require_open_interval("selection_delta", selection_delta, 0, 1);
  require_at_least("k", static_cast<double>(k), 1);
  return selection_epsilon /
         std::sqrt(2.0 * static_cast<double>(k) * std::log(1.0 / selection_delta));
}

Index selection_count(double gamma, Index dimension) {
  require_left_open_interval("gamma", gamma, 0, 1);
  const auto k = static_cast<Index>(std::floor(gamma * static_cast<double>(dimension)));
  return std::max<Index>(k, 1);
}

ExponentialTopK::ExponentialTopK(const ExponentialTopKSettings& settings) : settings_(settings) {
  require_at_least("dimension", static_cast<double>(settings.dimension), 1);
  require_at_least("k", static_cast<double>(settings.count), 1);
  if (settings.count > settings.dimension) {
    fail_field("k", static_cast<double>(settings.count), "must be <= the dimension p");
  }
  require_positive("draw_epsilon", settings.draw_epsilon);
  require_positive("S0", settings.clip);
  taken_.assign(static_cast<std::size_t>(settings.dimension), 0);
}

void ExponentialTopK::select(const SparseVectorView& gradient, Rng& rng,
                             std::vector<Index>& selected) {
  if (gradient.dimension != settings_.dimension) {
    throw InvalidArgument("exponential selection: gradient dimension " +
                          std::to_string(gradient.dimension) +
                          " != p = " + std::to_string(settings_.dimension));
  }
  const Index k = settings_.count;
  const double scale = settings_.draw_epsilon / (2.0 * settings_.clip);  // s_j = scale * u_j
  keys_.clear();
  // Touched coordinates: key = s_j + Gumbel = s_j - log(E).
  for (std::size_t n = 0; n < gradient.indices.size(); ++n) {
    const double u = std::min(std::abs(static_cast<double>(gradient.values[n])), settings_.clip);
    keys_.push_back({scale * u - std::log(standard_exponential(rng)), gradient.indices[n]});
    taken_[static_cast<std::size_t>(gradient.indices[n])] = 1;
  }
  // Untouched coordinates (s = 0): the k largest of their m i.i.d. Gumbel keys.
  const Index m = settings_.dimension - static_cast<Index>(gradient.indices.size());
  const Index from_untouched = std::min(k, m);
  double order_statistic = 0;  // E_(i), the i-th smallest of m Exp(1)
  for (Index i = 0; i < from_untouched; ++i) {
    order_statistic += standard_exponential(rng) / static_cast<double>(m - i);
    Index index;
    do {
      index = static_cast<Index>(rng.below(static_cast<std::uint64_t>(settings_.dimension)));
    } while (taken_[static_cast<std::size_t>(index)] != 0);
    taken_[static_cast<std::size_t>(index)] = 1;
    keys_.push_back({-std::log(order_statistic), index});
  }
  for (const Key& key : keys_) taken_[static_cast<std::size_t>(key.index)] = 0;
  // The k largest keys.
  const auto top = keys_.begin() + static_cast<std::ptrdiff_t>(std::min<Index>(k, keys_.size()));
  std::nth_element(keys_.begin(), top - 1, keys_.end(),
                   [](const Key& a, const Key& b) { return a.key > b.key; });
  selected.clear();
  for (auto it = keys_.begin(); it != top; ++it) selected.push_back(it->index);
  std::sort(selected.begin(), selected.end());
}

}  // namespace dplab::privacy
