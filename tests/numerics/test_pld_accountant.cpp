// Tests of the PLD accountant (engine/privacy/accounting/pld/): the reference cases of
// tests/data/accounting.json against Google dp_accounting's PLD epsilon and dplab's RDP epsilon,
// the mu-GDP closed form of composed Gaussians, pessimism of the discretisation, calibration
// that never overshoots, heterogeneous composition against explicit convolution, validation.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "privacy/accounting/pld/pld_accountant.h"
#include "privacy/accounting/pld/pld_composition.h"
#include "privacy/accounting/pld/subsampled_gaussian_pld.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/mechanisms/gaussian_mechanism.h"
#include "privacy/selection/private_selection.h"
#include "support/accounting_reference.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab::privacy;
namespace pl = dplab::privacy::pld;

namespace {

const nlohmann::json& reference() {
  return dplab::test::accounting_reference();
}

double normal_cdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

// mu-GDP (Dong, Roth & Su 2019, Cor. 2.13): delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu -
// mu/2).
double gdp_delta(double mu, double epsilon) {
  return normal_cdf(-epsilon / mu + mu / 2) -
         std::exp(epsilon) * normal_cdf(-epsilon / mu - mu / 2);
}

// Explicit (time-domain) convolution of two PLDs on one grid.
pl::PrivacyLossPmf convolve(const pl::PrivacyLossPmf& a, const pl::PrivacyLossPmf& b) {
  pl::PrivacyLossPmf out;
  out.discretization = a.discretization;
  out.lower_index = a.lower_index + b.lower_index;
  out.probs.assign(a.probs.size() + b.probs.size() - 1, 0.0);
  for (std::size_t i = 0; i < a.probs.size(); ++i) {
    if (a.probs[i] == 0.0) continue;
    for (std::size_t j = 0; j < b.probs.size(); ++j) out.probs[i + j] += a.probs[i] * b.probs[j];
  }
  out.infinity_mass = 1 - (1 - a.infinity_mass) * (1 - b.infinity_mass);
  return out;
}

}  // namespace

class TestPldAccountant : public QObject {
  Q_OBJECT

 private slots:
  // --- reference values: within 1% of dp_accounting, never below it by more than the stated
  // error bound, and <= dplab's RDP epsilon -----------------------------------------------------
  void reference_cases_data() {
    QTest::addColumn<int>("index");
    const auto& cases = reference()["cases"];
    int added = 0;
    for (int i = 0; i < static_cast<int>(cases.size()); ++i) {
      if (cases[i].contains("pld_epsilon")) {
        QTest::newRow(cases[i]["id"].get<std::string>().c_str()) << i;
        ++added;
      }
    }
    if (added < 8) qFatal("expected >= 8 reference cases with pld_epsilon, found %d", added);
  }
  void reference_cases() {
    QFETCH(int, index);
    const auto& c = reference()["cases"][index];
    const double delta = c["delta"].get<double>();
    const double tight = c["pld_epsilon"].get<double>();
    SubsampledGaussian run{c["noise_multiplier"].get<double>(), c["sample_rate"].get<double>(),
                           c["steps"].get<std::int64_t>()};
    PldEpsilon pld;
    double rdp = 0.0;
    if (c["kind"] == "k_fold_ma") {
      SubsampledGaussian one = run;
      one.steps = c["steps_per_candidate"].get<std::int64_t>();
      const int k = c["candidates"].get<int>();
      pld = pld_selection_epsilon(one, k, delta);
      rdp = moments_accountant_selection(one, k, delta).epsilon;
    } else {
      pld = pld_epsilon_for_delta(run, delta);
      rdp = epsilon_for_delta(run, delta).epsilon;
    }
    DPLAB_COMPARE_REL(pld.epsilon, tight, 1e-2);
    if (!(pld.epsilon >= tight - pld.error_bound)) {
      QFAIL(qPrintable(
          QString("PLD epsilon %1 below dp_accounting %2 by more than its error bound %3")
              .arg(pld.epsilon, 0, 'g', 17)
              .arg(tight, 0, 'g', 17)
              .arg(pld.error_bound)));
    }
    QVERIFY2(pld.epsilon <= rdp, qPrintable(QString("PLD %1 > RDP %2").arg(pld.epsilon).arg(rdp)));
    // The stated error is within the default tolerance (1e-3 relative) or the grid is the finest.
    QVERIFY(pld.error_bound <= 1e-3 * pld.epsilon || pld.discretization <= 1e-5);
    QVERIFY(pld.discretization > 0 && pld.tail_mass > 0 && pld.infinity_mass >= pld.tail_mass);
  }

