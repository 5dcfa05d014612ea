// Tests of engine/objective_perturbation/{honest_comparison, synthetic_glm}: the Poisson mean of
// the honest baseline, the certified epsilons of the three methods, determinism by seed, and the
// synthetic generator's label-noise law.
#include <Eigen/QR>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "objective_perturbation/bound_curves.h"
#include "objective_perturbation/comparison_preset.h"
#include "objective_perturbation/glm_data.h"
#include "objective_perturbation/honest_comparison.h"
#include "objective_perturbation/synthetic_glm.h"
#include "support/expect_error.h"
#include "support/numeric_compare.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using namespace dplab::objpert;

class TestObjpertComparison : public QObject {
  Q_OBJECT

 private slots:
  void poisson_mean_for_the_paper_tail() {
    // P[K > 10] = 0.9 <=> P[K <= 10] = 0.1; the paper quotes mu ~ 15.4.
    const double mu = poisson_mean_for_tail(10, 0.9);
    QVERIFY(std::abs(mu - 15.4) < 0.05);
    double term = std::exp(-mu), cdf = term;
    for (int k = 1; k <= 10; ++k) cdf += (term *= mu / k);
    DPLAB_COMPARE_ABS(cdf, 0.1, 1e-9);
  }

  void synthetic_labels_follow_the_teacher_up_to_the_flip_rate() {
    SyntheticGlmOptions o;
    o.num_samples = 20000;
    o.dim = 5;
    o.label_noise = 0.1;
    o.seed = 3;
    const auto d = make_synthetic_glm(o, "s");
    QCOMPARE(d.num_classes, 2);
    // Agreement with the best linear rule is ~90%: the flips are Binomial(n, 0.1), so the count of
    // disagreements with the teacher is within 4 sd of 2000 (sd = sqrt(n p (1-p)) = 42.4). The
    // teacher is recovered as the least-squares direction (sign only matters).
    const GlmData g = make_glm_data(d);
    const Eigen::VectorXd w = g.x.colPivHouseholderQr().solve(g.y);
    const double acc = glm_accuracy(g, w);
    QVERIFY2(acc > 0.88 && acc < 0.905, qPrintable(QString::number(acc)));
    SyntheticGlmOptions preset;
    QVERIFY(synthetic_glm_preset("synthetic-h", preset));
    QCOMPARE(preset.dim, dplab::Index(2000));
    QVERIFY(!synthetic_glm_preset("adult", preset));
  }

  void tiny_comparison_certifies_each_method() {
    SyntheticGlmOptions o;
    o.num_samples = 1500;
    o.dim = 6;
    o.seed = 1;
    const auto data = make_synthetic_glm(o, "tiny");
    ComparisonConfig c;
    c.epsilons = {1.0};
    c.trials = 2;
    c.epochs = 1;
    c.lot_size = 100;
    c.grid_size = 3;
    c.prob_more_than_grid = 0.5;
    c.seed = 11;
    const ComparisonResult r = run_comparison(data, c);
    QCOMPARE(r.rows.size(), std::size_t(1));
    const ComparisonRow& row = r.rows[0];
    QVERIFY(row.dishonest.epsilon <= 1.0 && row.honest.epsilon <= 1.0 &&
            row.algorithm1.epsilon <= 1.0);
    // The honest noise pays for the whole selection: more noise than one dishonest run.
    QVERIFY(row.honest.noise_multiplier > row.dishonest.noise_multiplier);
    QCOMPARE(row.algorithm1.noise_factor, 1.3);
    for (const MethodSummary* m : {&row.dishonest, &row.algorithm1, &row.honest}) {
      QCOMPARE(m->accuracy.size(), std::size_t(2));
      for (double a : m->accuracy) QVERIFY(a >= 0 && a <= 1);
    }
    QCOMPARE(row.dishonest.runs[0], 3);
    QCOMPARE(r.dpsgd_steps, std::int64_t(12));  // 1 epoch of 1200 rows / 100
    const ComparisonResult again = run_comparison(data, c);
    QCOMPARE(again.rows[0].honest.accuracy, row.honest.accuracy);
    QCOMPARE(again.rows[0].algorithm1.accuracy, row.algorithm1.accuracy);
  }

  void shipped_table2_preset_parses() {
    const std::string path = dplab::testing::presets_dir() + "/objpert-vs-dpsgd-adult.json";
    const ComparisonPreset p = load_comparison_preset(path);
    QCOMPARE(p.dataset_source, std::string("adult"));
    QVERIFY(std::filesystem::exists(p.dataset_path + "/adult.data.csv"));
    QCOMPARE(p.config.epsilons, (std::vector<double>{0.1, 1.0, 8.0}));
    QCOMPARE(p.config.trials, 10);
    QCOMPARE(p.config.grid_size, 10);
    QCOMPARE(p.config.lot_size, 256.0);
    QCOMPARE(p.config.learning_rate_low, 1e-8);
    QCOMPARE(p.config.tau, 0.01);
    QCOMPARE(p.config.output_noise_std, 0.15);
    QCOMPARE(p.config.solver, SolverKind::kLbfgs);
  }

