// Release modes (engine/tuning/private_search.h, release_cost.h, run_count_laws.h):
// - the number of runs a private search trains follows its law (chi-square over many seeded
//   replicate draws): Geometric(gamma) truncated at the integer hard stop (LT), Poisson(mu) and
//   truncated negative binomial (PS); candidates are uniform;
// - the released winner is the best of the runs trained in that replicate (cheap synthetic
//   jobs with known scores);
// - a real pool trained in each mode is charged exactly what it released: the epsilon is
//   recomputed independently from the per-step RDP curve over exactly the runs trained.
#include <QTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "core/error.h"
#include "core/random.h"
#include "experiment/release_config.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/selection/papernot_steinke.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/private_search.h"
#include "tuning/release_cost.h"
#include "tuning/run_count_laws.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;
using experiment::PrivateSelection;
using experiment::ReleaseMode;

namespace {

// Pearson chi-square of observed counts against a pmf over k = first.., tail pooled so that every
// bin expects >= 5; returns {statistic, degrees of freedom}.
std::pair<double, int> chi_square(const std::vector<std::int64_t>& counts, std::int64_t first,
                                  const std::function<double(std::int64_t)>& pmf, std::int64_t n) {
  double stat = 0.0, tail_expected = 1.0;
  std::int64_t tail_observed = n;
  int bins = 0;
  for (std::int64_t k = first;; ++k) {
    const double expected = n * pmf(k);
    if (expected < 5.0 || n * (tail_expected - pmf(k)) < 5.0) break;
    const std::int64_t observed =
        k < static_cast<std::int64_t>(counts.size()) ? counts[static_cast<std::size_t>(k)] : 0;
    stat += (observed - expected) * (observed - expected) / expected;
    tail_expected -= pmf(k);
    tail_observed -= observed;
    ++bins;
  }
  const double e = n * tail_expected;
  stat += (tail_observed - e) * (tail_observed - e) / e;
  return {stat, bins};  // bins + 1 cells, minus 1
}

// Wilson-Hilferty upper quantile of chi-square(df) at p = 1e-4 (z = 3.719).
double critical(int df) {
  const double k = df, z = 3.719;
  const double t = 1.0 - 2.0 / (9.0 * k) + z * std::sqrt(2.0 / (9.0 * k));
  return k * t * t * t;
}

void expect_law(const std::vector<std::int64_t>& counts, std::int64_t first,
                const std::function<double(std::int64_t)>& pmf, std::int64_t n, const char* what) {
  const auto [stat, df] = chi_square(counts, first, pmf, n);
  QVERIFY2(df >= 2, what);
  if (!(stat < critical(df))) {
    QFAIL(qPrintable(QString("%1: chi-square %2 >= critical %3 (df %4)")
                         .arg(what)
                         .arg(stat)
                         .arg(critical(df))
                         .arg(df)));
  }
}

experiment::ExperimentConfig private_config(PrivateSelection selection, int repeats,
                                            int steps = 50) {
  auto config = testing::tiny_experiment(steps, 1);
  config.repeats = repeats;  // many replicates: beyond what an experiment file may ask for
  config.release.mode = ReleaseMode::kPrivate;
  config.release.selection = selection;
  return config;
}

// Run counts of `plan`'s replicates.
std::vector<std::int64_t> histogram(const PrivatePlan& plan) {
  std::vector<std::int64_t> counts;
  for (const auto& rep : plan.replicates) {
    const auto k = static_cast<std::size_t>(rep.candidates.size());
    if (counts.size() <= k) counts.resize(k + 1, 0);
    ++counts[k];
  }
  return counts;
}

// Independent epsilon: the per-step curve times the steps of every run, improved conversion,
// minimum over the grid (no interpolation, no shared code beyond the per-step RDP).
double manual_epsilon(double sigma, double q, double total_steps, double delta,
                      double extra_per_alpha = 0.0) {
  const auto curve = privacy::rdp_curve(sigma, q);
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < curve->orders.size(); ++i) {
    const double a = curve->orders[i];
    const double r = total_steps * curve->rdp_per_step[i] + extra_per_alpha * a;
    best = std::min(best, r + std::log((a - 1) / a) - (std::log(delta) + std::log(a)) / (a - 1));
  }
  return std::max(best, 0.0);
}

}  // namespace

