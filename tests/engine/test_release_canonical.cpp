// Issue #45 item 3: a release has one canonical form (experiment/release_config.h): every field
// its mode does not use at the default. release_to_json writes only the used fields, so
// parse_release(release_to_json(r)) == canonical_release(r) for every r, and an experiment's JSON
// is a fixed point of parse: the plan's id (a hash of that JSON) always matches what run-jobs
// reads back, whatever was left in an unused field.
#include <QTest>
#include <nlohmann/json.hpp>

#include "experiment/experiment_config.h"
#include "experiment/release_config.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"

using namespace dplab;
using namespace dplab::experiment;

class TestReleaseCanonical : public QObject {
  Q_OBJECT
 private slots:
  void round_trip_is_the_canonical_form() {
    int checked = 0;
    for (const ReleaseMode mode : {ReleaseMode::kExplore, ReleaseMode::kPrivate}) {
      for (const PrivateSelection selection :
           {PrivateSelection::kMa, PrivateSelection::kLt, PrivateSelection::kPs}) {
        for (const bool subsampled : {false, true}) {
          for (const auto distribution :
               {RunCountDistribution::kPoisson, RunCountDistribution::kTruncatedNegativeBinomial}) {
            if (subsampled && (mode != ReleaseMode::kPrivate || selection != PrivateSelection::kPs))
              continue;
            ReleaseConfig r;
            r.mode = mode;
            r.selection = selection;
            r.subsampled = subsampled;
            r.ps_distribution = distribution;
            // Every other field away from its default.
            r.ps_mu = 3;
            r.ps_eta = 0.5;
            r.ps_gamma = 0.3;
            r.tuning_fraction = subsampled ? 0.25 : 0.1;
            r.validation_noise_multiplier = 7;  // unused: validation stays public
            r.lr_transfer.factor = 2;           // unused: the rule is not "factor"
            check_release(r);
            const ReleaseConfig back = parse_release(release_to_json(r));
            QVERIFY(back == canonical_release(r));
            QVERIFY(canonical_release(back) == back);
            // The whole experiment: to_json is a fixed point of parse.
            ExperimentConfig config = testing::tiny_experiment(50, 2);
            config.release = r;
            const nlohmann::json once = to_json(config);
            QCOMPARE(to_json(parse_experiment(once)).dump(), once.dump());
            ++checked;
          }
        }
      }
    }
    QCOMPARE(checked, 14);
  }

  void unused_fields_are_dropped_used_ones_kept() {
    ReleaseConfig explore;
    explore.ps_mu = 5;
    QVERIFY(canonical_release(explore) == ReleaseConfig{});
    ReleaseConfig ps;
    ps.mode = ReleaseMode::kPrivate;
    ps.selection = PrivateSelection::kPs;
    ps.ps_mu = 5;
    ps.ps_gamma = 0.3;  // TNB's, unused with poisson
    const ReleaseConfig c = canonical_release(ps);
    QCOMPARE(c.ps_mu, 5.0);
    QCOMPARE(c.ps_gamma, ReleaseConfig{}.ps_gamma);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestReleaseCanonical)
#include "test_release_canonical.moc"
