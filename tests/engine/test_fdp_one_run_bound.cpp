// The f-DP one-run bound (audit/fdp_one_run_bound.h; Mahloujifar, Melis & Chaudhuri 2025):
//   - JAX Privacy's reference vectors (tests/auditing_test.py, test_epsilon_one_run_close):
//     10,000 "in" scores ~ N(mu, 1) and 10,000 "out" ~ N(0, 1) at the deterministic quantiles
//     (i + 1/2) / n, every threshold of the ROC's upper hull tried, Bonferroni over the number of
//     hull vertices, significance 0.05, delta 1e-6 — both the f-DP bound and the Steinke bound
//     (one_run_bound.h, unchanged) to 1e-5 relative;
//   - an independent straightforward implementation in this file (its own Phi^-1 by bisection on
//     std::erfc, its own mu by bisection on the Gaussian delta curve, the recursion's full arrays
//     with no early stop, its own bisection on eps) against the engine's margin and bound;
//   - the bound's defining property, that its rejected set is an interval, monotonicity, the
//     ceiling, the Bonferroni wiring through best_bound_over_guess_sets, the normal quantile.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

#include "audit/fdp_one_run_bound.h"
#include "audit/one_run_bound.h"
#include "core/error.h"
#include "privacy/accounting/normal_quantile.h"
#include "privacy/mechanisms/gaussian_mechanism.h"
#include "support/expect_error.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using audit::GuessCounts;

namespace {

// ---- The independent implementation: plain doubles, std::erfc, bisection everywhere. ----

double plain_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

// Phi^-1 by 200 bisection steps on [-40, 40] (far past double resolution).
double plain_quantile(double p) {
  if (p <= 0) return -INFINITY;
  if (p >= 1) return INFINITY;
  double lo = -40, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (plain_cdf(mid) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// mu with Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta (increasing in mu).
double plain_mu(double eps, double delta) {
  auto gaussian_delta = [eps](double mu) {
    return plain_cdf(-eps / mu + mu / 2) - std::exp(eps) * plain_cdf(-eps / mu - mu / 2);
  };
  double lo = 1e-9, hi = 100;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (gaussian_delta(mid) < delta ? lo : hi) = mid;
  }
  return hi;
}

// r_0 + h_0 - r/m with the whole arrays r[0..v], h[0..v] (no early stop).
double plain_margin(std::int64_t m, std::int64_t guesses, std::int64_t correct, double mu,
                    double tau) {
  std::vector<double> r(static_cast<std::size_t>(correct + 1)),
      h(static_cast<std::size_t>(correct + 1));
  r[correct] = tau * static_cast<double>(correct) / static_cast<double>(m);
  h[correct] = tau * static_cast<double>(guesses - correct) / static_cast<double>(m);
  for (std::int64_t i = correct - 1; i >= 0; --i) {
    const double y = r[i + 1];
    const double inverse = y >= 1 ? 1.0 : plain_cdf(plain_quantile(y) - mu);
    h[i] = std::max(h[i + 1], inverse);
    r[i] = std::min(1.0, r[i + 1] + static_cast<double>(i) / static_cast<double>(guesses - i) *
                                        (h[i] - h[i + 1]));
  }
  return r[0] + h[0] - static_cast<double>(guesses) / static_cast<double>(m);
}

double plain_bound(std::int64_t m, std::int64_t guesses, std::int64_t correct, double delta,
                   double tau) {
  auto rejected = [&](double eps) {
    return plain_margin(m, guesses, correct, plain_mu(eps, delta), tau) > 0;
  };
  if (!rejected(1e-9)) return 0;
  double lo = 1e-9, hi = 64;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (rejected(mid) ? lo : hi) = mid;
  }
  return lo;
}

// ---- JAX Privacy's protocol for its reference vectors (tests/auditing_test.py). ----

// Scores at the deterministic normal quantiles (i + 1/2) / n, shifted by mu.
std::vector<double> deterministic_normal(double mu, int n) {
  std::vector<double> s;
  for (int i = 0; i < n; ++i)
    s.push_back(privacy::normal_quantile((i + 0.5) / static_cast<double>(n)) + mu);
  return s;
}

struct RocPoint {
  std::int64_t false_negatives = 0;  // in-scores below the threshold
  std::int64_t true_negatives = 0;   // out-scores below the threshold
};

// Every distinct score as a threshold t (and +inf): guess "in" for score >= t. Keep the vertices
// of the upper concave hull of (false negatives, true negatives) — the thresholds no mixture of
// two others dominates, as JAX Privacy's _pareto_frontier keeps them.
std::vector<RocPoint> roc_hull(const std::vector<double>& in, const std::vector<double>& out) {
  std::vector<std::pair<double, bool>> all;  // (score, is in)
  for (double s : in) all.push_back({s, true});
  for (double s : out) all.push_back({s, false});
  std::sort(all.begin(), all.end());
  std::vector<RocPoint> points;
  RocPoint below;
  for (std::size_t i = 0; i < all.size();) {
    points.push_back(below);  // threshold all[i].first: the counts strictly below it
    const double t = all[i].first;
    for (; i < all.size() && all[i].first == t; ++i)
      (all[i].second ? below.false_negatives : below.true_negatives) += 1;
  }
  points.push_back(below);  // threshold +inf
  std::vector<RocPoint> hull;
  for (const RocPoint& c : points) {
    while (hull.size() >= 2) {
      const RocPoint& a = hull[hull.size() - 2];
      const RocPoint& b = hull.back();
      // b on or below the chord a-c: dominated.
      const std::int64_t cross =
          (b.false_negatives - a.false_negatives) * (c.true_negatives - a.true_negatives) -
          (b.true_negatives - a.true_negatives) * (c.false_negatives - a.false_negatives);
      if (cross < 0) break;
      hull.pop_back();
    }
    hull.push_back(c);
  }
  return hull;
}

struct ProtocolBounds {
  double steinke = 0;
  double fdp = 0;
  int thresholds = 0;  // K, the Bonferroni divisor
};

ProtocolBounds jax_protocol(double mu) {
  const int n = 10000;
  const auto in = deterministic_normal(mu, n);
  const auto out = deterministic_normal(0, n);
  const auto hull = roc_hull(in, out);
  ProtocolBounds b;
  b.thresholds = static_cast<int>(hull.size());
  const double delta = 1e-6;
  const double tau = 0.05 / b.thresholds;
  const double confidence = 1 - tau;
  for (const RocPoint& p : hull) {
    const std::int64_t tp = n - p.false_negatives, fp = n - p.true_negatives;
    if (tp + fp == 0) continue;
    const GuessCounts counts{2 * n, tp + fp, tp};
    b.steinke = std::max(b.steinke, audit::one_run_epsilon_lower_bound(counts, delta, confidence));
    // The rejected set is an interval [0, eps*): a threshold that does not reject the best eps
    // so far cannot raise it (one margin instead of a whole bisection).
    if (audit::fdp_rejection_margin(counts, audit::gaussian_trade_off_mu(b.fdp, delta), tau) > 0)
      b.fdp = std::max(b.fdp, audit::fdp_epsilon_lower_bound(counts, delta, confidence));
  }
  return b;
}

}  // namespace

