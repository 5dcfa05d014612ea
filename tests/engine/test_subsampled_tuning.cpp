// Tests of engine/privacy/accounting/poisson_subsampled_rdp.h (Zhu & Wang 2019 Thm 6 for any RDP
// curve), engine/privacy/selection/subsampled_tuning.h (Koskela & Kulkarni 2023: tuning on a
// Poisson subsample, then a final run) and engine/experiment/hyperparameter_transfer.h:
// - the bound applied to the Gaussian's RDP eps(l) = l/(2 sigma^2): the c = 1 form equals the
//   engine's Mironov-Talwar-Zhang subsampled Gaussian to 1e-9 relative at every integer order,
//   the general (c = 3) form equals it at alpha = 2 and is strictly larger from alpha = 3 on;
// - hand computations at alpha = 2, 3 from the formula written out;
// - the two-phase curve and epsilon against a composition computed here independently (direct
//   long-double sums, the conversion written out again), for both variants;
// - q = 1 is Papernot-Steinke on the full data exactly; monotone in q; input errors.
#include <QTest>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/error.h"
#include "experiment/experiment_config.h"
#include "experiment/hyperparameter_transfer.h"
#include "experiment/release_config.h"
#include "privacy/accounting/poisson_subsampled_rdp.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/accounting/rdp_conversion.h"
#include "privacy/accounting/rdp_subsampled_gaussian.h"
#include "privacy/selection/papernot_steinke.h"
#include "privacy/selection/private_selection.h"
#include "privacy/selection/subsampled_tuning.h"
#include "privacy/selection/tuning_cost_series.h"
#include "support/expect_error.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"
#include "tuning/private_search.h"
#include "tuning/subsampled_search.h"

using namespace dplab::privacy;

namespace {

// Gaussian mechanism, sensitivity 1, noise sigma: eps(l) = l / (2 sigma^2) at l = 2..max.
std::vector<double> gaussian_curve(double sigma, int max_order) {
  std::vector<double> curve;
  for (int l = 2; l <= max_order; ++l) curve.push_back(l / (2.0 * sigma * sigma));
  return curve;
}

long double binom(int n, int k) {
  long double b = 1.0L;
  for (int i = 1; i <= k; ++i) b = b * (n - k + i) / i;
  return b;
}

// Zhu & Wang Thm 6 written out as a direct sum of A (not A - 1), in long double.
double naive_subsampled(const std::vector<double>& base, double q, int alpha, double c) {
  const long double qq = q, p = 1.0L - qq;
  long double a = std::pow(p, alpha - 1) * (alpha * qq - qq + 1.0L);
  for (int l = 2; l <= alpha; ++l) {
    const long double weight = l >= 3 ? c : 1.0L;
    a += weight * binom(alpha, l) * std::pow(qq, l) * std::pow(p, alpha - l) *
         std::exp(static_cast<long double>(l - 1) * base[static_cast<std::size_t>(l - 2)]);
  }
  return static_cast<double>(std::log(a) / (alpha - 1));
}

// The improved conversion at one order (rdp_conversion.h), minimised over the integer orders.
double naive_epsilon(const std::vector<double>& total, double delta) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < total.size(); ++i) {
    const double a = static_cast<double>(i + 2);
    best = std::min(
        best, total[i] + std::log((a - 1.0) / a) - (std::log(delta) + std::log(a)) / (a - 1.0));
  }
  return std::max(best, 0.0);
}

std::vector<double> steps_curve(const SubsampledGaussian& run) {
  const auto curve = rdp_curve(run.noise_multiplier, run.sampling_rate);
  std::vector<double> rdp(curve->rdp_per_step);
  for (double& r : rdp) r *= static_cast<double>(run.steps);
  return rdp;
}

}  // namespace

class TestSubsampledTuning : public QObject {
  Q_OBJECT

