// Release mode private-linear-scaling (Panda et al. 2024;
// privacy/selection/linear_scaling_tuning.h, tuning/linear_scaling_search.h):
//   - the fit: the line through two points by hand, and the falling-line rule;
//   - the trial budgets: each trial run within f_i eps_f, and not far below it;
//   - the epsilon equals an INDEPENDENT composition: at q = 1 the closed form of Gaussian RDP
//     (alpha / (2 sigma^2) per step) order by order, and against the exact Gaussian mechanism;
//     at q < 1 the PLD accountant's composition of the three heterogeneous runs (a tighter
//     accountant: it must lie below the RDP bound, and not far);
//   - a real run: three phases in order, the released results are ONE final run at eta_f = r_f/T
//     of round 2's winner, and release_cost of them is the whole procedure's epsilon;
//   - the file's rules: round trip, errors naming the field, repeats 1.
#include <QTest>
#include <cmath>
#include <vector>

#include "core/error.h"
#include "experiment/experiment_config.h"
#include "experiment/release_repeats.h"
#include "privacy/accounting/pld/pld_accountant.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/mechanisms/gaussian_mechanism.h"
#include "privacy/selection/linear_scaling_tuning.h"
#include "release/linear_scaling_release.h"
#include "support/expect_error.h"
#include "support/test_registry.h"
#include "tuning/experiment_data.h"
#include "tuning/linear_scaling_search.h"
#include "tuning/release_cost.h"

using namespace dplab;

namespace {

const char* kExperiment = R"({"name": "ls",
    "dataset": {"source": "synthetic-binary", "num_samples": 1200, "dim": 4},
    "model": {"kind": "logistic"}, "privacy": {"noise_multiplier": 1.0, "lot_size": 60,
    "steps": 40}, "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.05, 0.2, 0.8],
    "clip": [0.5, 2]}}], "seed": 3, "release": {"mode": "private-linear-scaling",
    "trial_fractions": [0.2, 0.4]}})";

}  // namespace

class TestLinearScaling : public QObject {
  Q_OBJECT
 private slots:
  void the_line_through_two_points() {
    // (1, 2) and (2, 3): slope 1, so r(5) = 6.
    QCOMPARE(privacy::extrapolate_radius(1, 2, 2, 3, 5), 6.0);
    // (0.5, 10) and (1.5, 12): slope 2, r(4) = 12 + 2 * 2.5 = 17.
    QVERIFY(std::abs(privacy::extrapolate_radius(0.5, 10, 1.5, 12, 4) - 17.0) < 1e-12);
    // A falling line that would reach r <= 0 keeps r_2: (1, 10), (2, 4) at eps 4 gives -8.
    QCOMPARE(privacy::extrapolate_radius(1, 10, 2, 4, 4), 4.0);
    // A falling line still above 0 is used: (1, 10), (2, 8) at 3 gives 6.
    QVERIFY(std::abs(privacy::extrapolate_radius(1, 10, 2, 8, 3) - 6.0) < 1e-12);
    QVERIFY(testing::error_of<InvalidArgument>([] {
              privacy::extrapolate_radius(2, 1, 1, 1, 3);
            }).contains("eps_2"));
    QVERIFY(testing::error_of<InvalidArgument>([] {
              privacy::extrapolate_radius(1, 0, 2, 1, 3);
            }).contains("r_1"));
  }