class TestFdpOneRunBound : public QObject {
  Q_OBJECT

 private slots:
  void jax_privacy_vectors_data() {
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("steinke");
    QTest::addColumn<double>("fdp");
    QTest::newRow("mu 1") << 1.0 << 1.13346 << 2.164749;
    QTest::newRow("mu 2") << 2.0 << 2.311945 << 4.7218075;
    QTest::newRow("mu 4") << 4.0 << 4.395568 << 9.133752;
  }
  void jax_privacy_vectors() {
    QFETCH(double, mu);
    QFETCH(double, steinke);
    QFETCH(double, fdp);
    const ProtocolBounds b = jax_protocol(mu);
    qInfo("mu %g: %d hull thresholds, Steinke %.7f, f-DP %.7f", mu, b.thresholds, b.steinke, b.fdp);
    DPLAB_COMPARE_REL(b.steinke, steinke, 1e-5);
    DPLAB_COMPARE_REL(b.fdp, fdp, 1e-5);
  }

  // Identical scores (mu = 0): nothing is rejected.
  void jax_privacy_vector_zero() {
    const ProtocolBounds b = jax_protocol(0.0);
    QCOMPARE(b.steinke, 0.0);
    QCOMPARE(b.fdp, 0.0);
  }

  void margin_matches_the_plain_recursion_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("r");
    QTest::addColumn<int>("v");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("tau");
    QTest::newRow("1000/100/94 mu 1") << 1000 << 100 << 94 << 1.0 << 0.05 / 8;
    QTest::newRow("1000/100/94 mu 2.5") << 1000 << 100 << 94 << 2.5 << 0.05 / 8;
    QTest::newRow("1000/500/500 mu 3") << 1000 << 500 << 500 << 3.0 << 0.05 / 8;
    QTest::newRow("1000/200/120 mu 0.5") << 1000 << 200 << 120 << 0.5 << 0.05;
    QTest::newRow("50/50/50 mu 0.1") << 50 << 50 << 50 << 0.1 << 0.05;
    QTest::newRow("20000/300/290 mu 4") << 20000 << 300 << 290 << 4.0 << 0.01;
  }
  void margin_matches_the_plain_recursion() {
    QFETCH(int, m);
    QFETCH(int, r);
    QFETCH(int, v);
    QFETCH(double, mu);
    QFETCH(double, tau);
    DPLAB_COMPARE_ABS(audit::fdp_rejection_margin({m, r, v}, mu, tau),
                      plain_margin(m, r, v, mu, tau), 1e-12);
  }

  void bound_matches_the_plain_implementation_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("r");
    QTest::addColumn<int>("v");
    QTest::addColumn<double>("delta");
    QTest::addColumn<double>("confidence");
    QTest::newRow("1000/100/94") << 1000 << 100 << 94 << 1e-5 << 1 - 0.05 / 8;
    QTest::newRow("1000/500/500") << 1000 << 500 << 500 << 1e-5 << 1 - 0.05 / 8;
    QTest::newRow("1000/10/10") << 1000 << 10 << 10 << 1e-5 << 0.95;
    QTest::newRow("1000/200/150") << 1000 << 200 << 150 << 1e-6 << 0.95;
    QTest::newRow("1000/100/82") << 1000 << 100 << 82 << 1e-5 << 1 - 0.05 / 8;
    QTest::newRow("20000/300/290") << 20000 << 300 << 290 << 1e-6 << 0.99;
  }
  void bound_matches_the_plain_implementation() {
    QFETCH(int, m);
    QFETCH(int, r);
    QFETCH(int, v);
    QFETCH(double, delta);
    QFETCH(double, confidence);
    const double engine = audit::fdp_epsilon_lower_bound({m, r, v}, delta, confidence);
    const double plain = plain_bound(m, r, v, delta, 1 - confidence);
    QVERIFY2(engine > 0, qPrintable(QString::number(engine)));
    // The engine bisects to 1e-7 and rounds down; the plain one to 6e-17 of 64.
    DPLAB_COMPARE_ABS(engine, plain, 2e-7);
  }

  // The bound is the edge of an interval: rejected below it, not 1e-5 above it, and a scan of
  // eps finds one sign change only.
  void rejected_set_is_an_interval() {
    const double delta = 1e-5, tau = 0.05 / 8;
    for (const GuessCounts c : {GuessCounts{1000, 100, 94}, GuessCounts{1000, 500, 500},
                                GuessCounts{1000, 200, 178}, GuessCounts{1000, 50, 40}}) {
      const double bound = audit::fdp_epsilon_lower_bound(c, delta, 1 - tau);
      QVERIFY(bound > 0);
      auto margin = [&](double eps) {
        return audit::fdp_rejection_margin(c, audit::gaussian_trade_off_mu(eps, delta), tau);
      };
      QVERIFY(margin(bound) > 0);
      QVERIFY(margin(bound + 1e-5) <= 0);
      int changes = 0;
      bool previous = margin(0) > 0;
      for (double eps = 0.01; eps < 2 * bound + 1; eps += 0.01) {
        const bool now = margin(eps) > 0;
        changes += now != previous ? 1 : 0;
        previous = now;
      }
      QCOMPARE(changes, 1);
    }
  }

  void monotone_and_below_its_ceiling() {
    double previous = -1;
    for (int v = 50; v <= 100; v += 5) {
      const double bound = audit::fdp_epsilon_lower_bound({1000, 100, v}, 1e-5, 0.95);
      QVERIFY2(bound >= previous, qPrintable(QString("v = %1").arg(v)));
      previous = bound;
    }
    QCOMPARE(audit::fdp_ceiling(1000, 100, 1e-5, 0.95), previous);
    // Half right: no evidence.
    QCOMPARE(audit::fdp_epsilon_lower_bound({1000, 100, 50}, 1e-5, 0.95), 0.0);
    QCOMPARE(audit::fdp_epsilon_lower_bound({1000, 0, 0}, 1e-5, 0.95), 0.0);
  }

  // The Gaussian curve named by (eps, delta) is (eps, delta)-DP: Balle & Wang's delta at noise
  // 1/mu is delta again (mu rounded up: a hair below).
  void trade_off_mu_meets_eps_delta() {
    for (double eps : {0.0, 0.5, 2.0, 8.0}) {
      for (double delta : {1e-5, 1e-6}) {
        const double mu = audit::gaussian_trade_off_mu(eps, delta);
        DPLAB_COMPARE_REL(mu, plain_mu(eps, delta), 1e-8);
        const double at = privacy::analytic_gaussian_delta(1 / mu, eps);
        QVERIFY2(
            at >= delta && at <= delta * (1 + 1e-6),
            qPrintable(QString("eps %1 delta %2: %3").arg(eps).arg(delta).arg(at, 0, 'g', 17)));
      }
    }
  }

  void normal_quantile_inverts_the_cdf() {
    DPLAB_COMPARE_REL(privacy::normal_quantile(0.975), 1.9599639845400536, 1e-14);
    DPLAB_COMPARE_REL(privacy::normal_quantile(1e-10), -6.361340902404056, 1e-13);
    DPLAB_COMPARE_REL(privacy::normal_quantile(1e-300), -37.0470962993612, 1e-13);
    QCOMPARE(privacy::normal_quantile(0.5), 0.0);
    QVERIFY(std::isinf(privacy::normal_quantile(0.0)) && privacy::normal_quantile(0.0) < 0);
    QVERIFY(std::isinf(privacy::normal_quantile(1.0)) && privacy::normal_quantile(1.0) > 0);
    for (double p = 1e-6; p < 1; p += 0.0137) {
      DPLAB_COMPARE_ABS(privacy::normal_quantile(p), plain_quantile(p), 1e-13);
      // 1 - p is rounded to 1e-16 absolute: at p = 1e-6 that moves the quantile by ~7e-12.
      DPLAB_COMPARE_ABS(privacy::normal_quantile(p), -privacy::normal_quantile(1 - p), 1e-10);
    }
  }

  // best_bound_over_guess_sets carries the f-DP bound over the same sets at beta / K; none at
  // delta = 0.
  void guess_sets_carry_the_fdp_bound() {
    std::vector<double> scores;
    std::vector<bool> included;
    for (int i = 0; i < 1000; ++i) {
      included.push_back(i % 2 == 0);
      // Mostly ordered by inclusion, with every 9th canary on the wrong side.
      const bool flip = i % 9 == 0;
      scores.push_back((included.back() != flip ? 5.0 : -5.0) + 1e-3 * i);
    }
    const auto sets = audit::default_guess_sets(1000);
    const auto best = audit::best_bound_over_guess_sets(scores, included, sets, 1e-5, 0.95);
    QVERIFY(best.fdp.has_value());
    const double split = audit::bonferroni_confidence(0.95, static_cast<int>(sets.size()));
    DPLAB_COMPARE_ABS(best.fdp->epsilon_lower_bound,
                      audit::fdp_epsilon_lower_bound(best.fdp->counts, 1e-5, split), 1e-12);
    double top = 0, best_of_sets = 0;
    for (const auto& s : sets) {
      top = std::max(top, audit::fdp_ceiling(1000, s.top_in + s.bottom_out, 1e-5, split));
    }
    DPLAB_COMPARE_ABS(best.fdp->ceiling, top, 1e-12);
    QVERIFY(best.fdp->epsilon_lower_bound <= best.fdp->ceiling);
    // No other set does better.
    std::vector<std::size_t> order(1000);
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    for (const auto& s : sets) {
      std::int64_t v = 0;
      for (std::int64_t i = 0; i < s.top_in; ++i) v += included[order[i]] ? 1 : 0;
      for (std::int64_t i = 0; i < s.bottom_out; ++i) v += included[order[999 - i]] ? 0 : 1;
      best_of_sets = std::max(best_of_sets, audit::fdp_epsilon_lower_bound(
                                                {1000, s.top_in + s.bottom_out, v}, 1e-5, split));
    }
    DPLAB_COMPARE_ABS(best.fdp->epsilon_lower_bound, best_of_sets, 1e-12);
    QVERIFY(!audit::best_bound_over_guess_sets(scores, included, sets, 0.0, 0.95).fdp);
    // bound_of_counts carries it too.
    const auto counted = audit::bound_of_counts(best.fdp->counts, 1e-5, 0.95, 8);
    QVERIFY(counted.fdp.has_value());
    DPLAB_COMPARE_ABS(counted.fdp->epsilon_lower_bound, best.fdp->epsilon_lower_bound, 1e-12);
  }

  void invalid_inputs_name_the_field() {
    using testing::error_of;
    QVERIFY(error_of<InvalidArgument>([] {
              audit::fdp_epsilon_lower_bound({10, 11, 5}, 1e-5, 0.95);
            }).contains("guesses"));
    QVERIFY(error_of<InvalidArgument>([] {
              audit::fdp_epsilon_lower_bound({10, 5, 5}, 0.0, 0.95);
            }).contains("delta"));
    QVERIFY(error_of<InvalidArgument>([] {
              audit::fdp_rejection_margin({10, 5, 5}, 1.0, 1.5);
            }).contains("significance"));
    QVERIFY(error_of<InvalidArgument>([] { privacy::normal_quantile(1.5); }).contains("p"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestFdpOneRunBound)
#include "test_fdp_one_run_bound.moc"
