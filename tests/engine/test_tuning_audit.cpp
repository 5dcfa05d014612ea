// The audit of a tuning release (release/tuning_audit.h): the whole private search is the audited
// mechanism, one canary set for the whole search, the released winner's final model scored.
//   - a search that is private in name only (sigma = 0.01: a huge epsilon) audits high — the
//     attack works through the search (white-box reserved coordinates, black-box crafted
//     canaries; LT, PS and private-subsampled);
//   - a private search audits to a bound below its epsilon (release_cost);
//   - every run of the search trains with the SAME canaries: in each run's own final model the
//     included canaries stand out, the same ones in every run (a per-run draw of the coins would
//     leave each run's scores matching the audit's coins only half of the time);
//   - what cannot be audited is refused with a reason.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "core/error.h"
#include "experiment/experiment_config.h"
#include "release/tuning_audit.h"
#include "support/expect_error.h"
#include "support/test_registry.h"

using namespace dplab;

namespace {

// A small search: logistic regression on synthetic data, 3 candidates, L = 300 (q ~ 0.1 of 3,200
// rows, so an included canary joins ~10 lots and misses them all with probability 3e-5), T = 100.
experiment::ExperimentConfig search(double sigma, const std::string& release, int samples = 4000) {
  return experiment::parse_experiment_text(
      R"({"name": "audited", "dataset": {"source": "synthetic-binary", "num_samples": )" +
      std::to_string(samples) + R"(, "dim": 10}, "model": {"kind": "logistic"},
      "privacy": {"noise_multiplier": )" +
      std::to_string(sigma) + R"(, "lot_size": 300, "steps": 100},
      "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.2, 0.5], "clip": [1]}},
                     {"name": "dpadam", "grid": {"clip": [1]}}],
      "seed": 5, "release": )" +
      release + "}");
}

audit::OneRunAuditOptions canaries(audit::AuditMode mode, int m = 1000) {
  audit::OneRunAuditOptions o;
  o.canaries = m;
  o.mode = mode;
  o.blackbox_canaries = audit::BlackBoxCanaries::kCrafted;
  o.seed = 11;
  return o;
}

release::TuningAuditResult audit_of(const experiment::ExperimentConfig& config,
                                    const audit::OneRunAuditOptions& options) {
  tuning::RunOptions run;
  run.threads = 2;
  return release::run_tuning_release_audit(config, options, run);
}

// Of the |in| highest scores, the fraction that belong to included canaries.
double top_share_included(const std::vector<double>& scores, const std::vector<bool>& included) {
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  const auto in = static_cast<std::size_t>(std::count(included.begin(), included.end(), true));
  std::size_t hits = 0;
  for (std::size_t k = 0; k < in; ++k) hits += included[order[k]] ? 1 : 0;
  return static_cast<double>(hits) / static_cast<double>(in);
}

}  // namespace

