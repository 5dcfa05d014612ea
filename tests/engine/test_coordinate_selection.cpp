// Private coordinate selectors (engine/privacy/mechanisms/exponential_top_k.h, sparse_vector.h,
// uniform_selection.h) against their exact laws: selection frequencies from fixed seeds are
// compared with the exact probabilities by Pearson's chi-square (engine/audit/chi_square.h,
// itself checked against table values); each law test also shows that a slightly wrong law is
// rejected, so the test can fail.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "audit/chi_square.h"
#include "core/error.h"
#include "core/random.h"
#include "privacy/mechanisms/exact_top_k.h"
#include "privacy/mechanisms/exponential_top_k.h"
#include "privacy/mechanisms/sparse_vector.h"
#include "privacy/mechanisms/uniform_selection.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::privacy;

namespace {

// Counts of each outcome (a sorted selected set, encoded as a key) over `draws` calls.
std::map<std::vector<Index>, double> outcome_counts(CoordinateSelector& selector,
                                                    const SparseVectorView& g, int draws,
                                                    std::uint64_t seed) {
  Rng rng(seed);
  std::map<std::vector<Index>, double> counts;
  std::vector<Index> selected;
  for (int r = 0; r < draws; ++r) {
    selector.select(g, rng, selected);
    counts[selected] += 1;
  }
  return counts;
}

double p_value_against(const std::map<std::vector<Index>, double>& counts,
                       const std::map<std::vector<Index>, double>& law) {
  std::vector<double> observed, expected;
  double covered = 0;
  for (const auto& [outcome, probability] : law) {
    if (probability < 1e-12) continue;
    const auto it = counts.find(outcome);
    observed.push_back(it == counts.end() ? 0.0 : it->second);
    expected.push_back(probability);
    covered += probability;
  }
  // Outcomes outside the law (should not occur) make the test fail.
  double outside = 0;
  for (const auto& [outcome, count] : counts) {
    if (!law.count(outcome) || law.at(outcome) < 1e-12) outside += count;
  }
  if (outside > 0) return 0.0;
  for (double& e : expected) e /= covered;
  return audit::chi_square_test(observed, expected).p_value;
}

// Pearson's chi-square test of homogeneity of two histograms over the same bins (empty bins
// dropped; bins - 1 degrees of freedom): the p-value that both come from one law.
double two_sample_p_value(const std::vector<double>& a, const std::vector<double>& b) {
  double total_a = 0, total_b = 0;
  for (std::size_t i = 0; i < a.size(); ++i) total_a += a[i], total_b += b[i];
  double statistic = 0;
  int bins = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double column = a[i] + b[i];
    if (column == 0) continue;
    ++bins;
    const double expected_a = column * total_a / (total_a + total_b);
    const double expected_b = column * total_b / (total_a + total_b);
    statistic += (a[i] - expected_a) * (a[i] - expected_a) / expected_a +
                 (b[i] - expected_b) * (b[i] - expected_b) / expected_b;
  }
  return bins < 2 ? 1.0 : audit::chi_square_survival(statistic, bins - 1);
}

// Exact law of k sequential draws without replacement with weights w (unordered result).
void sequential_law(const std::vector<double>& w, int k, std::vector<Index>& chosen, double prob,
                    std::map<std::vector<Index>, double>& law) {
  if (static_cast<int>(chosen.size()) == k) {
    std::vector<Index> key = chosen;
    std::sort(key.begin(), key.end());
    law[key] += prob;
    return;
  }
  double remaining = 0;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (std::find(chosen.begin(), chosen.end(), Index(i)) == chosen.end()) remaining += w[i];
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (std::find(chosen.begin(), chosen.end(), Index(i)) != chosen.end()) continue;
    chosen.push_back(Index(i));
    sequential_law(w, k, chosen, prob * w[i] / remaining, law);
    chosen.pop_back();
  }
}

