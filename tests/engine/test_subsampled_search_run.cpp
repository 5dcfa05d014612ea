// tuning::run_subsampled_search, the one implementation of release mode private-subsampled that
// `dplab-cli tune` and the GUI share (issue #32): the hook sees the tuning phase's runner, then
// the final run's (each followed by nullptr); the released results are ONE final run with the full
// n as training size; a search that draws K = 0 trains nothing and releases nothing; the rule
// on repeats is check_release_repeats, the same for the file, the CLI and the form.
#include <QTest>
#include <utility>
#include <vector>

#include "core/error.h"
#include "experiment/experiment_config.h"
#include "experiment/release_repeats.h"
#include "support/expect_error.h"
#include "support/test_registry.h"
#include "tuning/private_search.h"
#include "tuning/runner.h"
#include "tuning/subsampled_search.h"

using namespace dplab;

namespace {

// K of the tuning search `config` draws (its plan, made before any training).
std::int64_t drawn_runs(const experiment::ExperimentConfig& config,
                        const data::TrainValidationSplit& data) {
  const auto splits = tuning::split_for_subsampled_tuning(config, data);
  const auto tuning_config = tuning::tuning_phase_config(
      config, splits.full_training_size, splits.final->train.size(), splits.tuning->train.size());
  return static_cast<std::int64_t>(
      tuning::draw_private_plan(
          tuning_config, static_cast<int>(experiment::expand_candidates(tuning_config).size()),
          tuning_config.seed)
          .jobs.size());
}

}  // namespace

class TestSubsampledSearchRun : public QObject {
  Q_OBJECT
 private slots:
  void phases_in_order_and_an_empty_search() {
    experiment::ExperimentConfig config = experiment::parse_experiment_text(R"({"name": "t",
        "dataset": {"source": "synthetic-binary", "num_samples": 1000, "dim": 4},
        "model": {"kind": "logistic"}, "privacy": {"noise_multiplier": 1, "lot_size": 50,
        "steps": 20}, "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5],
        "clip": [1]}}], "seed": 1, "release": {"mode": "private-subsampled",
        "tuning_fraction": 0.5, "ps_mu": 1}})");
    const auto data = tuning::load_experiment_data(config);
    tuning::RunOptions options;
    options.threads = 1;
    // A seed that draws K >= 1 and one that draws K = 0 (mu = 1: P(K = 0) = 1/e).
    std::uint64_t with_runs = 0, without_runs = 0;
    for (std::uint64_t seed = 1; seed < 100 && (!with_runs || !without_runs); ++seed) {
      config.seed = seed;
      (drawn_runs(config, *data) > 0 ? with_runs : without_runs) = seed;
    }
    QVERIFY(with_runs && without_runs);

    config.seed = with_runs;
    const std::int64_t k = drawn_runs(config, *data);
    std::vector<std::pair<bool, bool>> calls;  // (a runner, final phase)
    tuning::SubsampledRunHooks hooks;
    hooks.on_runner = [&](tuning::Runner* runner, bool final_phase) {
      calls.emplace_back(runner != nullptr, final_phase);
    };
    const tuning::SubsampledRun run = tuning::run_subsampled_search(config, data, options, hooks);
    const std::vector<std::pair<bool, bool>> expected{
        {true, false}, {false, false}, {true, true}, {false, true}};
    QCOMPARE(calls, expected);
    QVERIFY(run.has_final);
    QVERIFY(!run.cancelled);
    QCOMPARE(run.runs_trained, k);
    QVERIFY(run.winner_candidate >= 0);
    QCOMPARE(run.final_results.jobs.size(), std::size_t{1});
    QCOMPARE(run.final_results.training_size, static_cast<std::int64_t>(data->train.size()));
    QVERIFY(run.final_results.config.release.subsampled);  // so its cost is the two-phase one
    QCOMPARE(run.final_plan.replicates.size(), std::size_t{1});
    // Same code path twice: bit for bit.
    const tuning::SubsampledRun again = tuning::run_subsampled_search(config, data, options);
    QCOMPARE(again.final_results.jobs[0].final_val_accuracy,
             run.final_results.jobs[0].final_val_accuracy);

    config.seed = without_runs;
    calls.clear();
    const tuning::SubsampledRun empty = tuning::run_subsampled_search(config, data, options, hooks);
    QVERIFY(!empty.has_final);
    QCOMPARE(empty.runs_trained, std::int64_t{0});
    QVERIFY(calls.empty());  // nothing trained, no final run
  }

  void repeats_rule_and_wrong_inputs() {
    experiment::ReleaseConfig release;
    experiment::check_release_repeats(release, 5);  // not subsampled: any R
    release.mode = experiment::ReleaseMode::kPrivate;
    release.selection = experiment::PrivateSelection::kPs;
    release.subsampled = true;
    experiment::check_release_repeats(release, 1);
    const QString message = testing::error_of<ParseError>(
        [&] { experiment::check_release_repeats(release, 2, "repeats"); });
    QVERIFY2(message.startsWith("repeats: ") && message.contains("repeats must be 1") &&
                 message.contains("got 2"),
             qPrintable(message));
    // Not the subsampled mode: refused by the function itself.
    experiment::ExperimentConfig config = experiment::parse_experiment_text(R"({"name": "t",
        "dataset": {"source": "synthetic-binary", "num_samples": 200, "dim": 2},
        "model": {"kind": "logistic"}, "privacy": {"noise_multiplier": 1, "lot_size": 20,
        "steps": 5}, "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.1],
        "clip": [1]}}], "seed": 1})");
    const auto data = tuning::load_experiment_data(config);
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              tuning::run_subsampled_search(config, data, {});
            }).contains("not private-subsampled"));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestSubsampledSearchRun)
#include "test_subsampled_search_run.moc"