  // --- Gaussian composition without subsampling vs mu-GDP --------------------------------------
  void composed_gaussian_matches_gdp_closed_form() {
    for (const auto& [sigma, steps] :
         std::vector<std::pair<double, std::int64_t>>{{2.0, 16}, {5.0, 100}, {1.0, 1}}) {
      const double mu = std::sqrt(static_cast<double>(steps)) / sigma;
      for (double epsilon : {0.0, 0.25, 0.5, 1.0, 2.0, 4.0}) {
        const auto pld = pld_delta_for_epsilon(SubsampledGaussian{sigma, 1.0, steps}, epsilon);
        const double exact = gdp_delta(mu, epsilon);
        DPLAB_COMPARE_ABS(pld.delta, exact, 1e-4);
        QVERIFY2(pld.delta >= exact - 1e-12, "PLD delta below the exact mu-GDP delta");
      }
    }
  }

  // --- pessimism ----------------------------------------------------------------------------
  void pld_epsilon_is_never_below_the_exact_gaussian_epsilon() {
    for (const auto& [sigma, steps] :
         std::vector<std::pair<double, std::int64_t>>{{1.0, 1}, {3.0, 50}, {0.7, 4}, {0.3, 1000}}) {
      for (double delta : {1e-3, 1e-5, 1e-8}) {
        for (auto precision : {PldPrecision::kFast, PldPrecision::kDefault, PldPrecision::kTight}) {
          PldOptions options;
          options.precision = precision;
          const auto pld =
              pld_epsilon_for_delta(SubsampledGaussian{sigma, 1.0, steps}, delta, options);
          // T Gaussians of sigma compose to one Gaussian of sigma / sqrt(T) (exact, Balle & Wang).
          const double exact =
              analytic_gaussian_epsilon(sigma / std::sqrt(static_cast<double>(steps)), delta);
          QVERIFY2(pld.epsilon >= exact * (1 - 1e-9), qPrintable(QString("PLD %1 < exact %2")
                                                                     .arg(pld.epsilon, 0, 'g', 17)
                                                                     .arg(exact, 0, 'g', 17)));
          QVERIFY2(
              pld.epsilon <= exact * (1 + 3 * pld_relative_tolerance(precision)) + 1e-6,
              qPrintable(QString("PLD %1 too far above exact %2").arg(pld.epsilon).arg(exact)));
        }
      }
    }
  }

  void single_step_discretisation_dominates_the_exact_profile() {
    for (const auto adjacency :
         {pl::Adjacency::kRemove, pl::Adjacency::kAdd, pl::Adjacency::kReplace}) {
      const double sigma = 0.9, q = 0.03, d = 1e-3;
      const auto pmf = pl::subsampled_gaussian_pmf(sigma, q, adjacency, d);
      double mass = pmf.infinity_mass;
      for (double p : pmf.probs) mass += p;
      // Round-off negatives of the second differences (~1e-13 per cell) are clamped to 0: the
      // mass may exceed 1 by about cells * 1e-13, never fall short.
      QVERIFY(mass >= 1.0 - 1e-12);
      DPLAB_COMPARE_ABS(mass, 1.0, 1e-12 * static_cast<double>(pmf.probs.size()));
      for (double epsilon = -1.0; epsilon <= 6.0; epsilon += 0.01237) {
        const double exact = pl::subsampled_gaussian_delta(sigma, q, adjacency, epsilon);
        const double discrete = pl::delta_for_epsilon(pmf, epsilon);
        QVERIFY2(
            discrete >= exact - 1e-13,
            qPrintable(
                QString("eps %1: discrete %2 < exact %3").arg(epsilon).arg(discrete).arg(exact)));
      }
      // On the grid points the chord touches the curve.
      for (std::int64_t k : {-200, 0, 5, 100, 1000}) {
        const double epsilon = static_cast<double>(k) * d;
        DPLAB_COMPARE_ABS(pl::delta_for_epsilon(pmf, epsilon),
                          pl::subsampled_gaussian_delta(sigma, q, adjacency, epsilon), 1e-12);
      }
    }
  }