// exp(eps'' min(|g|, S0) / (2 S0)) for a dense vector.
std::vector<double> em_weights(const std::vector<float>& dense, double eps, double s0) {
  std::vector<double> w;
  for (const float v : dense)
    w.push_back(std::exp(eps * std::min<double>(std::abs(v), s0) / (2 * s0)));
  return w;
}

struct SparseInput {
  std::vector<Index> indices;
  std::vector<float> values;
  Index dimension;
  SparseVectorView view() const { return {dimension, indices, values}; }
  std::vector<float> dense() const {
    std::vector<float> d(static_cast<std::size_t>(dimension), 0.0f);
    for (std::size_t n = 0; n < indices.size(); ++n)
      d[static_cast<std::size_t>(indices[n])] = values[n];
    return d;
  }
};

}  // namespace

class TestCoordinateSelection : public QObject {
  Q_OBJECT

 private slots:
  void chi_square_table_values() {
    // Tabulated chi-square quantiles: chi2(1) 0.95 = 3.841459, chi2(9) 0.99 = 21.66599,
    // chi2(9) at 7 -> 0.637119407169399 (mpmath; the paper's Table 2 row .007 with 1,000 canaries,
    // p = .63).
    DPLAB_COMPARE_REL(audit::chi_square_survival(3.841458820694124, 1), 0.05, 1e-9);
    DPLAB_COMPARE_REL(audit::chi_square_survival(21.665994333461924, 9), 0.01, 1e-9);
    DPLAB_COMPARE_REL(audit::chi_square_survival(7.0, 9), 0.637119407169399, 1e-12);
    DPLAB_COMPARE_REL(audit::chi_square_survival(100.0, 9), 1.5735176303753944e-17, 1e-9);
    QCOMPARE(audit::chi_square_survival(0.0, 3), 1.0);
  }

  void draw_epsilon_formula() {
    // eps'' = eps' / sqrt(2 k log(1/delta')): eps' = 10, k = 100, delta' = 1e-5.
    DPLAB_COMPARE_REL(exponential_top_k_draw_epsilon(10, 1e-5, 100),
                      10 / std::sqrt(200 * std::log(1e5)), 1e-15);
    QCOMPARE(selection_count(0.001, 100000), Index(100));
    QCOMPARE(selection_count(0.001, 50), Index(1));
  }

  void exponential_single_draw_is_softmax() {
    // k = 1: Pr[j] = softmax_j(eps'' u_j / (2 S0)); untouched coordinates have u = 0.
    const SparseInput g{{0, 2, 3}, {0.05f, -0.2f, 0.02f}, 6};
    const double eps = 4.0, s0 = 0.1;
    ExponentialTopK em({6, 1, eps, s0});
    const auto counts = outcome_counts(em, g.view(), 60000, 101);
    std::map<std::vector<Index>, double> law, wrong;
    std::vector<Index> chosen;
    sequential_law(em_weights(g.dense(), eps, s0), 1, chosen, 1.0, law);
    sequential_law(em_weights(g.dense(), eps * 1.15, s0), 1, chosen, 1.0, wrong);
    const double p = p_value_against(counts, law);
    QVERIFY2(p > 1e-3, qPrintable(QString("p = %1").arg(p)));
    QVERIFY(p_value_against(counts, wrong) < 1e-4);  // a 15% error in eps'' is detected
  }

  void exponential_two_draws_without_replacement() {
    // k = 2: Pr[{i, j}] = w_i/W * w_j/(W - w_i) + w_j/W * w_i/(W - w_j).
    const SparseInput g{{1, 3, 4}, {0.09f, 0.03f, -0.06f}, 5};
    const double eps = 3.0, s0 = 0.1;
    ExponentialTopK em({5, 2, eps, s0});
    const auto counts = outcome_counts(em, g.view(), 80000, 202);
    std::map<std::vector<Index>, double> law, with_replacement_style;
    std::vector<Index> chosen;
    sequential_law(em_weights(g.dense(), eps, s0), 2, chosen, 1.0, law);
    const double p = p_value_against(counts, law);
    QVERIFY2(p > 1e-3, qPrintable(QString("p = %1").arg(p)));
    // The "top-2 of a softmax product" law Pr ∝ w_i w_j (not sequential) is a different law.
    const auto w = em_weights(g.dense(), eps, s0);
    double total = 0;
    for (int i = 0; i < 5; ++i)
      for (int j = i + 1; j < 5; ++j) total += w[i] * w[j];
    for (int i = 0; i < 5; ++i)
      for (int j = i + 1; j < 5; ++j) with_replacement_style[{i, j}] = w[i] * w[j] / total;
    QVERIFY(p_value_against(counts, with_replacement_style) < 1e-4);
  }

