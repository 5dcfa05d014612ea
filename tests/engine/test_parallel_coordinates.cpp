// Parallel coordinates of a search (chart_series/parallel_coordinates.h) and the winner per
// optimizer (tuning/winners.h): which axes appear, which are logarithmic (log-spaced grids only),
// where a value sits on its axis, NaN for a hyperparameter a candidate does not have, and winners
// equal to honest selection's choice on a real run.
#include <QTest>

#include <cmath>

#include "chart_series/parallel_coordinates.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"
#include "tuning/honest_selection.h"
#include "tuning/runner.h"
#include "tuning/winners.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

experiment::ExperimentConfig mixed_experiment() {
  return experiment::parse_experiment_text(R"({
    "name": "pc",
    "dataset": {"source": "synthetic-binary", "num_samples": 600, "dim": 5},
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1.0, "lot_size": 50, "steps": 30},
    "optimizers": [
      {"name": "dpsgd", "grid": {"learning_rate": [0.01, 0.1, 1.0], "clip": [0.5, 1.5]}},
      {"name": "dpmomentum", "grid": {"learning_rate": 0.05, "momentum": [0.5, 0.9], "clip": 1}},
      {"name": "dpadam", "grid": {"learning_rate": {"log10": [-3, -1], "num": 3}, "clip": 1}}
    ],
    "repeats": 1, "eval_every": 10, "seed": 7
  })",
                                           "pc");
}

const ParallelAxis* find_axis(const ParallelCoordinates& pc, const std::string& name) {
  for (const auto& a : pc.axes)
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace

class TestParallelCoordinates : public QObject {
  Q_OBJECT
 private slots:
  void geometricProgressions() {
    QVERIFY(is_geometric({0.001, 0.01, 0.1}));
    QVERIFY(is_geometric({0.8, 0.1, 0.4, 0.2}));  // order does not matter
    QVERIFY(!is_geometric({0.1, 0.5, 2.0}));
    QVERIFY(!is_geometric({1.0, 2.0}));  // two values cannot tell
    QVERIFY(!is_geometric({-1.0, -2.0, -4.0}));
    QVERIFY(!is_geometric({0.0, 1.0, 2.0}));
  }

  void axesOfARealRun() {
    const auto config = mixed_experiment();
    const SearchResults results = Runner(config, load_experiment_data(config)).run();
    const ParallelCoordinates pc = parallel_coordinates(results);
    QCOMPARE(pc.candidates.size(), results.candidates.size());  // all finished
    // alpha, C, beta1, beta2 (DPAdam has them), momentum (DPMomentum), then the score.
    QCOMPARE(pc.axes.size(), std::size_t{6});
    QCOMPARE(pc.axes.back().name, std::string("accuracy"));
    QVERIFY(pc.axes.back().is_score);
    const ParallelAxis* lr = find_axis(pc, "learning_rate");
    const ParallelAxis* clip = find_axis(pc, "clip");
    const ParallelAxis* beta1 = find_axis(pc, "beta1");
    const ParallelAxis* momentum = find_axis(pc, "momentum");
    QVERIFY(lr && clip && beta1 && momentum);
    QVERIFY(lr->log);     // geometric list and a log10 grid
    QVERIFY(!clip->log);  // two values: linear
    QCOMPARE(lr->low, 0.001);
    QCOMPARE(lr->high, 1.0);
    // On a log axis 10^-3 .. 10^0, 0.01 sits at one third and 0.1 at two thirds.
    DPLAB_COMPARE_REL(axis_fraction(*lr, 0.01), 1.0 / 3.0, 1e-12);
    DPLAB_COMPARE_REL(axis_fraction(*lr, 0.1), 2.0 / 3.0, 1e-12);
    DPLAB_COMPARE_REL(axis_fraction(*clip, 1.0), 0.5, 1e-12);  // linear 0.5 .. 1.5
    for (std::size_t row = 0; row < pc.candidates.size(); ++row) {
      const auto& cand = results.candidates[static_cast<std::size_t>(pc.candidates[row])];
      const bool adam = cand.optimizer.kind == optim::OptimizerKind::kDpAdam;
      const bool mom = cand.optimizer.kind == optim::OptimizerKind::kDpMomentum;
      QCOMPARE(std::isnan(beta1->values[row]), !adam);
      QCOMPARE(std::isnan(momentum->values[row]), !mom);
      QCOMPARE(lr->values[row], cand.optimizer.learning_rate);
      QCOMPARE(pc.axes.back().values[row], results.job(cand.index, 0).final_val_accuracy);
    }
    QVERIFY(std::isnan(axis_fraction(*beta1, std::nan(""))));
    // Winners: exactly one per optimizer, honest selection's choice.
    const auto winners = winners_per_optimizer(results);
    const auto reports = honest_selection_per_optimizer(results);
    QCOMPARE(winners.size(), std::size_t{3});
    int marked = 0;
    for (std::size_t row = 0; row < pc.candidates.size(); ++row) {
      if (!pc.winner[row]) continue;
      ++marked;
      const int o = pc.optimizer_index[row];
      QCOMPARE(pc.candidates[row], reports[static_cast<std::size_t>(o)].best_candidate);
      QCOMPARE(pc.candidates[row], winners[static_cast<std::size_t>(o)]);
    }
    QCOMPARE(marked, 3);
  }

  void unfinishedCandidatesAreLeftOut() {
    const auto config = mixed_experiment();
    Runner runner(config, load_experiment_data(config));
    SearchResults plan;
    plan.config = runner.config();
    plan.candidates = runner.candidates();
    plan.mechanism = runner.mechanism();
    plan.training_size = 480;
    plan.jobs.resize(plan.candidates.size());
    for (std::size_t i = 0; i < plan.jobs.size(); ++i) plan.jobs[i].candidate = static_cast<int>(i);
    const ParallelCoordinates pc = parallel_coordinates(plan);
    QVERIFY(pc.candidates.empty());
    for (int w : winners_per_optimizer(plan)) QCOMPARE(w, -1);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestParallelCoordinates)
#include "test_parallel_coordinates.moc"