 private slots:
  void gaussian_coincides_data() {
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("q");
    for (double sigma : {0.8, 1.0, 2.0, 5.0}) {
      for (double q : {1e-4, 0.01, 0.1, 0.5, 0.9}) {
        QTest::addRow("sigma=%g q=%g", sigma, q) << sigma << q;
      }
    }
  }
  void gaussian_coincides() {
    QFETCH(double, sigma);
    QFETCH(double, q);
    const int max_order = 200;
    const auto base = gaussian_curve(sigma, max_order);
    const auto exact = poisson_subsampled_rdp(base, q, SubsamplingBound::kGaussianExact);
    const auto general = poisson_subsampled_rdp(base, q, SubsamplingBound::kGeneral);
    QCOMPARE(exact.size(), base.size());
    for (int alpha = 2; alpha <= max_order; ++alpha) {
      const std::size_t i = static_cast<std::size_t>(alpha - 2);
      const double engine = rdp_subsampled_gaussian(sigma, q, alpha);
      // Where the theory says they coincide: the c = 1 form at every order, c = 3 at alpha = 2.
      DPLAB_COMPARE_REL(exact[i], engine, 1e-9);
      if (alpha == 2) {
        DPLAB_COMPARE_REL(general[i], engine, 1e-9);
      } else {
        // Strictly looser elsewhere (the factor 3 on l >= 3 terms that are > 0).
        QVERIFY2(general[i] > engine, qPrintable(QString("alpha %1: %2 <= %3")
                                                     .arg(alpha)
                                                     .arg(general[i], 0, 'g', 17)
                                                     .arg(engine, 0, 'g', 17)));
      }
    }
  }

  void hand_computation_small_orders() {
    // Made-up base curve: eps(2) = 0.3, eps(3) = 0.5, eps(4) = 0.6; q = 0.2.
    const std::vector<double> base{0.3, 0.5, 0.6};
    const double q = 0.2;
    const auto general = poisson_subsampled_rdp(base, q, SubsamplingBound::kGeneral);
    const auto exact = poisson_subsampled_rdp(base, q, SubsamplingBound::kGaussianExact);
    // alpha = 2: log((1-q)(1+q) + q^2 e^{eps(2)}) = log(1 + q^2 (e^{0.3} - 1)), both forms.
    const double a2 = std::log(1.0 + 0.04 * (std::exp(0.3) - 1.0));
    DPLAB_COMPARE_REL(general[0], a2, 1e-12);
    DPLAB_COMPARE_REL(exact[0], a2, 1e-12);
    // alpha = 3: [(1-q)^2 (1+2q) + 3 q^2 (1-q) e^{0.3} + c q^3 e^{2 * 0.5}] / 2.
    const double p = 0.8;
    const double head = p * p * 1.4 + 3.0 * 0.04 * p * std::exp(0.3);
    DPLAB_COMPARE_REL(general[1], std::log(head + 3.0 * 0.008 * std::exp(1.0)) / 2.0, 1e-12);
    DPLAB_COMPARE_REL(exact[1], std::log(head + 0.008 * std::exp(1.0)) / 2.0, 1e-12);
    // alpha = 4 against the direct long-double sum.
    DPLAB_COMPARE_REL(general[2], naive_subsampled(base, q, 4, 3.0), 1e-12);
    DPLAB_COMPARE_REL(exact[2], naive_subsampled(base, q, 4, 1.0), 1e-12);
  }

  void never_above_the_base_curve() {
    // A steep made-up curve at q = 0.95, where Zhu-Wang's factor 3 exceeds eps(alpha) itself.
    std::vector<double> base;
    for (int l = 2; l <= 60; ++l) base.push_back(0.05 * l);
    const auto out = poisson_subsampled_rdp(base, 0.95);
    bool capped = false;
    for (std::size_t i = 0; i < base.size(); ++i) {
      QVERIFY(out[i] <= base[i]);
      const double raw = naive_subsampled(base, 0.95, static_cast<int>(i + 2), 3.0);
      if (raw > base[i]) {
        capped = true;
        QCOMPARE(out[i], base[i]);
      } else {
        DPLAB_COMPARE_REL(out[i], raw, 1e-9);
      }
    }
    QVERIFY2(capped, "the cap never applied: choose a steeper curve");
  }