  void exponential_sparse_path_with_many_untouched() {
    // p = 60, 3 touched coordinates, k = 4: most keys come from the Rényi order statistics of the
    // untouched coordinates. Cells: which touched coordinates were selected (8 subsets).
    const SparseInput g{{7, 20, 41}, {0.1f, 0.04f, -0.08f}, 60};
    const double eps = 8.0, s0 = 0.1;
    const int k = 4;
    ExponentialTopK em({60, k, eps, s0});
    const auto w = em_weights(g.dense(), eps, s0);
    // Exact law of (touched subset) by recursion over draws: state = touched mask, untouched count.
    std::map<std::vector<Index>, double> law;
    std::function<void(int, int, double)> recurse = [&](int mask, int untouched, double prob) {
      if (__builtin_popcount(unsigned(mask)) + untouched == k) {
        std::vector<Index> key;
        for (int t = 0; t < 3; ++t)
          if (mask & (1 << t)) key.push_back(g.indices[t]);
        law[key] += prob;
        return;
      }
      double remaining = 57 - untouched;
      for (int t = 0; t < 3; ++t)
        if (!(mask & (1 << t))) remaining += w[g.indices[t]];
      for (int t = 0; t < 3; ++t)
        if (!(mask & (1 << t)))
          recurse(mask | (1 << t), untouched, prob * w[g.indices[t]] / remaining);
      recurse(mask, untouched + 1, prob * (57 - untouched) / remaining);
    };
    recurse(0, 0, 1.0);
    Rng rng(303);
    std::map<std::vector<Index>, double> counts;
    std::vector<Index> selected;
    std::vector<double> per_coordinate(60, 0.0);
    const int draws = 60000;
    for (int r = 0; r < draws; ++r) {
      em.select(g.view(), rng, selected);
      QCOMPARE(Index(selected.size()), Index(k));
      QVERIFY(std::adjacent_find(selected.begin(), selected.end()) == selected.end());
      std::vector<Index> key;
      for (const Index i : selected) {
        per_coordinate[i] += 1;
        if (i == 7 || i == 20 || i == 41) key.push_back(i);
      }
      counts[key] += 1;
    }
    const double p = p_value_against(counts, law);
    QVERIFY2(p > 1e-3, qPrintable(QString("p = %1").arg(p)));
    // Untouched coordinates are exchangeable: their inclusion counts are uniform among them.
    std::vector<double> untouched_counts;
    for (int i = 0; i < 60; ++i)
      if (i != 7 && i != 20 && i != 41) untouched_counts.push_back(per_coordinate[i]);
    const std::vector<double> uniform(untouched_counts.size(), 1.0 / untouched_counts.size());
    QVERIFY(audit::chi_square_test(untouched_counts, uniform).p_value > 1e-3);
  }

