// Objective perturbation inside a `tune` experiment (experiment/objpert_entry.h,
// tuning/objpert_search.h): the JSON entry is validated with errors naming the key, round-trips,
// expands into its solver grid; each run releases a model that met the stopping condition (the
// gradient-descent budget finished by L-BFGS on the SAME perturbed objective); and the epsilon of
// the whole search is the RDP composition of the DP-SGD runs and the Theorem 4.1 runs.
#include <QTest>
#include <atomic>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/random.h"
#include "experiment/experiment_config.h"
#include "objective_perturbation/algorithm1.h"
#include "objective_perturbation/glm_data.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/accounting/rdp_conversion.h"
#include "support/expect_error.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/objpert_search.h"
#include "tuning/release_cost.h"
#include "tuning/runner.h"

using namespace dplab;
using dplab::testing::error_of;

namespace {

// tiny_experiment plus one objpert entry (2 learning rates x 2 budgets).
std::string with_objpert(const std::string& privacy, const std::string& grid) {
  std::string j = dplab::testing::tiny_experiment_json(20, 2);
  const std::string anchor = R"({"name": "dpadam", "grid": {"clip": 1}})";
  const auto at = j.find(anchor);
  Q_ASSERT(at != std::string::npos);
  j.insert(at + anchor.size(),
           R"(, {"name": "objpert", "privacy": )" + privacy + R"(, "grid": )" + grid + "}");
  return j;
}

const char* kPrivacy =
    R"({"noise_std": 4.0, "regularization": 5.0, "output_noise_std": 0.1, "tau": 0.01})";
const char* kGrid = R"({"learning_rate": [0.5, 1.0], "max_iterations": [1, 5000]})";

}  // namespace

class TestObjpertTuning : public QObject {
  Q_OBJECT

 private slots:
  void entryParsesAndRoundTrips() {
    const auto config = experiment::parse_experiment_text(with_objpert(kPrivacy, kGrid), "t");
    QCOMPARE(config.optimizers.size(), std::size_t(2));  // DP-SGD optimizers unchanged
    QCOMPARE(config.objective_perturbation.size(), std::size_t(1));
    const auto& e = config.objective_perturbation[0];
    QCOMPARE(e.noise_std, 4.0);
    QCOMPARE(e.regularization, 5.0);
    QCOMPARE(e.output_noise_std, 0.1);
    QCOMPARE(e.tau, 0.01);
    QCOMPARE(e.clip, std::sqrt(2.0));  // default C for unit-norm rows plus a bias
    QCOMPARE(e.learning_rates, (std::vector<double>{0.5, 1.0}));
    QCOMPARE(e.max_iterations, (std::vector<std::int64_t>{1, 5000}));
    const auto again = experiment::parse_experiment(experiment::to_json(config));
    QVERIFY(again.objective_perturbation == config.objective_perturbation);
    QCOMPARE(experiment::to_json(again).dump(), experiment::to_json(config).dump());
    // The DP-SGD candidates are what they were; the objpert grid is 2 x 2, lr slowest.
    QCOMPARE(experiment::expand_candidates(config).size(), std::size_t(5));
    const auto objpert = tuning::expand_objpert_candidates(config);
    QCOMPARE(objpert.size(), std::size_t(4));
    QCOMPARE(objpert[1].learning_rate, 0.5);
    QCOMPARE(objpert[1].max_iterations, std::int64_t(5000));
    QCOMPARE(objpert[2].learning_rate, 1.0);
    QCOMPARE(objpert[3].label(), std::string("objpert lr=1 iters=5000"));
  }