  void special_rates() {
    const auto base = gaussian_curve(1.0, 20);
    const auto zero = poisson_subsampled_rdp(base, 0.0);
    for (double v : zero) QCOMPARE(v, 0.0);
    // q = 1 keeps the curve (no subsampling, no log(3)/(alpha-1) paid).
    QCOMPARE(poisson_subsampled_rdp(base, 1.0), base);
    // An infinite eps(l) makes every order >= l infinite.
    std::vector<double> with_inf(base);
    with_inf[5] = std::numeric_limits<double>::infinity();
    const auto out = poisson_subsampled_rdp(with_inf, 0.1);
    QVERIFY(std::isfinite(out[4]));
    QVERIFY(std::isinf(out[5]) && std::isinf(out.back()));
  }

  void input_errors() {
    using dplab::InvalidArgument;
    using dplab::testing::error_of;
    QVERIFY(error_of<InvalidArgument>([] { poisson_subsampled_rdp({}, 0.1); }).contains("empty"));
    QVERIFY(error_of<InvalidArgument>([] {
              poisson_subsampled_rdp({0.1, -0.2}, 0.1);
            }).contains("order 3"));
    QVERIFY(error_of<InvalidArgument>([] {
              poisson_subsampled_rdp({0.1}, 1.5);
            }).contains("sampling_rate"));
    QVERIFY(error_of<InvalidArgument>([] {
              rdp_at_integer_orders({2.0, 2.5, 4.0}, {0.1, 0.2, 0.3}, 4);
            }).contains("integer order 3"));
    SubsampledTuningSetting setting;
    setting.tuning_fraction = 0.0;
    const SubsampledGaussian run{1.0, 0.01, 100};
    QVERIFY(error_of<InvalidArgument>([&] {
              subsampled_tuning_cost(run, run, setting, 1e-5);
            }).contains("tuning_fraction"));
  }