  void sparse_vector_exact_law() {
    // NumericSparse with c1 = 2 on p = 4: outcomes {}, {i}, {i, j}. With the threshold noise
    // rho = alpha + Lap(s1) and v ~ Lap(2 s1) (CDF F), the first pass from `start` at i has
    //   E_rho[ prod_{start<=l<i} F(rho - u_l) (1 - F(rho - u_i)) ],
    // a fresh rho after each pass; integrated numerically (Simpson, 4e5 intervals).
    SparseVectorSettings settings{4, 2, 14.6, 0.1, 0.1, 0.1};
    SparseVector svt(settings);
    const double s1 = sparse_vector_noise_scale(settings, 0.95 * settings.epsilon);
    const std::vector<double> u{0.1, 0.0, 0.05, 0.1};
    const SparseInput g{{0, 2, 3}, {0.3f, -0.05f, 0.1f}, 4};  // 0.3 clips to S0 = 0.1
    auto laplace_cdf = [](double x, double b) {
      return x < 0 ? 0.5 * std::exp(x / b) : 1 - 0.5 * std::exp(-x / b);
    };
    auto integrate = [&](const std::function<double(double)>& f) {
      const double lo = settings.threshold - 40 * s1, hi = settings.threshold + 40 * s1;
      const int n = 400000;
      const double h = (hi - lo) / n;
      double sum = 0;
      for (int i = 0; i <= n; ++i) {
        const double rho = lo + i * h;
        const double density = std::exp(-std::abs(rho - settings.threshold) / s1) / (2 * s1);
        const double weight = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
        sum += weight * density * f(rho);
      }
      return sum * h / 3;
    };
    // first(start, i): prob. that the first pass at or after start is at i (i = 4: none).
    auto first = [&](int start, int i) {
      return integrate([&](double rho) {
        double prob = 1;
        for (int l = start; l < std::min(i, 4); ++l) prob *= laplace_cdf(rho - u[l], 2 * s1);
        if (i < 4) prob *= 1 - laplace_cdf(rho - u[i], 2 * s1);
        return prob;
      });
    };
    std::map<std::vector<Index>, double> law;
    law[{}] = first(0, 4);
    for (int i = 0; i < 4; ++i) {
      const double pi = first(0, i);
      law[{i}] = pi * first(i + 1, 4);
      for (int j = i + 1; j < 4; ++j) law[{i, j}] = pi * first(i + 1, j);
    }
    double total = 0;
    for (const auto& [k, v] : law) total += v;
    DPLAB_COMPARE_ABS(total, 1.0, 1e-6);
    const auto counts = outcome_counts(svt, g.view(), 60000, 404);
    const double p = p_value_against(counts, law);
    QVERIFY2(p > 1e-3, qPrintable(QString("p = %1").arg(p)));
    // Ignoring the values (u = 0 everywhere) gives a law the test rejects.
    std::map<std::vector<Index>, double> blind;
    const std::vector<double> saved = u;
    const_cast<std::vector<double>&>(u) = {0, 0, 0, 0};
    blind[{}] = first(0, 4);
    for (int i = 0; i < 4; ++i) {
      const double pi = first(0, i);
      blind[{i}] = pi * first(i + 1, 4);
      for (int j = i + 1; j < 4; ++j) blind[{i, j}] = pi * first(i + 1, j);
    }
    QVERIFY(p_value_against(counts, blind) < 1e-4);
  }