  void trial_budgets_are_met_from_the_safe_side() {
    const privacy::SubsampledGaussian run{1.1, 0.01, 2000};
    const double delta = 1e-5;
    privacy::LinearScalingSetting s;
    s.trial_fraction_low = 0.1;
    s.trial_fraction_high = 0.3;
    const auto b = privacy::linear_scaling_budgets(run, delta, s);
    QVERIFY(std::abs(b.final_epsilon - privacy::epsilon_for_delta(run, delta).epsilon) < 1e-12);
    for (int i = 0; i < 2; ++i) {
      const double target = (i == 0 ? 0.1 : 0.3) * b.final_epsilon;
      QVERIFY(std::abs(b.trial_epsilon[i] - target) < 1e-12);
      const double reached =
          privacy::epsilon_for_delta({b.trial_noise[i], run.sampling_rate, run.steps}, delta)
              .epsilon;
      QVERIFY2(
          reached <= target && reached > 0.99 * target,
          qPrintable(QString("round %1: eps %2 for target %3").arg(i).arg(reached).arg(target)));
    }
    QVERIFY(b.trial_noise[0] > b.trial_noise[1] && b.trial_noise[1] > run.noise_multiplier);
    s.trial_fraction_high = 0.05;  // f2 < f1
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              privacy::linear_scaling_budgets(run, delta, s);
            }).contains("trial_fractions[1]"));
  }

  void epsilon_is_the_composition_of_every_run_full_batch() {
    // q = 1: one step of the Gaussian mechanism (sensitivity 1, std sigma) has RDP alpha/(2
    // sigma^2) (Mironov 2017 Prop. 7), so the procedure's RDP is alpha/2 * S with
    // S = K T / sigma_1^2 + K T / sigma_2^2 + T / sigma_f^2: the curve of ONE Gaussian mechanism
    // of std 1/sqrt(S), whose exact (eps, delta) (Balle & Wang 2018) is a lower bound.
    const privacy::SubsampledGaussian run{20.0, 1.0, 50};
    const double delta = 1e-6;
    privacy::LinearScalingSetting s;
    s.candidates = 6;
    const auto cost = privacy::linear_scaling_cost(run, delta, s);
    const double k = 6, t = 50;
    const double sum = k * t / std::pow(cost.budgets.trial_noise[0], 2) +
                       k * t / std::pow(cost.budgets.trial_noise[1], 2) +
                       t / std::pow(run.noise_multiplier, 2);
    for (std::size_t i = 0; i < cost.orders.size(); i += 37) {
      const double expected = cost.orders[i] / 2.0 * sum;
      QVERIFY2(
          std::abs(cost.rdp[i] - expected) <= 1e-9 * expected,
          qPrintable(
              QString("order %1: %2 vs %3").arg(cost.orders[i]).arg(cost.rdp[i]).arg(expected)));
    }
    const double exact = privacy::analytic_gaussian_epsilon(1.0 / std::sqrt(sum), delta);
    QVERIFY2(cost.epsilon >= exact && cost.epsilon < 1.3 * exact,
             qPrintable(QString("rdp %1, exact %2").arg(cost.epsilon).arg(exact)));
    QVERIFY(cost.epsilon > cost.epsilon_final && cost.epsilon > cost.epsilon_trials);
  }

  void epsilon_is_the_composition_of_every_run_subsampled() {
    // q < 1: the PLD accountant composes the 2K trial runs and the final run on its own grid;
    // RDP is an upper bound on the same composition, a little looser.
    const privacy::SubsampledGaussian run{1.0, 0.02, 300};
    const double delta = 1e-5;
    privacy::LinearScalingSetting s;
    s.candidates = 4;
    const auto cost = privacy::linear_scaling_cost(run, delta, s);
    const std::vector<privacy::SubsampledGaussian> runs{
        {cost.budgets.trial_noise[0], run.sampling_rate, 4 * run.steps},
        {cost.budgets.trial_noise[1], run.sampling_rate, 4 * run.steps},
        run};
    const double pld = privacy::pld_epsilon_for_delta(runs, delta).epsilon;
    QVERIFY2(cost.epsilon >= pld && cost.epsilon < 1.25 * pld,
             qPrintable(QString("rdp %1, pld %2").arg(cost.epsilon).arg(pld)));
    // Leaving out the trials (K = 0 in effect) would be below the final run alone plus nothing:
    // the trials must cost something.
    QVERIFY(cost.epsilon > cost.epsilon_final * 1.01);
  }

  void a_run_releases_one_final_run_at_the_extrapolated_rate() {
    const auto config = experiment::parse_experiment_text(kExperiment);
    const auto data = tuning::load_experiment_data(config);
    tuning::RunOptions options;
    options.threads = 1;
    options.keep_models = true;
    std::vector<int> phases;
    tuning::LinearScalingRunHooks hooks;
    hooks.on_runner = [&](tuning::Runner* runner, int phase) {
      phases.push_back(runner ? phase : -1 - phase);
    };
    const auto run = tuning::run_linear_scaling_search(config, data, options, hooks);
    QCOMPARE(phases, (std::vector<int>{0, -1, 1, -2, 2, -3}));
    QVERIFY(run.has_final && !run.cancelled);
    QCOMPARE(run.trial_runs, std::int64_t{12});
    QCOMPARE(run.final_results.candidates.size(), std::size_t{1});
    QCOMPARE(run.final_results.jobs.size(), std::size_t{1});
    const auto& fit = run.fit;
    QCOMPARE(fit.steps, std::int64_t{40});
    // r_i = eta_i T, the line evaluated at eps_f, eta_f = r_f / T, and the final candidate's
    // learning rate is eta_f with round 2's clip.
    QCOMPARE(fit.radius[0], fit.learning_rate[0] * 40);
    QCOMPARE(fit.radius[1], fit.learning_rate[1] * 40);
    QCOMPARE(fit.final_radius,
             privacy::extrapolate_radius(fit.budgets.trial_epsilon[0], fit.radius[0],
                                         fit.budgets.trial_epsilon[1], fit.radius[1],
                                         fit.budgets.final_epsilon));
    const auto& final_candidate = run.final_results.candidates[0];
    QVERIFY(std::abs(final_candidate.optimizer.learning_rate - fit.final_radius / 40) < 1e-15);
    const auto grid = experiment::expand_candidates(config);
    QCOMPARE(final_candidate.clip, grid[static_cast<std::size_t>(run.round_winner[1])].clip);
    // The final run's cost is the whole procedure's: the config carries K = 6.
    QCOMPARE(run.final_results.config.release.trial_candidates, 6);
    const tuning::ReleaseCost cost = tuning::release_cost(run.final_results);
    privacy::LinearScalingSetting s;
    s.trial_fraction_low = 0.2;
    s.trial_fraction_high = 0.4;
    s.candidates = 6;
    const auto expected = privacy::linear_scaling_cost(
        {1.0, 60.0 / static_cast<double>(data->train.size()), 40}, cost.delta, s);
    QVERIFY(std::abs(cost.epsilon - expected.epsilon) < 1e-12 * expected.epsilon);
    QVERIFY(cost.covers.find("linear scaling: 6 candidates") != std::string::npos);
    // The plan (before running) says the same epsilon.
    const auto planned = tuning::planned_release_cost(config, data->train.size(), 0);
    QVERIFY(std::abs(planned.epsilon - cost.epsilon) < 1e-12 * cost.epsilon);
    // What is released: the winner and the fit, no trial score.
    const release::Release released = release::linear_scaling_release(run, config.name);
    QVERIFY(released.released.contains("linear_scaling_fit"));
    QCOMPARE(released.released["linear_scaling_fit"]["final_learning_rate"].get<double>(),
             fit.final_learning_rate);
    QVERIFY(released.released.dump().find("winner_score") == std::string::npos);
    QCOMPARE(released.models.size(), std::size_t{1});
  }

  void file_rules() {
    const auto config = experiment::parse_experiment_text(kExperiment);
    QVERIFY(config.release.linear_scaling);
    QCOMPARE(config.release.selection, experiment::PrivateSelection::kMa);
    const auto again = experiment::parse_experiment(experiment::to_json(config));
    QVERIFY(again.release == config.release);
    QVERIFY(experiment::describe_release(config.release).find("private-linear-scaling") == 0);
    auto with_release = [](const char* release) {
      std::string text = kExperiment;
      const auto at = text.find("\"release\"");
      text = text.substr(0, at) + "\"release\": " + release + "}";
      return text;
    };
    QVERIFY(testing::error_of<ParseError>([&] {
              experiment::parse_experiment_text(with_release(
                  R"({"mode": "private-linear-scaling", "trial_fractions": [0.5, 0.2]})"));
            }).contains("release.trial_fractions"));
    QVERIFY(testing::error_of<ParseError>([&] {
              experiment::parse_experiment_text(
                  with_release(R"({"mode": "private", "trial_fractions": [0.1, 0.2]})"));
            }).contains("need mode \"private-linear-scaling\""));
    QVERIFY(testing::error_of<ParseError>([&] {
              experiment::parse_experiment_text(
                  with_release(R"({"mode": "private-linear-scaling", "selection": "lt"})"));
            }).contains("ma only"));
    QVERIFY(testing::error_of<ParseError>([&] {
              experiment::parse_experiment_text(with_release(
                  R"({"mode": "private-linear-scaling", "validation": "private",
                      "validation_noise_multiplier": 1})"));
            }).contains("release.validation"));
    QVERIFY(testing::error_of<ParseError>([&] {
              experiment::check_release_repeats(config.release, 3, "repeats");
            }).contains("repeats must be 1"));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestLinearScaling)
#include "test_linear_scaling.moc"