  void two_phase_equals_independent_composition_data() {
    QTest::addColumn<bool>("poisson");
    QTest::addColumn<bool>("complement");
    QTest::addColumn<double>("q");
    for (bool poisson : {true, false}) {
      for (bool complement : {false, true}) {
        for (double q : {0.05, 0.3, 0.8}) {
          QTest::addRow("%s %s q=%g", poisson ? "poisson" : "tnb",
                        complement ? "variant2" : "variant1", q)
              << poisson << complement << q;
        }
      }
    }
  }
  void two_phase_equals_independent_composition() {
    QFETCH(bool, poisson);
    QFETCH(bool, complement);
    QFETCH(double, q);
    // sigma = 3: curves small enough (eps(40) ~ 1) for the direct sums below not to overflow.
    const SubsampledGaussian candidate{3.0, 0.02, 300};  // on X1
    const SubsampledGaussian final_run{3.0, 0.01, 600};  // on X (or X2)
    SubsampledTuningSetting setting;
    setting.tuning_fraction = q;
    setting.law = poisson ? CandidateCountLaw{true, 8.0, 1.0, 0.1}
                          : CandidateCountLaw{false, 10.0, 0.5, 0.15};
    setting.final_data = complement ? FinalRunData::kComplement : FinalRunData::kFullData;
    setting.max_order = 40;  // small enough for the direct (not log-space) sums below
    const double delta = 1e-5;
    const std::vector<double> orders = rdp_orders();
    const auto cand = steps_curve(candidate);
    const auto fin = steps_curve(final_run);
    const auto curves = subsampled_tuning_rdp(orders, cand, fin, setting);

    // Independent: PS curve (the building block, tested in test_papernot_steinke) read at the
    // integer orders, then subsampling and composition written out here.
    const auto ps =
        poisson ? papernot_steinke_poisson_rdp(orders, cand, setting.law.mu)
                : papernot_steinke_tnb_rdp(orders, cand, setting.law.eta, setting.law.gamma);
    std::vector<double> a, b;
    for (std::size_t i = 0; i < orders.size(); ++i) {
      if (orders[i] == std::floor(orders[i]) && orders[i] <= 40.0) {
        a.push_back(ps[i]);
        b.push_back(fin[i]);
      }
    }
    QCOMPARE(a.size(), std::size_t{39});
    std::vector<double> total;
    for (int lambda = 2; lambda <= 40; ++lambda) {
      const std::size_t i = static_cast<std::size_t>(lambda - 2);
      if (!complement) {
        // Capped by the search's own curve (subsampling never hurts, joint quasi-convexity).
        total.push_back(std::min(naive_subsampled(a, q, lambda, 3.0), a[i]) + b[i]);
      } else {
        auto m = [](const std::vector<double>& c, int j) -> long double {
          return j < 2 ? 1.0L
                       : std::exp(static_cast<long double>(j - 1) *
                                  c[static_cast<std::size_t>(j - 2)]);
        };
        long double add = 0.0L;
        for (int k = 0; k <= lambda; ++k) {
          add += binom(lambda, k) * std::pow(static_cast<long double>(q), k) *
                 std::pow(1.0L - q, lambda - k) * m(a, k) * m(b, lambda - k);
        }
        const long double remove = q * m(a, lambda) + (1.0L - q) * m(b, lambda);
        const double direct = static_cast<double>(std::log(std::max(add, remove)) / (lambda - 1));
        // ... or variant 1's bound, which also holds (chain rule), whichever is smaller.
        total.push_back(
            std::min(direct, std::min(naive_subsampled(a, q, lambda, 3.0), a[i]) + b[i]));
      }
      QVERIFY2(std::isfinite(total[i]), "the direct sum overflowed: choose a larger sigma");
      DPLAB_COMPARE_REL(curves.total_rdp[i], total[i], 1e-9);
    }
    const SubsampledTuningCost cost = subsampled_tuning_cost(orders, cand, fin, setting, delta);
    DPLAB_COMPARE_REL(cost.epsilon, naive_epsilon(total, delta), 1e-9);
    // Both phases are charged: more than the final run alone.
    QVERIFY(cost.epsilon > cost.epsilon_final_run);
  }

  void complement_hand_computation() {
    // Variant 2 at lambda = 2 from the formula: add = (1-q)^2 e^{eB(2)} + 2q(1-q) + q^2 e^{eA(2)},
    // remove = q e^{eA(2)} + (1-q) e^{eB(2)}.
    const SubsampledGaussian candidate{1.0, 0.05, 200};
    const SubsampledGaussian final_run{1.0, 0.05, 200};
    SubsampledTuningSetting setting;
    setting.tuning_fraction = 0.25;
    setting.final_data = FinalRunData::kComplement;
    setting.max_order = 8;
    const auto curves = subsampled_tuning_rdp(rdp_orders(), steps_curve(candidate),
                                              steps_curve(final_run), setting);
    const double q = 0.25, ea = curves.search_rdp[0], eb = curves.final_rdp[0];
    const double add = 0.5625 * std::exp(eb) + 2 * q * (1 - q) + q * q * std::exp(ea);
    const double remove = q * std::exp(ea) + (1 - q) * std::exp(eb);
    const double composed = std::log(1.0 + q * q * std::expm1(ea)) + eb;  // variant 1, alpha 2
    DPLAB_COMPARE_REL(curves.total_rdp[0], std::min(std::log(std::max(add, remove)), composed),
                      1e-12);
  }