  void sparse_vector_skipping_keeps_the_exact_law() {
    // The fast scan jumps over runs of untouched coordinates with one geometric draw
    // (sparse_vector.cpp). On p = 10 with runs of 3, 3 and 2 untouched coordinates between the
    // touched ones, c1 = 2: both the fast scan and the textbook full scan match the exact law
    // (same integral as above, generalised to p), and a law that ignores the values is
    // rejected for both.
    SparseVectorSettings settings{10, 2, 14.6, 0.1, 0.1, 0.2};
    SparseVector svt(settings);
    const double s1 = sparse_vector_noise_scale(settings, 0.95 * settings.epsilon);
    const SparseInput g{{3, 7}, {0.3f, -0.06f}, 10};
    const int p = 10;
    auto laplace_cdf = [](double x, double b) { return 1.0 - laplace_survival(x, b); };
    auto exact_law = [&](const std::vector<double>& u) {
      auto first = [&](int start, int i) {  // first pass at or after start is at i (p: none)
        const double lo = settings.threshold - 40 * s1, hi = settings.threshold + 40 * s1;
        const int n = 100000;
        const double h = (hi - lo) / n;
        double sum = 0;
        for (int step = 0; step <= n; ++step) {
          const double rho = lo + step * h;
          double prob = std::exp(-std::abs(rho - settings.threshold) / s1) / (2 * s1);
          for (int l = start; l < std::min(i, p); ++l) prob *= laplace_cdf(rho - u[l], 2 * s1);
          if (i < p) prob *= 1 - laplace_cdf(rho - u[i], 2 * s1);
          sum += ((step == 0 || step == n) ? 1 : (step % 2 ? 4 : 2)) * prob;
        }
        return sum * h / 3;
      };
      std::map<std::vector<Index>, double> law;
      law[{}] = first(0, p);
      for (int i = 0; i < p; ++i) {
        const double pi = first(0, i);
        law[{i}] = pi * first(i + 1, p);
        for (int j = i + 1; j < p; ++j) law[{i, j}] = pi * first(i + 1, j);
      }
      return law;
    };
    std::vector<double> u(p, 0.0);
    u[3] = 0.1;  // 0.3 clips to S0
    u[7] = 0.06;
    const auto law = exact_law(u);
    double total = 0;
    for (const auto& [k, v] : law) total += v;
    DPLAB_COMPARE_ABS(total, 1.0, 1e-6);
    const auto blind = exact_law(std::vector<double>(p, 0.0));

    const auto fast = outcome_counts(svt, g.view(), 60000, 606);
    Rng rng(607);
    std::map<std::vector<Index>, double> full;
    std::vector<Index> selected;
    for (int r = 0; r < 60000; ++r) {
      svt.select_by_full_scan(g.view(), rng, selected);
      full[selected] += 1;
    }
    const double p_fast = p_value_against(fast, law), p_full = p_value_against(full, law);
    QVERIFY2(p_fast > 1e-3, qPrintable(QString("fast scan p = %1").arg(p_fast)));
    QVERIFY2(p_full > 1e-3, qPrintable(QString("full scan p = %1").arg(p_full)));
    QVERIFY(p_value_against(fast, blind) < 1e-4);
    QVERIFY(p_value_against(full, blind) < 1e-4);
  }

  void sparse_vector_fast_scan_on_a_wide_vector() {
    // p = 100,000 with 300 touched coordinates and c1 = 100 (gamma = 0.001): the fast
    // scan and the full scan give the same law of the number of passes (6 bins) and of the last
    // selected index (10 bins): two-sample chi-square tests. A full scan with a
    // 10% lower threshold (a wrong law) is told apart by the same test.
    SparseVectorSettings settings{100000, 100, 1.0, 1e-5, 0.1, 0.0};
    settings.threshold = sparse_vector_default_threshold(settings);
    SparseVector svt(settings);
    SparseVectorSettings lower = settings;
    lower.threshold *= 0.9;
    SparseVector svt_lower(lower);
    SparseInput g{{}, {}, 100000};
    for (Index i = 0; i < 300; ++i) {
      g.indices.push_back(i * 313 + 17);
      g.values.push_back(0.08f);
    }
    struct Histograms {
      std::vector<double> passes = std::vector<double>(6, 0.0);
      std::vector<double> where = std::vector<double>(10, 0.0);
    };
    auto record = [](Histograms& h, const std::vector<Index>& selected) {
      const std::size_t bin = std::min<std::size_t>(5, selected.size() / 20);  // 0-19, ..., 100
      h.passes[bin] += 1;
      // One observation per scan (chi-square needs independent counts): where it stopped.
      if (!selected.empty()) h.where[static_cast<std::size_t>(selected.back() / 10000)] += 1;
    };
    Rng fast_rng(11), full_rng(12), lower_rng(13);
    std::vector<Index> selected;
    Histograms fast, full, wrong;
    for (int r = 0; r < 300; ++r) {
      svt.select(g.view(), fast_rng, selected);
      QVERIFY(Index(selected.size()) <= 100);
      QVERIFY(std::adjacent_find(selected.begin(), selected.end(),
                                 [](Index a, Index b) { return a >= b; }) == selected.end());
      record(fast, selected);
      svt.select_by_full_scan(g.view(), full_rng, selected);
      record(full, selected);
      svt_lower.select_by_full_scan(g.view(), lower_rng, selected);
      record(wrong, selected);
    }
    const double p_passes = two_sample_p_value(fast.passes, full.passes);
    const double p_where = two_sample_p_value(fast.where, full.where);
    QVERIFY2(p_passes > 1e-3, qPrintable(QString("pass counts p = %1").arg(p_passes)));
    QVERIFY2(p_where > 1e-3, qPrintable(QString("pass positions p = %1").arg(p_where)));
    QVERIFY(std::min(two_sample_p_value(fast.passes, wrong.passes),
                     two_sample_p_value(fast.where, wrong.where)) < 1e-4);
  }