  void subsampled_delta_matches_numerical_integration() {
    // delta(eps) = int (p(x) - e^eps q(x))_+ dx by the midpoint rule on a fine grid.
    const double sigma = 1.3, q = 0.05;
    for (const auto adjacency :
         {pl::Adjacency::kRemove, pl::Adjacency::kAdd, pl::Adjacency::kReplace}) {
      for (double epsilon : {-0.3, -0.02, 0.0, 0.01, 0.05, 0.3, 1.0}) {
        auto density = [&](double x, double mean) {
          return std::exp(-(x - mean) * (x - mean) / (2 * sigma * sigma)) /
                 (sigma * std::sqrt(2 * M_PI));
        };
        long double sum = 0;
        const double h = 1e-4;
        for (double x = -15 * sigma - 1; x < 15 * sigma + 1; x += h) {
          const double mix = (1 - q) * density(x + h / 2, 0) + q * density(x + h / 2, 1);
          const double base = density(x + h / 2, 0);
          const double mirrored = (1 - q) * density(x + h / 2, 0) + q * density(x + h / 2, -1);
          const double p = adjacency == pl::Adjacency::kAdd ? base : mix;
          const double r = adjacency == pl::Adjacency::kRemove ? base
                           : adjacency == pl::Adjacency::kAdd  ? mix
                                                               : mirrored;
          sum += std::max(0.0, p - std::exp(epsilon) * r) * h;
        }
        DPLAB_COMPARE_ABS(pl::subsampled_gaussian_delta(sigma, q, adjacency, epsilon),
                          static_cast<double>(sum), 1e-8);
      }
    }
  }

  // --- calibration -------------------------------------------------------------------------
  void calibration_never_overshoots() {
    for (const auto& [target, delta, q, steps] :
         std::vector<std::tuple<double, double, double, std::int64_t>>{
             {1.0, 1e-5, 0.01, 1000}, {3.0, 1e-5, 0.004, 5000}, {0.5, 1e-6, 0.02, 200}}) {
      const auto cal = calibrate_noise_multiplier_pld(target, delta, q, steps);
      const double sigma = cal.noise_multiplier;
      const auto at = pld_epsilon_for_delta(SubsampledGaussian{sigma, q, steps}, delta);
      QCOMPARE(at.epsilon, cal.epsilon.epsilon);
      QVERIFY2(
          at.epsilon <= target,
          qPrintable(QString("epsilon %1 > target %2").arg(at.epsilon, 0, 'g', 17).arg(target)));
      // ... and is not needlessly large: 0.5% less noise exceeds the target.
      QVERIFY(
          pld_epsilon_for_delta(SubsampledGaussian{sigma * (1 - 5e-3), q, steps}, delta).epsilon >
          target);
      // PLD needs no more noise than RDP for the same target.
      QVERIFY(sigma <= calibrate_noise_multiplier(target, delta, q, steps));
    }
  }

  // --- heterogeneous composition ----------------------------------------------------------------
  void heterogeneous_composition_equals_product_of_single_plds() {
    const double d = 2e-3;
    for (const auto adjacency : {pl::Adjacency::kRemove, pl::Adjacency::kAdd}) {
      const auto a = pl::subsampled_gaussian_pmf(1.0, 0.05, adjacency, d);
      const auto b = pl::subsampled_gaussian_pmf(2.0, 0.2, adjacency, d);
      const std::vector<pl::PmfPower> both{{&a, 30}, {&b, 20}};
      const auto joint = pl::compose(both);
      const pl::PmfPower only_a{&a, 30}, only_b{&b, 20};
      const auto pa = pl::compose(std::span(&only_a, 1)), pb = pl::compose(std::span(&only_b, 1));
      const auto product = convolve(pa.pmf, pb.pmf);
      for (double epsilon : {0.0, 0.3, 0.7, 1.5, 3.0}) {
        // Each composition adds its truncation mass (1e-15) to delta: 3e-15 apart at most.
        DPLAB_COMPARE_ABS(pl::delta_for_epsilon(joint.pmf, epsilon),
                          pl::delta_for_epsilon(product, epsilon), 1e-12);
      }
    }
    // Through the accountant: runs of one mechanism add their steps; a mixed list lies between
    // its parts.
    PldOptions fixed;
    fixed.discretization = 1e-4;
    const SubsampledGaussian r1{1.0, 0.01, 300}, r2{1.0, 0.01, 700}, r3{2.0, 0.05, 500};
    const std::vector<SubsampledGaussian> split{r1, r2};
    DPLAB_COMPARE_REL(
        pld_epsilon_for_delta(split, 1e-5, fixed).epsilon,
        pld_epsilon_for_delta(SubsampledGaussian{1.0, 0.01, 1000}, 1e-5, fixed).epsilon, 1e-9);
    const std::vector<SubsampledGaussian> mixed{r1, r3};
    const double e_mixed = pld_epsilon_for_delta(mixed, 1e-5).epsilon;
    QVERIFY(e_mixed > pld_epsilon_for_delta(r1, 1e-5).epsilon);
    QVERIFY(e_mixed > pld_epsilon_for_delta(r3, 1e-5).epsilon);
    QVERIFY(e_mixed <
            pld_epsilon_for_delta(r1, 1e-5).epsilon + pld_epsilon_for_delta(r3, 1e-5).epsilon);
  }

