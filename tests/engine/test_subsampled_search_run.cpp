// tuning::run_subsampled_search, the one implementation of release mode private-subsampled that
// `dplab-cli tune` and the GUI share (issue #32): the hook sees the tuning phase's runner, then
// the final run's (each followed by nullptr); the released results are ONE final run with the full
// n as training size; a search that draws K = 0 trains nothing and releases nothing; repeats R
// runs R whole procedures (replicates_are_whole_procedures); the rule on repeats is
// check_release_repeats, the same for the file, the CLI and the form (which runs R = 1).
#include <QTest>
#include <cmath>
#include <utility>
#include <vector>

#include "core/error.h"
#include "experiment/experiment_config.h"
#include "experiment/release_repeats.h"
#include "privacy/accounting/rdp_conversion.h"
#include "privacy/selection/subsampled_tuning.h"
#include "support/expect_error.h"
#include "support/test_registry.h"
#include "tuning/private_search.h"
#include "tuning/release_cost.h"
#include "tuning/runner.h"
#include "tuning/subsampled_search.h"

using namespace dplab;

namespace {

// K of the tuning search `config` draws (its plan, made before any training).
std::int64_t drawn_runs(const experiment::ExperimentConfig& config,
                        const data::TrainValidationSplit& data) {
  const auto splits = tuning::split_for_subsampled_tuning(config, data);
  const auto tuning_config = tuning::tuning_phase_config(config, splits.full_training_size);
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

  // repeats = 3 (refused before issue #32's replicates): three whole procedures, each from
  // subsampled_replicate_seed(seed, r) — replicate 0 is exactly the single procedure, replicates
  // 1 and 2 are the single procedure run at their seeds; the merged release has one candidate
  // and one job per replicate that trained a final run, and the hook sees 3 x 2 phases.
  void replicates_are_whole_procedures() {
    experiment::ExperimentConfig config = experiment::parse_experiment_text(R"({"name": "t",
        "dataset": {"source": "synthetic-binary", "num_samples": 1000, "dim": 4},
        "model": {"kind": "logistic"}, "privacy": {"noise_multiplier": 1, "lot_size": 50,
        "steps": 20}, "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5],
        "clip": [1]}}], "seed": 3, "repeats": 3, "release": {"mode": "private-subsampled",
        "tuning_fraction": 0.5, "ps_mu": 4}})");
    const auto data = tuning::load_experiment_data(config);
    tuning::RunOptions options;
    options.threads = 1;
    int phases = 0;
    tuning::SubsampledRunHooks hooks;
    hooks.on_runner = [&](tuning::Runner* runner, bool) { phases += runner ? 1 : 0; };
    const tuning::SubsampledRun run = tuning::run_subsampled_search(config, data, options, hooks);
    QCOMPARE(run.replicates.size(), std::size_t{3});
    QCOMPARE(run.final_plan.replicates.size(), std::size_t{3});
    QCOMPARE(run.final_results.config.repeats, 3);
    std::int64_t finals = 0, runs = 0;
    experiment::ExperimentConfig single = config;
    single.repeats = 1;
    for (int r = 0; r < 3; ++r) {
      single.seed = tuning::subsampled_replicate_seed(config.seed, r);
      const tuning::SubsampledRun alone = tuning::run_subsampled_search(single, data, options);
      QCOMPARE(run.replicates[static_cast<std::size_t>(r)].subset_size, alone.subset_size);
      QCOMPARE(run.replicates[static_cast<std::size_t>(r)].runs_trained, alone.runs_trained);
      QCOMPARE(run.replicates[static_cast<std::size_t>(r)].has_final, alone.has_final);
      runs += alone.runs_trained;
      const auto& rep = run.final_plan.replicates[static_cast<std::size_t>(r)];
      QCOMPARE(rep.candidates.size(), std::size_t{alone.has_final ? 1u : 0u});
      if (!alone.has_final) continue;
      // Same code path: bit for bit.
      const auto& job = run.final_results.jobs.at(static_cast<std::size_t>(rep.first_job));
      QCOMPARE(job.final_val_accuracy, alone.final_results.jobs[0].final_val_accuracy);
      QCOMPARE(run.final_results.candidates.at(static_cast<std::size_t>(rep.candidates[0])).label(),
               alone.final_results.candidates[0].label());
      ++finals;
    }
    QCOMPARE(tuning::subsampled_replicate_seed(config.seed, 0), config.seed);
    QCOMPARE(run.runs_trained, runs);
    QVERIFY(finals >= 2);  // mu = 4: K = 0 has probability e^-4
    QCOMPARE(static_cast<std::int64_t>(run.final_results.jobs.size()), finals);
    QCOMPARE(experiment::expand_candidates(run.final_results.config).size(),
             static_cast<std::size_t>(finals));
    int searched = 0;
    for (const auto& r : run.replicates) searched += r.runs_trained > 0 ? 1 : 0;
    QCOMPARE(phases, searched + static_cast<int>(finals));
    // The three replicates drew different subsets (their own seeds).
    QVERIFY(run.replicates[0].subset_size != run.replicates[1].subset_size ||
            run.replicates[1].subset_size != run.replicates[2].subset_size);
    const tuning::PrivateRelease release = tuning::select_private_winners(
        run.final_results, run.final_plan, tuning::score_noise_seed(config.seed));
    QCOMPARE(static_cast<std::int64_t>(release.released), finals);

    // Epsilon: one procedure's RDP curve composed 3 times, converted at delta; one replicate's
    // is the single procedure's, exactly (same code path).
    const tuning::ReleaseCost cost = tuning::release_cost(run.final_results);
    single.seed = config.seed;
    const tuning::SubsampledRun alone = tuning::run_subsampled_search(single, data, options);
    const tuning::ReleaseCost one = tuning::release_cost(alone.final_results);
    QCOMPARE(cost.replicates, 3);
    QCOMPARE(cost.composition, std::string("rdp"));
    QCOMPARE(cost.epsilon_per_replicate, one.epsilon);
    const auto& m = run.final_results.mechanism;
    privacy::SubsampledTuningSetting setting;
    setting.tuning_fraction = 0.5;
    setting.law.mu = 4;
    const std::vector<double> orders = privacy::rdp_orders();
    const auto curve = privacy::rdp_curve(m.noise_multiplier, m.sampling_rate);  // same rate
    std::vector<double> steps(curve->rdp_per_step);
    for (double& v : steps) v *= static_cast<double>(m.steps);
    const auto curves = privacy::subsampled_tuning_rdp(orders, steps, steps, setting);
    std::vector<double> three(curves.total_rdp);
    for (double& v : three) v *= 3.0;
    const double expected = privacy::epsilon_from_rdp(curves.orders, three, cost.delta).epsilon;
    QVERIFY2(std::abs(cost.epsilon - expected) <= 1e-12 * expected,
             qPrintable(QString("%1 vs %2").arg(cost.epsilon).arg(expected)));
    // Composition costs more than one procedure and less than basic composition's 3 eps.
    QVERIFY(cost.epsilon > one.epsilon && cost.epsilon < 3.0 * one.epsilon);
    QVERIFY(tuning::epsilon_label(cost).find("total over 3 replicate searches") !=
            std::string::npos);
  }

  void repeats_rule_and_wrong_inputs() {
    experiment::ReleaseConfig release;
    experiment::check_release_repeats(release, 5);  // not subsampled: any R
    release.mode = experiment::ReleaseMode::kPrivate;
    release.selection = experiment::PrivateSelection::kPs;
    release.subsampled = true;
    experiment::check_release_repeats(release, 1);
    experiment::check_release_repeats(release, 3);  // the file and the CLI: R procedures
    QVERIFY(testing::error_of<ParseError>([&] {
              experiment::check_release_repeats(release, 0, "repeats");
            }).contains(">= 1"));
    // The GUI runs one procedure.
    const QString message = testing::error_of<ParseError>(
        [&] { experiment::check_release_repeats(release, 2, "repeats", true); });
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