  void sparse_vector_default_threshold_selects_about_c1() {
    // alpha = 2 sigma1 log(p / (2 c1)): with u = 0, about c1 passes per full scan; never > c1.
    SparseVectorSettings settings{20000, 20, 1.0, 1e-5, 0.1, 0.0};
    settings.threshold = sparse_vector_default_threshold(settings);
    SparseVector svt(settings);
    Rng rng(5);
    std::vector<Index> selected;
    const SparseInput g{{}, {}, 20000};
    double total = 0;
    for (int r = 0; r < 200; ++r) {
      svt.select(g.view(), rng, selected);
      QVERIFY(Index(selected.size()) <= 20);
      total += selected.size();
    }
    QVERIFY(total / 200 > 8 && total / 200 <= 20);
  }

  void uniform_selection_is_uniform_over_subsets() {
    // k = 2 of p = 5: each of the 10 subsets has probability 1/10.
    UniformSelection uniform(5, 2);
    const SparseInput g{{0}, {1.0f}, 5};
    const auto counts = outcome_counts(uniform, g.view(), 50000, 505);
    std::map<std::vector<Index>, double> law;
    for (int i = 0; i < 5; ++i)
      for (int j = i + 1; j < 5; ++j) law[{i, j}] = 0.1;
    const double p = p_value_against(counts, law);
    QVERIFY2(p > 1e-3, qPrintable(QString("p = %1").arg(p)));
  }

  void exact_top_k_takes_the_largest_magnitudes() {
    // |g| = 0.5, 3, 3, 0 (stored zero), 1 at coordinates 2, 5, 7, 8, 9 of p = 12; k = 3 takes 5
    // and 7 (the tie, both) and 9; the stored zero and every untouched coordinate are never taken.
    ExactTopK oracle(12, 3);
    const SparseInput g{{2, 5, 7, 8, 9}, {0.5f, -3.0f, 3.0f, 0.0f, 1.0f}, 12};
    Rng rng(1);
    std::vector<Index> out;
    oracle.select(g.view(), rng, out);
    QCOMPARE(out, (std::vector<Index>{5, 7, 9}));
    // Fewer nonzero coordinates than k: all of them, nothing else.
    ExactTopK wide(12, 6);
    wide.select(g.view(), rng, out);
    QCOMPARE(out, (std::vector<Index>{2, 5, 7, 9}));
    // A tie at the cut goes to the lower index.
    ExactTopK one(12, 1);
    const SparseInput tie{{4, 6}, {-2.0f, 2.0f}, 12};
    one.select(tie.view(), rng, out);
    QCOMPARE(out, (std::vector<Index>{4}));
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, ExactTopK(3, 4));
    const SparseInput wrong{{0}, {1.0f}, 9};
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, oracle.select(wrong.view(), rng, out));
  }

  void invalid_settings_name_their_field() {
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, ExponentialTopK({10, 11, 1.0, 0.1}));
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, ExponentialTopK({10, 1, 0.0, 0.1}));
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, SparseVector({10, 1, 1.0, 1.5, 0.1, 0}));
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, UniformSelection(3, 4));
    ExponentialTopK em({10, 1, 1.0, 0.1});
    Rng rng(1);
    std::vector<Index> out;
    const SparseInput wrong{{0}, {1.0f}, 9};
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, em.select(wrong.view(), rng, out));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestCoordinateSelection)
#include "test_coordinate_selection.moc"