  void full_fraction_is_papernot_steinke() {
    // q = 1: the tuning phase is Papernot-Steinke on the full data, exactly.
    const SubsampledGaussian run{1.0, 0.01, 1000};
    const std::vector<double> orders = rdp_orders();
    const auto cand = steps_curve(run);
    for (bool poisson : {true, false}) {
      SubsampledTuningSetting setting;
      setting.tuning_fraction = 1.0;
      setting.law = poisson ? CandidateCountLaw{true, 10.0, 1.0, 0.1}
                            : CandidateCountLaw{false, 10.0, 1.0, 0.1};
      const auto curves = subsampled_tuning_rdp(orders, cand, cand, setting);
      const auto ps = poisson ? papernot_steinke_poisson_rdp(orders, cand, 10.0)
                              : papernot_steinke_tnb_rdp(orders, cand, 1.0, 0.1);
      const auto ps_int = rdp_at_integer_orders(orders, ps, setting.max_order);
      QCOMPARE(curves.tuning_rdp, ps_int);  // same values, same code path
      // The whole procedure = PS on the full data composed with the final run.
      std::vector<double> composed(ps_int);
      const auto fin = rdp_at_integer_orders(orders, cand, setting.max_order);
      for (std::size_t i = 0; i < composed.size(); ++i) composed[i] += fin[i];
      const double expected = epsilon_from_rdp(curves.orders, composed, 1e-5).epsilon;
      QCOMPARE(subsampled_tuning_cost(run, run, setting, 1e-5).epsilon, expected);
      // And the tuning phase alone is PS on the same integer orders.
      QCOMPARE(subsampled_tuning_cost(run, run, setting, 1e-5).epsilon_tuning_phase,
               epsilon_from_rdp(curves.orders, ps_int, 1e-5).epsilon);
    }
  }

  void epsilon_grows_with_fraction() {
    const SubsampledGaussian run{1.0, 0.01, 1000};
    for (auto data : {FinalRunData::kFullData, FinalRunData::kComplement}) {
      double previous = 0.0;
      for (double q : {0.05, 0.1, 0.2, 0.4, 0.7, 1.0}) {
        SubsampledTuningSetting setting;
        setting.tuning_fraction = q;
        setting.final_data = data;
        const double eps = subsampled_tuning_cost(run, run, setting, 1e-5).epsilon;
        QVERIFY2(eps >= previous,
                 qPrintable(QString("q=%1: %2 < %3").arg(q).arg(eps).arg(previous)));
        previous = eps;
      }
    }
  }

  void epsilon_versus_fraction_series() {
    const SubsampledGaussian run{1.0, 0.004, 2500};
    const CandidateCountLaw law{true, 10.0, 1.0, 0.1};
    const double delta = 1e-5;
    const auto points =
        epsilon_vs_tuning_fraction(run, law, SubsetBatching::kSameSamplingRate, delta);
    QCOMPARE(points.size(), std::size_t{20});
    DPLAB_COMPARE_REL(points.front().tuning_fraction, 0.05, 1e-15);
    QCOMPARE(points.back().tuning_fraction, 1.0);
    const double ps = papernot_steinke_poisson(run, 10.0, delta).epsilon;
    const auto curve = rdp_curve(run.noise_multiplier, run.sampling_rate);
    std::vector<double> one(curve->rdp_per_step);
    for (double& r : one) r *= static_cast<double>(run.steps);
    const double lt = liu_talwar_selection_enforced(curve->orders, one, 0.1, delta).epsilon;
    double previous = 0.0;
    for (const auto& p : points) {
      // Each KK23 point is the engine's two-phase cost at that q (same code path).
      SubsampledTuningSetting setting;
      setting.tuning_fraction = p.tuning_fraction;
      setting.law = law;
      QCOMPARE(p.epsilon_kk23, subsampled_tuning_cost(run, run, setting, delta).epsilon);
      // Monotone in q (the cap by the search's own curve keeps it so near q = 1).
      QVERIFY2(p.epsilon_kk23 >= previous, qPrintable(QString::number(p.tuning_fraction)));
      previous = p.epsilon_kk23;
      QCOMPARE(p.epsilon_ps_full, ps);
      QCOMPARE(p.epsilon_lt_full, lt);
      // Compute in full-data runs: E[K] q + 1 (same sampling rate), PS: E[K].
      DPLAB_COMPARE_REL(p.compute_kk23, 10.0 * p.tuning_fraction + 1.0, 1e-12);
      DPLAB_COMPARE_REL(p.compute_kk23_complement,
                        10.0 * p.tuning_fraction + 1.0 - p.tuning_fraction, 1e-12);
      QCOMPARE(p.compute_ps_full, 10.0);
      DPLAB_COMPARE_REL(p.candidate_steps_kk23, 11.0 * 2500, 1e-15);
    }
    // The point of the method: a small q costs less than PS on the full data, for less compute.
    QVERIFY(points.front().epsilon_kk23 < points.front().epsilon_ps_full);
    QVERIFY(points.front().compute_kk23 < points.front().compute_ps_full);
  }

