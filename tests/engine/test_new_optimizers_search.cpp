// DP-AdamBC and automatic clipping in experiment files and searches (issue #47):
//   - the syntax round-trips (parse -> to_json -> parse gives the same config and JSON), and a
//     wrong value is an error naming the key path (clipping, clip_stability, grid.clip under
//     automatic clipping, automatic clipping for an adaptive-clipping optimizer, a dpadam-bc
//     hyperparameter it does not have);
//   - an automatic candidate has C = 1 (the sensitivity), its label and report name say
//     "auto", and its training job runs the oracle with clipping automatic at C = 1, so the noise
//     on the sum is sigma * 1;
//   - the accounting of an automatic-clipping run is DP-SGD's at C = 1: a search with flat
//     entries at C = 1 and C = 5 and an automatic entry gives every run the same epsilon curve,
//     equal to sigma, q, T composed by the RDP accountant, and the same release cost as the
//     all-flat search of the same size; C never reaches the accountant, and the noise std the
//     automatic run's oracle uses is sigma * 1 / L whatever C the flat entries search;
//   - the run history restores each candidate's clipping from the stored config;
//   - dplab-cli train's --clipping automatic runs at C = 1 and refuses --clip.
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "dp_gradient/noisy_gradient.h"
#include "experiment/run_settings.h"
#include "privacy/accounting/rdp_accountant.h"
#include "store/store.h"
#include "support/expect_error.h"
#include "support/test_registry.h"
#include "tuning/release_cost.h"
#include "tuning/run_summary.h"
#include "tuning/runner.h"

using namespace dplab;
using nlohmann::json;

namespace {

json base_experiment(json optimizers) {
  return {{"name", "auto-clip"},
          {"dataset", {{"source", "synthetic-binary"}, {"num_samples", 400}, {"dim", 4}}},
          {"model", {{"kind", "logistic"}}},
          {"privacy", {{"noise_multiplier", 1.3}, {"lot_size", 40}, {"steps", 30}}},
          {"optimizers", std::move(optimizers)},
          {"eval_every", 10},
          {"seed", 7}};
}

const json kMixed =
    json::array({{{"name", "dpsgd"}, {"grid", {{"learning_rate", 0.5}, {"clip", {1.0, 5.0}}}}},
                 {{"name", "dpsgd"},
                  {"clipping", "automatic"},
                  {"clip_stability", 0.01},
                  {"grid", {{"learning_rate", {0.5, 1.0}}}}},
                 {{"name", "dpadam-bc"},
                  {"grid", {{"clip", 1.0}, {"beta2", {0.99, 0.999}}, {"epsilon", 1e-9}}}},
                 {{"name", "dpadam-bc"}, {"clipping", "automatic"}}});

QString parse_error(const json& optimizers) {
  return testing::error_of<ParseError>(
      [&] { experiment::parse_experiment(base_experiment(optimizers)); });
}

}  // namespace

class TestNewOptimizersSearch : public QObject {
  Q_OBJECT
 private slots:
  void experimentFilesRoundTrip() {
    const auto config = experiment::parse_experiment(base_experiment(kMixed));
    QCOMPARE(config.optimizers.size(), std::size_t{4});
    QCOMPARE(config.optimizers[1].clipping, models::ClippingMode::kAutomatic);
    QCOMPARE(config.optimizers[1].clip_stability, 0.01);
    QCOMPARE(config.optimizers[2].kind, optim::OptimizerKind::kDpAdamBc);
    QCOMPARE(config.optimizers[3].clipping, models::ClippingMode::kAutomatic);
    const json written = experiment::to_json(config);
    const auto back = experiment::parse_experiment(written);
    QVERIFY(back.optimizers == config.optimizers);
    QVERIFY(experiment::to_json(back) == written);
    // Flat entries write no clipping key (files from before stay byte-equal); automatic ones
    // write both keys.
    QVERIFY(!written["optimizers"][0].contains("clipping"));
    QVERIFY(written["optimizers"][1]["clipping"] == "automatic");
    QVERIFY(written["optimizers"][3]["clip_stability"] == 0.01);
    QVERIFY(written["optimizers"][2]["name"] == "dpadam-bc");
    // A different gamma is a different entry.
    json other = kMixed;
    other[1]["clip_stability"] = 0.1;
    QVERIFY(
        !(experiment::parse_experiment(base_experiment(other)).optimizers == config.optimizers));
  }