  void composing_once_returns_the_distribution() {
    const auto a = pl::subsampled_gaussian_pmf(1.0, 0.05, pl::Adjacency::kRemove, 1e-3);
    const pl::PmfPower once{&a, 1};
    const auto c = pl::compose(std::span(&once, 1));
    for (double epsilon : {0.0, 0.1, 0.5, 1.0}) {
      DPLAB_COMPARE_ABS(pl::delta_for_epsilon(c.pmf, epsilon), pl::delta_for_epsilon(a, epsilon),
                        1e-14);
    }
  }

  // --- delta/epsilon consistency, precision settings, special cases, validation
  // ---------------------
  void delta_and_epsilon_queries_agree() {
    const SubsampledGaussian run{1.1, 0.004266666666666667, 14040};
    const auto e = pld_epsilon_for_delta(run, 1e-5);
    PldOptions fixed;
    fixed.discretization = e.discretization;
    const auto d = pld_delta_for_epsilon(run, e.epsilon, fixed);
    DPLAB_COMPARE_REL(d.delta, 1e-5, 1e-6);
  }

  void finer_settings_are_tighter() {
    const SubsampledGaussian run{0.8, 0.01, 1000};
    PldOptions fast, tight;
    fast.precision = PldPrecision::kFast;
    tight.precision = PldPrecision::kTight;
    const auto f = pld_epsilon_for_delta(run, 1e-5, fast);
    const auto m = pld_epsilon_for_delta(run, 1e-5);
    const auto t = pld_epsilon_for_delta(run, 1e-5, tight);
    QVERIFY(f.epsilon >= m.epsilon && m.epsilon >= t.epsilon);
    QVERIFY(f.error_bound >= m.error_bound && m.error_bound >= t.error_bound);
    QVERIFY(f.discretization >= m.discretization && m.discretization >= t.discretization);
    // The bracket [eps - error_bound, eps] of the coarse setting holds the tight value.
    QVERIFY(f.epsilon - f.error_bound <= t.epsilon);
  }

  void special_cases() {
    QCOMPARE(pld_epsilon_for_delta(SubsampledGaussian{1.0, 0.1, 0}, 1e-5).epsilon, 0.0);
    QCOMPARE(pld_epsilon_for_delta(SubsampledGaussian{1.0, 0.0, 100}, 1e-5).epsilon, 0.0);
    QVERIFY(std::isinf(pld_epsilon_for_delta(SubsampledGaussian{0.0, 0.1, 100}, 1e-5).epsilon));
    QCOMPARE(pld_delta_for_epsilon(SubsampledGaussian{0.0, 0.1, 100}, 1.0).delta, 1.0);
    QCOMPARE(pld_delta_for_epsilon(SubsampledGaussian{1.0, 0.1, 0}, 1.0).delta, 0.0);
    const std::vector<SubsampledGaussian> none;
    QCOMPARE(pld_epsilon_for_delta(none, 1e-5).epsilon, 0.0);
  }

  void invalid_input_throws_a_named_error() {
    auto throws_naming = [](auto&& call, const char* field) {
      try {
        call();
      } catch (const dplab::InvalidArgument& e) {
        return std::string(e.what()).find(field) != std::string::npos;
      }
      return false;
    };
    QVERIFY(throws_naming(
        [] {
          pld_epsilon_for_delta(SubsampledGaussian{1.0, 0.1, 10}, 0.0);
        },
        "delta"));
    QVERIFY(throws_naming(
        [] {
          pld_epsilon_for_delta(SubsampledGaussian{-1.0, 0.1, 10}, 1e-5);
        },
        "noise_multiplier"));
    QVERIFY(throws_naming(
        [] {
          pld_epsilon_for_delta(SubsampledGaussian{1.0, 1.5, 10}, 1e-5);
        },
        "sampling_rate"));
    QVERIFY(throws_naming(
        [] {
          pld_epsilon_for_delta(SubsampledGaussian{1.0, 0.1, -1}, 1e-5);
        },
        "steps"));
    QVERIFY(throws_naming(
        [] {
          pld_delta_for_epsilon(SubsampledGaussian{1.0, 0.1, 10}, -1.0);
        },
        "epsilon"));
    QVERIFY(throws_naming([] { calibrate_noise_multiplier_pld(0.0, 1e-5, 0.1, 10); },
                          "target_epsilon"));
    QVERIFY(throws_naming(
        [] {
          PldOptions o;
          o.discretization = -1;
          pld_epsilon_for_delta(SubsampledGaussian{1.0, 0.1, 10}, 1e-5, o);
        },
        "discretization"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestPldAccountant)
#include "test_pld_accountant.moc"