  void errorsNameTheKey() {
    auto message = [](const std::string& privacy, const std::string& grid) {
      return error_of<ParseError>(
          [&] { experiment::parse_experiment_text(with_objpert(privacy, grid), "t"); });
    };
    QString m = message(R"({"regularization": 5, "output_noise_std": 0.1})", "{}");
    QVERIFY2(m.contains("optimizers[2].privacy.noise_std: missing"), qPrintable(m));
    m = message(R"({"noise_std": 4, "regularization": 0.3, "output_noise_std": 0.1})", "{}");
    QVERIFY2(m.contains("optimizers[2].privacy.regularization: must be > 0.5"), qPrintable(m));
    QVERIFY2(m.contains("0.3"), qPrintable(m));
    m = message(R"({"noise_std": 4, "regularization": 5, "output_noise_std": 0})", "{}");
    QVERIFY2(m.contains("optimizers[2].privacy.output_noise_std: must be > 0"), qPrintable(m));
    m = message(kPrivacy, R"({"max_iterations": [10, 2.5]})");
    QVERIFY2(m.contains("optimizers[2].grid.max_iterations[1]: expected an integer"),
             qPrintable(m));
    m = message(kPrivacy, R"({"learning_rate": "fast"})");
    QVERIFY2(m.contains("optimizers[2].grid.learning_rate: expected a learning rate"),
             qPrintable(m));
    m = message(kPrivacy, R"({"momentum": 0.9})");
    QVERIFY2(m.contains("optimizers[2].grid.momentum: unknown key"), qPrintable(m));
    m = message(R"({"noise_std": 4, "regularization": 5, "output_noise_std": 0.1, "eps": 1})",
                "{}");
    QVERIFY2(m.contains("optimizers[2].privacy.eps: unknown key"), qPrintable(m));
    // Objective perturbation alone is not a tune search.
    m = error_of<ParseError>([] {
      experiment::parse_experiment_text(R"({"name": "x", "dataset": {"source": "synthetic-binary"},
        "model": {"kind": "logistic"}, "privacy": {"noise_multiplier": 1, "lot_size": 10,
        "steps": 10}, "optimizers": [{"name": "objpert", "privacy": {"noise_std": 4,
        "regularization": 5, "output_noise_std": 0.1}}]})",
                                        "t");
    });
    QVERIFY2(m.contains("optimizers: needs at least one DP-SGD optimizer"), qPrintable(m));
  }

  void runsReleaseModelsThatMetTau() {
    const auto config = experiment::parse_experiment_text(with_objpert(kPrivacy, kGrid), "t");
    const auto data = tuning::load_experiment_data(config);
    const tuning::ObjpertSearch search = tuning::run_objpert_search(config, *data);
    QCOMPARE(search.jobs.size(), std::size_t(4 * 2));
    const objpert::GlmData train = objpert::make_glm_data(data->train);
    const objpert::GlmData validation = objpert::make_glm_data(data->validation);
    for (const auto& job : search.jobs) {
      QVERIFY(job.status == tuning::JobStatus::kFinished);
      QVERIFY(job.val_accuracy >= 0 && job.val_accuracy <= 1);
      const auto& c = search.candidates[static_cast<std::size_t>(job.candidate)];
      // One gradient-descent step cannot reach tau: L-BFGS finishes the solve. 5000 can.
      QCOMPARE(job.finished_by_lbfgs, c.max_iterations == 1);
      // The release is Algorithm 1 with THIS run's seed: the L-BFGS finish solves the same
      // perturbed objective (same b, same output noise) as a plain L-BFGS run of that seed.
      if (job.finished_by_lbfgs) {
        objpert::Algorithm1Settings s;
        s.noise_std = 4.0;
        s.regularization = 5.0;
        s.output_noise_std = 0.1;
        s.tau = 0.01;
        s.solver.kind = objpert::SolverKind::kLbfgs;
        s.seed = derive_seed(config.seed,
                             tuning::kObjpertSeedStream + static_cast<std::uint64_t>(c.index),
                             static_cast<std::uint64_t>(job.repeat));
        const auto r = objpert::run_algorithm1(train, s);
        QCOMPARE(job.val_accuracy, objpert::glm_accuracy(validation, r.theta));
      }
    }
    QVERIFY(search.best_candidate >= 0);
    QVERIFY(search.best_accuracy > 0.6);  // the synthetic teacher is learnable
    // Deterministic: same config, same numbers.
    const auto again = tuning::run_objpert_search(config, *data);
    for (std::size_t i = 0; i < search.jobs.size(); ++i)
      QCOMPARE(again.jobs[i].val_accuracy, search.jobs[i].val_accuracy);
    // Cancelled before it starts: nothing touches the data, nothing is charged.
    std::atomic<bool> cancel{true};
    const auto cancelled = tuning::run_objpert_search(config, *data, &cancel);
    for (const auto& job : cancelled.jobs) QVERIFY(job.status == tuning::JobStatus::kPending);
  }

  void multiclassDataIsRefused() {
    auto config = experiment::parse_experiment_text(with_objpert(kPrivacy, kGrid), "t");
    auto data = *tuning::load_experiment_data(config);
    data.train.num_classes = 3;
    const QString m = error_of<InvalidArgument>([&] { tuning::run_objpert_search(config, data); });
    QVERIFY2(m.contains("binary classification") && m.contains("3 classes"), qPrintable(m));
  }

  void searchEpsilonComposesBothKinds() {
    const auto config = experiment::parse_experiment_text(with_objpert(kPrivacy, kGrid), "t");
    const auto data = tuning::load_experiment_data(config);
    tuning::Runner runner(config, data);
    const tuning::SearchResults results = runner.run();
    const tuning::ReleaseCost dpsgd_only = tuning::explore_release_cost(results);
    // No objpert run: exactly the explore cost.
    const tuning::ObjpertSearch none;
    QCOMPARE(tuning::release_cost_with_objpert(results, none).epsilon, dpsgd_only.epsilon);

    const tuning::ObjpertSearch search = tuning::run_objpert_search(config, *data);
    const tuning::ReleaseCost cost = tuning::release_cost_with_objpert(results, search);
    // By hand: RDP of all DP-SGD queries plus 8 Theorem 4.1 runs, order by order.
    const auto orders = privacy::rdp_orders();
    const auto step = privacy::rdp_curve(1.0, results.mechanism.sampling_rate);
    const auto p = tuning::objpert_privacy(config.objective_perturbation[0]);
    QCOMPARE(p.smoothness, 0.5);
    std::vector<double> total(orders.size()), objpert_only(orders.size());
    for (std::size_t i = 0; i < orders.size(); ++i) {
      total[i] = static_cast<double>(dpsgd_only.total_queries) * step->rdp_per_step[i] +
                 8 * objpert::algorithm1_rdp(p, orders[i]);
      objpert_only[i] = 8 * objpert::algorithm1_rdp(p, orders[i]);
    }
    const double delta = results.mechanism.delta;
    QCOMPARE(cost.epsilon, privacy::epsilon_from_rdp(orders, total, delta).epsilon);
    QVERIFY(cost.epsilon > dpsgd_only.epsilon);
    QVERIFY(cost.epsilon > privacy::epsilon_from_rdp(orders, objpert_only, delta).epsilon);
    QCOMPARE(cost.runs_charged, dpsgd_only.runs_charged + 8);
    QCOMPARE(cost.num_candidates, 5 + 4);
    QVERIFY(QString::fromStdString(cost.covers).contains("8 objective-perturbation runs"));
    // Composition is never cheaper than the sum of parts' worst: at least the DP-SGD part alone.
    const QString label = QString::fromStdString(tuning::epsilon_label(cost));
    QVERIFY2(label.contains("Theorem 4.1"), qPrintable(label));

    // Private release modes do not draw objpert candidates: refused, not mis-charged.
    tuning::SearchResults private_results = results;
    private_results.config.release.mode = experiment::ReleaseMode::kPrivate;
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             tuning::release_cost_with_objpert(private_results, search));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestObjpertTuning)
#include "test_objpert_tuning.moc"