  void wrongValuesNameTheField() {
    auto entry = [](json extra) {
      json e{{"name", "dpsgd"}, {"grid", {{"learning_rate", 0.1}}}};
      for (auto& [k, v] : extra.items()) e[k] = v;
      return json::array({e});
    };
    QString m = parse_error(entry({{"clipping", "auto"}}));
    QVERIFY2(m.startsWith("optimizers[0].clipping: unknown clipping \"auto\""), qPrintable(m));
    m = parse_error(entry({{"clip_stability", 0.01}}));
    QVERIFY2(m.startsWith("optimizers[0].clip_stability: only used with"), qPrintable(m));
    m = parse_error(entry({{"clipping", "automatic"}, {"clip_stability", -1}}));
    QVERIFY2(m.startsWith("optimizers[0].clip_stability: must be > 0"), qPrintable(m));
    m = parse_error(json::array(
        {{{"name", "dpsgd"}, {"clipping", "automatic"}, {"grid", {{"clip", {0.1, 1}}}}}}));
    QVERIFY2(m.startsWith("optimizers[0].grid.clip: refused with \"clipping\": \"automatic\""),
             qPrintable(m));
    m = parse_error(json::array({{{"name", "fixed-quantile"}, {"clipping", "automatic"}}}));
    QVERIFY2(m.startsWith("optimizers[0].clipping: \"automatic\" is not available for "
                          "fixed-quantile"),
             qPrintable(m));
    m = parse_error(json::array({{{"name", "dpadam-bc"}, {"grid", {{"momentum", 0.9}}}}}));
    QVERIFY2(m.startsWith("optimizers[0].grid.momentum: not a hyperparameter of dpadam-bc"),
             qPrintable(m));
    m = parse_error(json::array({{{"name", "dpadam-bcc"}}}));
    QVERIFY2(m.contains("dpadam-bc)"), qPrintable(m));  // the list of names offers it
  }

  void automaticCandidatesRunAtCOne() {
    const auto config = experiment::parse_experiment(base_experiment(kMixed));
    const auto candidates = experiment::expand_candidates(config);
    QCOMPARE(candidates.size(), std::size_t{2 + 2 + 2 + 1});
    const auto& flat5 = candidates[1];
    QCOMPARE(flat5.clip, 5.0);
    const auto& automatic = candidates[2];
    QCOMPARE(automatic.clipping, models::ClippingMode::kAutomatic);
    QCOMPARE(automatic.clip, 1.0);
    QCOMPARE(automatic.value(experiment::Param::kClip), 1.0);
    QCOMPARE(automatic.label(), std::string("dpsgd lr=0.5 C=auto"));
    QCOMPARE(experiment::entry_name(config.optimizers[1]), std::string("dpsgd (auto-clip)"));
    QVERIFY(!experiment::entry_takes(config.optimizers[1], experiment::Param::kClip));
    const auto& bc = candidates[4];
    QCOMPARE(bc.optimizer.kind, optim::OptimizerKind::kDpAdamBc);
    QCOMPARE(bc.optimizer.epsilon, 1e-9);  // gamma' from the grid's "epsilon"
    QCOMPARE(bc.optimizer.learning_rate, 1e-3);
    const auto tc = tuning::job_training_config(config, automatic, 0);
    QCOMPARE(tc.dp.clip, 1.0);
    QCOMPARE(tc.dp.clipping, models::ClippingMode::kAutomatic);
    QCOMPARE(tc.dp.clip_stability, 0.01);
    QCOMPARE(tc.dp.noise_multiplier, 1.3);
    // The run's oracle adds N(0, (sigma * 1 / L)^2): C = 5 of the flat entry does not leak in.
    const auto data = tuning::load_experiment_data(config);
    auto model = models::make_model(tc.model, data->train.dim(), data->train.num_classes);
    privacy::NoisyGradientOracle oracle(data->train, *model, tc.dp, 1);
    QCOMPARE(oracle.noise_std_of_mean(), 1.3 * 1.0 / 40.0);
    QCOMPARE(tuning::job_training_config(config, flat5, 0).dp.clipping,
             models::ClippingMode::kFlat);
    // The run summary says so.
    tuning::SearchResults results;
    results.config = config;
    results.candidates = candidates;
    const json j = tuning::candidate_json(results, 2);
    QVERIFY(j["clipping"] == "automatic");
    QVERIFY(j["clip"] == 1.0);
    QVERIFY(tuning::candidate_json(results, 4)["adam_epsilon"] == 1e-9);
  }