class TestReleaseModes : public QObject {
  Q_OBJECT
 private slots:
  void lt_run_count_is_truncated_geometric() {
    auto config = private_config(PrivateSelection::kLt, 20'000);
    config.tuning.gamma = 0.15;
    config.tuning.delta2 = 0.2;  // Upsilon = ceil(ln 5 / 0.15) = 11: the truncation matters
    const PrivatePlan plan = draw_private_plan(config, 5, 7);
    QCOMPARE(plan.hard_stop, std::int64_t{11});
    const auto counts = histogram(plan);
    QVERIFY(counts.size() <= 12);  // never beyond the hard stop
    QVERIFY(counts[11] > 0);       // and it is reached (P = 0.85^10 = 0.197)
    expect_law(
        counts, 1, [](std::int64_t k) { return truncated_geometric_pmf(k, 0.15, 11); }, 20'000,
        "lt");
    // The check can fail: the untruncated geometric is rejected.
    const auto [stat, df] = chi_square(
        counts, 1, [](std::int64_t k) { return 0.15 * std::pow(0.85, k - 1); }, 20'000);
    QVERIFY(stat > critical(df));
    // Candidates are uniform over the pool.
    std::vector<std::int64_t> per_candidate(5, 0);
    std::int64_t runs = 0;
    for (const auto& job : plan.jobs) {
      ++per_candidate[static_cast<std::size_t>(job.candidate)];
      ++runs;
    }
    double stat_c = 0;
    for (auto c : per_candidate) stat_c += (c - runs / 5.0) * (c - runs / 5.0) / (runs / 5.0);
    QVERIFY(stat_c < critical(4));
  }

  void ps_run_count_is_poisson_or_tnb() {
    auto config = private_config(PrivateSelection::kPs, 20'000);
    config.release.ps_mu = 4.0;
    const auto poisson = histogram(draw_private_plan(config, 5, 11));
    expect_law(
        poisson, 0, [](std::int64_t k) { return poisson_pmf(k, 4.0); }, 20'000, "poisson");
    QVERIFY(poisson[0] > 0);  // K = 0 happens (e^-4 = 1.8%): nothing trained, nothing released
    config.release.ps_distribution = experiment::RunCountDistribution::kTruncatedNegativeBinomial;
    for (double eta : {-0.5, 0.0, 0.5, 2.0}) {
      config.release.ps_eta = eta;
      config.release.ps_gamma = 0.25;
      const auto tnb = histogram(draw_private_plan(config, 5, 13));
      QCOMPARE(tnb[0], std::int64_t{0});
      expect_law(
          tnb, 1, [eta](std::int64_t k) { return truncated_negative_binomial_pmf(k, eta, 0.25); },
          20'000, "tnb");
      // The sample mean matches Papernot & Steinke's E[K].
      double sum = 0;
      for (std::size_t k = 0; k < tnb.size(); ++k) sum += static_cast<double>(k) * tnb[k];
      const double mean = privacy::truncated_negative_binomial_mean(eta, 0.25);
      QVERIFY(std::abs(sum / 20'000 - mean) < 0.1 * mean);
    }
  }

  void plans_are_seeded_and_runs_are_fresh() {
    const auto config = private_config(PrivateSelection::kLt, 3);
    const PrivatePlan a = draw_private_plan(config, 5, 99), b = draw_private_plan(config, 5, 99);
    QCOMPARE(a.jobs.size(), b.jobs.size());
    for (std::size_t i = 0; i < a.jobs.size(); ++i) QCOMPARE(a.jobs[i].seed, b.jobs[i].seed);
    // Every run has its own seed, even when the same candidate is drawn twice.
    for (std::size_t i = 0; i < a.jobs.size(); ++i) {
      for (std::size_t j = i + 1; j < a.jobs.size(); ++j) QVERIFY(a.jobs[i].seed != a.jobs[j].seed);
    }
    const auto ma = draw_private_plan(private_config(PrivateSelection::kMa, 2), 5, 1);
    QCOMPARE(ma.jobs.size(), std::size_t{10});  // each candidate once per replicate
    QCOMPARE(ma.replicates[1].candidates, (std::vector<int>{0, 1, 2, 3, 4}));
  }

  void winner_is_best_of_the_runs_trained() {
    for (PrivateSelection selection : {PrivateSelection::kLt, PrivateSelection::kPs}) {
      auto config = private_config(selection, 2'000);
      SearchResults results;
      results.config = config;
      results.candidates = experiment::expand_candidates(config);
      results.validation_size = 100;
      const PrivatePlan plan = draw_private_plan(config, 5, 3);
      Rng rng(5);
      for (const auto& planned : plan.jobs) {
        JobResult job;
        job.candidate = planned.candidate;
        job.repeat = planned.repeat;
        job.status = JobStatus::kFinished;
        job.final_val_accuracy = std::floor(rng.uniform() * 20) / 20;  // ties are common
        results.jobs.push_back(job);
      }
      const PrivateRelease release = select_private_winners(results, plan, 0);
      QCOMPARE(release.replicates.size(), std::size_t{2'000});
      double sum = 0;
      int released = 0;
      for (std::size_t r = 0; r < plan.replicates.size(); ++r) {
        const auto& rep = plan.replicates[r];
        const auto& rel = release.replicates[r];
        QCOMPARE(rel.runs_trained, static_cast<std::int64_t>(rep.candidates.size()));
        if (rep.candidates.empty()) {
          QCOMPARE(rel.winner_candidate, -1);
          continue;
        }
        std::int64_t best = rep.first_job;
        for (std::size_t j = 0; j < rep.candidates.size(); ++j) {
          const auto index = rep.first_job + static_cast<std::int64_t>(j);
          if (results.jobs[static_cast<std::size_t>(index)].final_val_accuracy >
              results.jobs[static_cast<std::size_t>(best)].final_val_accuracy) {
            best = index;
          }
        }
        QCOMPARE(rel.winner_job, best);  // the best, the earliest draw on ties
        QCOMPARE(rel.winner_candidate, results.jobs[static_cast<std::size_t>(best)].candidate);
        QCOMPARE(rel.released_score,
                 results.jobs[static_cast<std::size_t>(best)].final_val_accuracy);
        sum += rel.released_score;
        ++released;
      }
      QCOMPARE(release.released, released);
      DPLAB_COMPARE_REL(release.mean_score, sum / released, 1e-12);
      QVERIFY(release.ci_low < release.mean_score && release.mean_score < release.ci_high);
    }
  }

  void incomplete_replicate_releases_nothing() {
    const auto config = private_config(PrivateSelection::kMa, 1);
    SearchResults results;
    results.config = config;
    results.candidates = experiment::expand_candidates(config);
    const PrivatePlan plan = draw_private_plan(config, 5, 3);
    for (const auto& planned : plan.jobs) {
      JobResult job;
      job.candidate = planned.candidate;
      job.status = JobStatus::kFinished;
      job.final_val_accuracy = 0.5;
      results.jobs.push_back(job);
    }
    results.jobs[3].status = JobStatus::kCancelled;
    const auto release = select_private_winners(results, plan, 0);
    QCOMPARE(release.replicates[0].complete, false);
    QCOMPARE(release.replicates[0].winner_candidate, -1);
    QCOMPARE(release.released, 0);
  }

  void explore_charges_every_run_trained() {
    const auto config = testing::tiny_experiment(50, 3);  // 5 candidates x 3 repeats
    Runner runner(config, load_experiment_data(config), RunOptions{2, false});
    const SearchResults results = runner.run();
    const ReleaseCost cost = release_cost(results);
    QCOMPARE(cost.runs_charged, std::int64_t{15});
    QCOMPARE(cost.total_queries, std::int64_t{15 * 50});
    const auto& m = results.mechanism;
    const double manual = manual_epsilon(m.noise_multiplier, m.sampling_rate, 15 * 50, m.delta);
    QVERIFY(cost.epsilon <= manual * (1 + 1e-12));  // interpolated orders may only be tighter
    QVERIFY(cost.epsilon >= manual * (1 - 1e-3));
    // The old K-only number (5 candidates) is far below what the 15 runs cost.
    QVERIFY(manual_epsilon(m.noise_multiplier, m.sampling_rate, 5 * 50, m.delta) <
            0.8 * cost.epsilon);
    QVERIFY(epsilon_label(cost).find("explore") != std::string::npos);
    QVERIFY(epsilon_label(cost).find("validation: public") != std::string::npos);
  }

  void realized_lot_caveat_is_in_the_epsilon_label() {
    // Explore with the reproduction variant lot_normalization = realized: the epsilon's own
    // label (hence every CSV comment, the history and the GUI) says what it does not cover.
    auto config = testing::tiny_experiment(50, 3);
    QVERIFY(epsilon_label(planned_release_cost(config, 1000, 100)).find("NOT covered") ==
            std::string::npos);
    config.variants.divide_by_realized_lot = true;
    const ReleaseCost cost = planned_release_cost(config, 1000, 100);
    QVERIFY2(epsilon_label(cost).find("NOT covered: the runs divided by the realised |lot|") !=
                 std::string::npos,
             epsilon_label(cost).c_str());
    QVERIFY(epsilon_csv_label(cost).find("realised |lot|") != std::string::npos);
  }

  void private_modes_charge_what_they_release() {
    for (PrivateSelection selection :
         {PrivateSelection::kMa, PrivateSelection::kLt, PrivateSelection::kPs}) {
      auto config = private_config(selection, 1);
      config.tuning.gamma = 0.5;
      config.release.ps_mu = 2.0;
      const PrivatePlan plan = draw_private_plan(config, 5, config.seed);
      RunOptions options{2, false};
      options.plan = plan.jobs;
      Runner runner(config, load_experiment_data(config), options);
      const SearchResults results = runner.run();
      QCOMPARE(results.jobs.size(), plan.jobs.size());  // trained exactly the drawn runs
      for (const auto& job : results.jobs) QCOMPARE(job.status, JobStatus::kFinished);
      const ReleaseCost cost = release_cost(results);
      const auto& m = results.mechanism;
      const double d = m.delta;
      if (selection == PrivateSelection::kMa) {
        QCOMPARE(results.jobs.size(), std::size_t{5});
        const double manual = manual_epsilon(m.noise_multiplier, m.sampling_rate, 5 * 50, d);
        QVERIFY(cost.epsilon <= manual * (1 + 1e-12) && cost.epsilon >= manual * (1 - 1e-3));
      } else if (selection == PrivateSelection::kLt) {
        // Upsilon = ceil(ln(1/delta2)/gamma) = ceil(46.05/0.5) = 93; delta1 from it.
        QCOMPARE(cost.hard_stop, std::int64_t{93});
        const double root = (d - 1e-20) / 93.0;
        const double eps1 =
            manual_epsilon(m.noise_multiplier, m.sampling_rate, 50, root * root / 2);
        DPLAB_COMPARE_REL(cost.epsilon, 3 * eps1 + 3 * root, 1e-12);
      } else {
        const auto curve = privacy::rdp_curve(m.noise_multiplier, m.sampling_rate);
        std::vector<double> rdp(curve->rdp_per_step);
        for (double& r : rdp) r *= 50;
        DPLAB_COMPARE_REL(cost.epsilon,
                          privacy::papernot_steinke_poisson(curve->orders, rdp, 2.0, d).epsilon,
                          1e-12);
        QCOMPARE(cost.expected_runs, 2.0);
      }
      const auto release = select_private_winners(results, plan, 1);
      if (!plan.jobs.empty()) {
        QVERIFY(release.replicates[0].winner_job >= 0);
      }
    }
  }

  void private_validation_is_charged_per_run() {
    auto config = private_config(PrivateSelection::kMa, 1);
    config.release.validation = experiment::ValidationAssumption::kPrivate;
    config.release.validation_noise_multiplier = 2.0;
    SearchResults results;
    results.config = config;
    results.candidates = experiment::expand_candidates(config);
    results.mechanism = {1.0, 50.0 / 480.0, 50, 1e-3};
    results.validation_size = 120;
    const ReleaseCost noisy = release_cost(results);
    // 5 runs, each: 50 DP-SGD steps + one Gaussian score with sensitivity 1/n_val, std 2/n_val.
    const double manual = manual_epsilon(1.0, 50.0 / 480.0, 5 * 50, 1e-3, 5.0 / (2.0 * 4.0));
    DPLAB_COMPARE_REL(noisy.epsilon, manual, 1e-12);
    config.release.validation = experiment::ValidationAssumption::kPublic;
    results.config = config;
    QVERIFY(release_cost(results).epsilon < noisy.epsilon);
    QVERIFY(epsilon_label(noisy).find("validation: private") != std::string::npos);
    // The released score is noisy (std 2/120) and seeded.
    const PrivatePlan plan = draw_private_plan(results.config, 5, 1);
    for (const auto& planned : plan.jobs) {
      JobResult job;
      job.candidate = planned.candidate;
      job.status = JobStatus::kFinished;
      job.final_val_accuracy = 0.5;
      results.jobs.push_back(job);
    }
    results.config.release.validation = experiment::ValidationAssumption::kPrivate;
    const auto a = select_private_winners(results, plan, 4),
               b = select_private_winners(results, plan, 4);
    QVERIFY(a.replicates[0].released_score != 0.5);
    QVERIFY(std::abs(a.replicates[0].released_score - 0.5) < 6 * 2.0 / 120);
    QCOMPARE(a.replicates[0].released_score, b.replicates[0].released_score);
  }

  void explore_refuses_private_validation_and_secure() {
    nlohmann::json j{
        {"mode", "explore"}, {"validation", "private"}, {"validation_noise_multiplier", 1.0}};
    QVERIFY_THROWS_EXCEPTION(dplab::ParseError, experiment::parse_release(j));
    const nlohmann::json secure_explore = nlohmann::json::parse(R"({"secure": true})");
    const nlohmann::json small_mu = nlohmann::json::parse(R"({"mode": "private", "ps_mu": 0.5})");
    const nlohmann::json typo = nlohmann::json::parse(R"({"mood": "private"})");
    QVERIFY_THROWS_EXCEPTION(dplab::ParseError, experiment::parse_release(secure_explore));
    QVERIFY_THROWS_EXCEPTION(dplab::ParseError, experiment::parse_release(small_mu));
    QVERIFY_THROWS_EXCEPTION(dplab::ParseError, experiment::parse_release(typo));
    // Round trip through the experiment JSON.
    auto config = private_config(PrivateSelection::kPs, 2);
    config.release.ps_distribution = experiment::RunCountDistribution::kTruncatedNegativeBinomial;
    config.release.ps_eta = 0.5;
    const auto back = experiment::parse_experiment(experiment::to_json(config));
    QVERIFY(back.release == config.release);
  }
};

DPLAB_TEST_GUILESS_MAIN(TestReleaseModes)
#include "test_release_modes.moc"