  void subset_sampling_rates() {
    DPLAB_COMPARE_REL(subset_sampling_rate(0.01, 0.1, SubsetBatching::kSameSamplingRate), 0.01,
                      1e-15);
    DPLAB_COMPARE_REL(subset_sampling_rate(0.01, 0.1, SubsetBatching::kSameLotSize), 0.1, 1e-15);
    QCOMPARE(subset_sampling_rate(0.2, 0.1, SubsetBatching::kSameLotSize), 1.0);
  }

  void release_config_round_trip() {
    using namespace dplab::experiment;
    const auto j = nlohmann::json::parse(R"({"mode": "private-subsampled", "tuning_fraction": 0.2,
        "ps_distribution": "tnb", "ps_eta": 0.5, "ps_gamma": 0.2, "final_data": "complement",
        "subset_batching": "same_lot_size", "lr_transfer": "factor", "lr_transfer_factor": 2.5})");
    const ReleaseConfig r = parse_release(j);
    QVERIFY(r.subsampled);
    QCOMPARE(r.mode, ReleaseMode::kPrivate);
    QCOMPARE(r.selection, PrivateSelection::kPs);
    QCOMPARE(r.tuning_fraction, 0.2);
    QCOMPARE(r.final_data, FinalRunData::kComplement);
    QCOMPARE(r.subset_batching, SubsetBatching::kSameLotSize);
    QCOMPARE(r.lr_transfer.rule, LearningRateTransfer::kFactor);
    QCOMPARE(r.lr_transfer.factor, 2.5);
    QCOMPARE(parse_release(release_to_json(r)), r);  // round trip
    QVERIFY(QString::fromStdString(describe_release(r)).startsWith("private-subsampled (q=0.2"));
    using dplab::ParseError;
    using dplab::testing::error_of;
    QVERIFY(error_of<ParseError>([] {
              parse_release(
                  nlohmann::json::parse(R"({"mode": "private", "tuning_fraction": 0.5})"));
            }).contains("private-subsampled"));
    QVERIFY(error_of<ParseError>([] {
              parse_release(
                  nlohmann::json::parse(R"({"mode": "private-subsampled", "tuning_fraction": 0})"));
            }).contains("release.tuning_fraction"));
    QVERIFY(error_of<ParseError>([] {
              parse_release(
                  nlohmann::json::parse(R"({"mode": "private-subsampled", "selection": "lt"})"));
            }).contains("ps only"));
    QVERIFY(error_of<ParseError>([] {
              parse_release(nlohmann::json::parse(
                  R"({"mode": "private-subsampled", "validation": "private",
                      "validation_noise_multiplier": 1})"));
            }).contains("release.validation"));
  }

  void subsampled_configs_only_run_in_two_phases() {
    using namespace dplab::experiment;
    const ExperimentConfig config = parse_experiment_text(R"({"name": "t",
        "dataset": {"source": "synthetic-binary", "num_samples": 1000, "dim": 4},
        "model": {"kind": "logistic"}, "privacy": {"noise_multiplier": 1, "lot_size": 50,
        "steps": 10}, "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5],
        "clip": [1]}}], "seed": 3, "release": {"mode": "private-subsampled",
        "tuning_fraction": 0.25, "ps_mu": 2, "subset_batching": "same_lot_size"}})");
    // A plain private plan would be charged the two-phase epsilon: refused.
    QVERIFY(dplab::testing::error_of<dplab::InvalidArgument>([&] {
              dplab::tuning::draw_private_plan(config, 2, 1);
            }).contains("two phases"));
    // The tuning phase: a plain ps search, its lots drawn at exactly the charged gamma_sub =
    // min(1, (L/n)/q) (same_lot_size) and divided by the expected lot on the EXPECTED subset,
    // gamma_sub q n: public numbers only, nothing from the realised |X1| (issue #42 finding 6).
    const ExperimentConfig tuning = dplab::tuning::tuning_phase_config(config, 800);
    QVERIFY(!tuning.release.subsampled);
    QCOMPARE(tuning.release.selection, PrivateSelection::kPs);
    const double charged = subset_sampling_rate(50.0 / 800.0, 0.25, SubsetBatching::kSameLotSize);
    QVERIFY(tuning.privacy.sampling_rate.has_value());
    QCOMPARE(*tuning.privacy.sampling_rate, charged);
    QCOMPARE(tuning.privacy.lot_size, charged * 0.25 * 800);
    QVERIFY(tuning.privacy.delta.has_value());
    // The final run: one candidate, the winner's learning rate x 1/q, its own seed stream.
    const auto pool = expand_candidates(tuning);
    const ExperimentConfig final_config = dplab::tuning::final_run_config(config, pool[1], 800);
    const auto finals = expand_candidates(final_config);
    QCOMPARE(finals.size(), std::size_t{1});
    DPLAB_COMPARE_REL(finals[0].optimizer.learning_rate, pool[1].optimizer.learning_rate * 4.0,
                      1e-15);
    QCOMPARE(finals[0].clip, pool[1].clip);
    QVERIFY(final_config.seed != config.seed);
    QCOMPARE(final_config.privacy.lot_size, 50.0);  // full data: the experiment's L, rate L/n
    QVERIFY(!final_config.privacy.sampling_rate.has_value());
    // The complement: rate L/n, divided by the expected lot on E|X2| = (1 - q) n.
    ExperimentConfig complement = config;
    complement.release.final_data = dplab::privacy::FinalRunData::kComplement;
    const ExperimentConfig on_x2 = dplab::tuning::final_run_config(complement, pool[1], 800);
    QCOMPARE(*on_x2.privacy.sampling_rate, 50.0 / 800.0);
    QCOMPARE(on_x2.privacy.lot_size, 50.0 / 800.0 * (0.75 * 800));
    // The Poisson draw of X1 is seeded: same seed, same rows.
    QCOMPARE(dplab::tuning::draw_tuning_subset(800, 0.25, 9),
             dplab::tuning::draw_tuning_subset(800, 0.25, 9));
  }

  void learning_rate_transfer() {
    using namespace dplab::experiment;
    DPLAB_COMPARE_REL(learning_rate_multiplier({}, 0.1), 10.0, 1e-15);
    QCOMPARE(learning_rate_multiplier({LearningRateTransfer::kKeep, 1.0}, 0.1), 1.0);
    QCOMPARE(learning_rate_multiplier({LearningRateTransfer::kFactor, 3.5}, 0.1), 3.5);
    QCOMPARE(parse_learning_rate_transfer("keep"), LearningRateTransfer::kKeep);
    QVERIFY(dplab::testing::error_of<dplab::InvalidArgument>([] {
              parse_learning_rate_transfer("sqrt");
            }).contains("sqrt"));
    QVERIFY(QString::fromStdString(describe_transfer({}, 0.25)).contains("heuristic"));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestSubsampledTuning)
#include "test_subsampled_tuning.moc"