  void preset_errors_name_the_key() {
    using dplab::testing::error_of;
    const auto bad = [](const char* text) {
      return error_of<dplab::ParseError>(
          [&] { parse_comparison_preset(nlohmann::json::parse(text), "p.json"); });
    };
    QVERIFY(bad(R"({"experiment": "objpert-vs-dpsgd", "dpsgd": {"lot": 3}})")
                .contains("p.json: dpsgd.lot"));
    QVERIFY(bad(R"({"experiment": "tune"})").contains("experiment"));
    QVERIFY(bad(R"({"experiment": "objpert-vs-dpsgd", "epsilons": [0]})").contains("epsilons"));
    QVERIFY(bad(R"({"experiment": "objpert-vs-dpsgd", "algorithm1": {"solver": "adam"}})")
                .contains("algorithm1.solver"));
    // An unknown key lists the known ones.
    QCOMPARE(bad(R"({"experiment": "objpert-vs-dpsgd", "dpsgd": {"lot": 3}})"),
             QString("p.json: dpsgd.lot: unknown key (expected clip, epochs, grid_size, "
                     "learning_rate_range, lot_size or prob_more_than_grid)"));
    // Counts and seeds are integers, read whole: 2.5 trials used to become 2, 1e30 overflowed
    // an int and a negative seed wrapped.
    QVERIFY(bad(R"({"experiment": "objpert-vs-dpsgd", "trials": 2.5})")
                .startsWith("p.json: trials: expected an integer, got 2.5"));
    QVERIFY(bad(R"({"experiment": "objpert-vs-dpsgd", "dpsgd": {"grid_size": 1e30}})")
                .startsWith("p.json: dpsgd.grid_size: expected an integer"));
    QVERIFY(bad(R"({"experiment": "objpert-vs-dpsgd", "seed": -1})")
                .startsWith("p.json: seed: expected a non-negative integer"));
    QVERIFY(bad(R"({"experiment": "objpert-vs-dpsgd", "epsilons": [1, 0]})")
                .startsWith("p.json: epsilons[1]: must be > 0"));
    // A 100 KB bad value is a bounded excerpt (the solver name used to be echoed whole).
    nlohmann::json huge = {{"experiment", "objpert-vs-dpsgd"},
                           {"algorithm1", {{"solver", std::string(100000, 'x')}}}};
    const QString message = dplab::testing::error_of<dplab::ParseError>(
        [&] { parse_comparison_preset(huge, "p.json"); });
    QVERIFY2(message.startsWith("p.json: algorithm1.solver: solver = \"xxx"),
             qPrintable(message.left(200)));
    QVERIFY2(message.size() < 200, qPrintable(QString::number(message.size())));
  }

  void figure1_curves_csv() {
    ObjPertPrivacy p;
    p.noise_std = 5;
    p.gradient_bound = 1;
    p.smoothness = 1;
    p.regularization = 20;
    const auto curve = bound_curves(p, 1e-10, 1e-1, 10);
    QCOMPARE(curve.size(), std::size_t(10));
    DPLAB_COMPARE_REL(curve.front().delta, 1e-10, 1e-12);
    DPLAB_COMPARE_REL(curve.back().delta, 1e-1, 1e-12);
    for (std::size_t i = 0; i < curve.size(); ++i) {
      const auto& c = curve[i];
      QVERIFY(c.gaussian_lower_bound <= c.profile && c.profile <= c.rdp && c.rdp <= c.kifer);
      if (i) QVERIFY(c.profile <= curve[i - 1].profile);  // epsilon falls as delta grows
    }
    const std::string csv = bound_curves_csv(curve);
    QVERIFY(csv.rfind("delta,gaussian_lower_bound,profile_thm31,rdp_thm32,kifer_thm28\n", 0) == 0);
    QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 11L);
    const std::string svg = bound_curves_svg(curve, "sigma <5>");
    QVERIFY(svg.rfind("<svg", 0) == 0);
    QVERIFY(svg.find("sigma &lt;5&gt;") != std::string::npos);
    std::size_t lines = 0;
    for (std::size_t at = svg.find("<polyline"); at != std::string::npos;
         at = svg.find("<polyline", at + 1))
      ++lines;
    QCOMPARE(lines, std::size_t(4));
  }

  void rejects_multiclass_and_bad_config() {
    SyntheticGlmOptions o;
    o.num_samples = 100;
    auto d = make_synthetic_glm(o, "x");
    ComparisonConfig c;
    c.trials = 0;
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, run_comparison(d, c));
    d.num_classes = 3;
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, run_comparison(d, ComparisonConfig{}));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestObjpertComparison)
#include "test_objpert_comparison.moc"