class TestTuningAudit : public QObject {
  Q_OBJECT
 private slots:
  // sigma = 0.01: the search's epsilon is in the thousands; the released model gives its
  // canaries away and the bound sits near the audit's ceiling.
  void a_search_private_in_name_only_audits_high() {
    struct Case {
      const char* release;
      audit::AuditMode mode;
    };
    for (const Case& c :
         {Case{R"({"mode": "private", "selection": "lt"})", audit::AuditMode::kWhiteBox},
          Case{R"({"mode": "private", "selection": "ps", "ps_mu": 3})",
               audit::AuditMode::kWhiteBox},
          Case{R"({"mode": "private", "selection": "lt"})", audit::AuditMode::kBlackBox},
          Case{R"({"mode": "private-subsampled", "tuning_fraction": 0.5,
                                   "ps_mu": 3})",
               audit::AuditMode::kWhiteBox}}) {
      const auto r = audit_of(search(0.01, c.release), canaries(c.mode));
      QVERIFY2(r.released, c.release);
      QVERIFY2(r.cost.epsilon > 100, c.release);
      QVERIFY2(r.bound.epsilon_lower_bound > 3,
               (std::string(c.release) + " " + audit::to_string(c.mode) + ": " +
                std::to_string(r.bound.epsilon_lower_bound))
                   .c_str());
      QVERIFY(r.bound.epsilon_lower_bound <= r.bound.ceiling + 1e-9);
      QVERIFY(r.bound.fdp && r.bound.fdp->epsilon_lower_bound > r.bound.epsilon_lower_bound);
      QCOMPARE(r.canaries, 1000);
      QVERIFY(r.canaries_included > 400 && r.canaries_included < 600);
    }
  }

  // sigma = 1.2: a real privacy guarantee (PS: eps ~ 6, LT ~ 30). The bound is positive (the
  // attack still sees something) and below the procedure's epsilon.
  void a_private_search_audits_below_its_epsilon() {
    for (const char* release : {R"({"mode": "private", "selection": "lt"})",
                                R"({"mode": "private", "selection": "ps", "ps_mu": 3})"}) {
      for (const audit::AuditMode mode :
           {audit::AuditMode::kWhiteBox, audit::AuditMode::kBlackBox}) {
        const auto r = audit_of(search(1.2, release), canaries(mode));
        QVERIFY(r.released);
        QVERIFY(std::isfinite(r.cost.epsilon));
        QVERIFY2(r.bound.epsilon_lower_bound < r.cost.epsilon,
                 (std::string(release) + ": " + std::to_string(r.bound.epsilon_lower_bound) +
                  " vs " + std::to_string(r.cost.epsilon))
                     .c_str());
        QVERIFY(r.bound.epsilon_lower_bound > 0.3);  // measured 0.6-0.9 against 5.4-30
      }
    }
  }

  // MA trains each of the 3 candidates once: in EVERY run's final model (never released; the
  // curator's record) the included canaries are the top scores, and they are the audit's coins.
  // (DP-SGD runs separate them perfectly; DPAdam's per-coordinate normalisation blows the tiny
  // noise on an excluded canary's coordinate up to steps of the learning rate, so its run
  // separates ~95 %.) Coins drawn per run would match the audit's in ~50 % of the top scores.
  void every_run_trains_with_the_same_canaries() {
    for (const audit::AuditMode mode : {audit::AuditMode::kWhiteBox, audit::AuditMode::kBlackBox}) {
      const auto r =
          audit_of(search(0.01, R"({"mode": "private", "selection": "ma"})"), canaries(mode, 400));
      QCOMPARE(r.runs_trained, std::int64_t{3});
      QCOMPARE(r.job_scores.size(), std::size_t{3});
      for (const auto& scores : r.job_scores) {
        QCOMPARE(scores.size(), std::size_t{400});
        QVERIFY2(top_share_included(scores, r.included) > 0.9,
                 (std::string(audit::to_string(mode)) + " " +
                  std::to_string(top_share_included(scores, r.included)))
                     .c_str());
      }
      QVERIFY(r.winner_job >= 0 && r.winner_job < 3);
      QCOMPARE(r.scores, r.job_scores[static_cast<std::size_t>(r.winner_job)]);
    }
  }

  void what_cannot_be_audited_is_refused() {
    const auto white = canaries(audit::AuditMode::kWhiteBox, 10);
    const auto refusal = [&](const experiment::ExperimentConfig& config,
                             const audit::OneRunAuditOptions& options) {
      return testing::error_of<InvalidArgument>([&] { audit_of(config, options); });
    };
    QString message = refusal(search(1, R"({"mode": "explore"})"), white);
    QVERIFY2(message.contains("explore releases every run"), qPrintable(message));
    auto replicated = search(1, R"({"mode": "private", "selection": "lt"})");
    replicated.repeats = 2;
    message = refusal(replicated, white);
    QVERIFY2(message.contains("repeats = 2"), qPrintable(message));
    auto random = white;
    random.whitebox_canaries = audit::WhiteBoxCanaries::kRandomDirections;
    message = refusal(search(1, R"({"mode": "private", "selection": "lt"})"), random);
    QVERIFY2(message.contains("reserved-coordinate"), qPrintable(message));
    message = refusal(search(1, R"({"mode": "private-linear-scaling"})"), white);
    QVERIFY2(message.contains("private-linear-scaling"), qPrintable(message));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestTuningAudit)
#include "test_tuning_audit.moc"