  void accountingIsDpSgdsAtCOne() {
    const auto config = experiment::parse_experiment(base_experiment(kMixed));
    tuning::Runner runner(config, tuning::load_experiment_data(config),
                          tuning::RunOptions{2, true});
    const auto results = runner.run();
    QCOMPARE(results.jobs.size(), std::size_t{7});
    const auto& m = results.mechanism;
    QCOMPARE(m.noise_multiplier, 1.3);
    // Every run's epsilon curve is that of T steps of (sigma, q) at delta, C nowhere.
    const auto& reference = results.jobs.front().curve;
    QVERIFY(!reference.empty());
    for (const auto& job : results.jobs) {
      QVERIFY(job.status == tuning::JobStatus::kFinished);
      QCOMPARE(job.curve.size(), reference.size());
      for (std::size_t k = 0; k < reference.size(); ++k)
        QCOMPARE(job.curve[k].epsilon, reference[k].epsilon);
    }
    const double by_hand =
        privacy::epsilon_for_delta({m.noise_multiplier, m.sampling_rate, m.steps}, m.delta).epsilon;
    QCOMPARE(reference.back().epsilon, by_hand);
    // The automatic runs report C = 1 along their curves (the sensitivity they ran at).
    const auto& automatic_job = results.job(2, 0);
    for (const auto& p : automatic_job.curve) QCOMPARE(p.clip, 1.0);
    // The search's release cost equals that of 7 flat DP-SGD runs at C = 1 (same sigma, q, T).
    json flat = json::array(
        {{{"name", "dpsgd"}, {"grid", {{"learning_rate", {1, 2, 3, 4, 5, 6, 7}}, {"clip", 1}}}}});
    const auto flat_config = experiment::parse_experiment(base_experiment(flat));
    const auto flat_cost =
        tuning::planned_release_cost(flat_config, results.training_size, results.validation_size);
    const auto cost = tuning::release_cost(results);
    QCOMPARE(cost.runs_charged, flat_cost.runs_charged);
    QCOMPARE(cost.epsilon, flat_cost.epsilon);
  }

  void historyRestoresTheClipping() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    const auto config = experiment::parse_experiment(base_experiment(kMixed));
    std::int64_t id = 0;
    {
      store::Store db(path);
      store::StoreWriter writer(db);
      tuning::Runner runner(config, tuning::load_experiment_data(config),
                            tuning::RunOptions{2, true});
      runner.add_listener(&writer);
      runner.run();
      id = writer.experiment_id();
      QVERIFY(!writer.first_error());
    }
    store::Store db(path);
    const auto back = db.load_results(id);
    QCOMPARE(back.candidates.size(), std::size_t{7});
    QCOMPARE(back.candidates[2].clipping, models::ClippingMode::kAutomatic);
    QCOMPARE(back.candidates[2].clip_stability, 0.01);
    QCOMPARE(back.candidates[2].label(), std::string("dpsgd lr=0.5 C=auto"));
    QCOMPARE(back.candidates[0].clipping, models::ClippingMode::kFlat);
    QCOMPARE(back.candidates[4].optimizer.kind, optim::OptimizerKind::kDpAdamBc);
  }

  void trainTakesTheSameChoice() {
    Settings s;
    s.set("optimizer", "dpadam-bc");
    s.set("clipping", "automatic");
    s.set("clip-stability", "0.05");
    const auto run = experiment::parse_run_settings(s).training_config();
    QCOMPARE(run.optimizer.kind, optim::OptimizerKind::kDpAdamBc);
    QCOMPARE(run.dp.clip, 1.0);
    QCOMPARE(run.dp.clipping, models::ClippingMode::kAutomatic);
    QCOMPARE(run.dp.clip_stability, 0.05);
    auto error = [](std::vector<std::pair<std::string, std::string>> values) {
      Settings t;
      for (const auto& [k, v] : values) t.set(k, v);
      return testing::error_of<InvalidArgument>([&] { experiment::parse_run_settings(t); });
    };
    QString m = error({{"clipping", "automatic"}, {"clip", "2"}});
    QVERIFY2(m.startsWith("--clip = 2 is not used with automatic clipping"), qPrintable(m));
    m = error({{"clipping", "automatic"}, {"optimizer", "oso-dpsgd"}});
    QVERIFY2(m.startsWith("--clipping = automatic is not available for oso-dpsgd"), qPrintable(m));
    m = error({{"clip-stability", "0.1"}});
    QVERIFY2(m.startsWith("--clip-stability = 0.1 is only used with --clipping automatic"),
             qPrintable(m));
    m = error({{"clipping", "magic"}});
    QVERIFY2(m.startsWith("--clipping: unknown clipping \"magic\""), qPrintable(m));
  }
};

DPLAB_TEST_MAIN(TestNewOptimizersSearch)
#include "test_new_optimizers_search.moc"
