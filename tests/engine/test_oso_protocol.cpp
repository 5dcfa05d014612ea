// The OSO paper's grid protocol (tuning/oso_protocol.h): grid sizes per strategy (k, k^2, 5k,
// k), each grid's sigma calibrated so its K runs composed (K T steps) meet the per-grid epsilon
// and not much less, the best configuration is one of the grid's, preset errors name keys, the
// plan counts what the run does, and cancellation stops between runs and inside a run.
#include <QFile>
#include <QTest>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/random.h"
#include "data/dataset_catalog.h"
#include "privacy/accounting/rdp_accountant.h"
#include "support/expect_error.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "tuning/oso_protocol.h"

using namespace dplab;

namespace {

data::TrainValidationSplit separable_data(Index n, std::uint64_t seed) {
  Rng rng(seed);
  auto make = [&](Index rows) {
    data::Dataset d;
    d.num_classes = 2;
    d.features.resize(rows, 4);
    d.targets.resize(rows);
    for (Index i = 0; i < rows; ++i) {
      const float label = rng.uniform() < 0.5 ? 0.f : 1.f;
      for (Index j = 0; j < 4; ++j) {
        d.features(i, j) = static_cast<float>(rng.uniform() + (j == 0 ? label : 0.f));
      }
      d.targets[i] = label;
    }
    return d;
  };
  return {make(n), make(n / 4)};
}

// Logistic regression, one seed, L = 50: a protocol of seconds on separable_data.
tuning::OsoProtocolConfig small_protocol(std::vector<double> epsilons, std::vector<int> ks,
                                         std::int64_t steps) {
  tuning::OsoProtocolConfig c;
  c.model = models::ModelKind::kLogisticRegression;
  c.epsilons = std::move(epsilons);
  c.granularities = std::move(ks);
  c.lot_size = 50;
  c.steps = steps;
  c.seeds = 1;
  c.eval_every = 10;
  return c;
}

}  // namespace

class TestOsoProtocol : public QObject {
  Q_OBJECT

 private slots:
  void gridsAndBudgets() {
    const auto c = small_protocol({1.0, 3.0}, {2}, 20);
    const auto data = separable_data(500, 3);
    const auto results = tuning::run_oso_protocol(c, data);
    QCOMPARE(results.size(), std::size_t{8});  // 4 strategies x 2 epsilons
    const double q = 50.0 / 500.0;
    for (const auto& r : results) {
      const int expected_runs = r.strategy == optim::OptimizerKind::kDpSgd           ? 4
                                : r.strategy == optim::OptimizerKind::kFixedQuantile ? 10
                                                                                     : 2;
      QCOMPARE(r.runs, expected_runs);
      const double spent =
          privacy::epsilon_for_delta({r.noise_multiplier, q, r.runs * c.steps}, c.delta).epsilon;
      QVERIFY2(spent <= r.epsilon && spent >= 0.99 * r.epsilon,
               qPrintable(QString("grid of %1 runs at eps %2 spends %3")
                              .arg(r.runs)
                              .arg(r.epsilon)
                              .arg(spent)));
      QVERIFY(r.score > 0.5 && r.score <= 1.0);  // separable data: better than chance
      QVERIFY(r.clip >= c.clip_low && r.clip <= c.clip_high);
      QVERIFY(std::isnan(r.score_std));  // one seed: no spread to report (not 0)
      // Every run is kept, and the reported configuration is the best of them.
      QCOMPARE(r.all_runs.size(), static_cast<std::size_t>(r.runs * c.seeds));
      const tuning::OsoGridResult::Run* first_best = nullptr;  // the first of any ties
      for (const auto& run : r.all_runs) {
        QVERIFY(run.seconds > 0);
        QVERIFY(run.best_step > 0 && run.best_step <= c.steps);
        if (first_best == nullptr || run.best > first_best->best) first_best = &run;
      }
      QCOMPARE(first_best->best, r.score);
      QCOMPARE(first_best->clip, r.clip);
      QCOMPARE(first_best->learning_rate, r.learning_rate);
    }
    // A bigger grid pays with more noise at the same epsilon.
    QVERIFY(results[2].noise_multiplier > results[0].noise_multiplier);  // dpsgd K=4 vs oso K=2
  }

  void planCountsTheRuns() {
    auto c = small_protocol({1.0, 2.0, 4.0}, {2, 3}, 5);
    c.seeds = 2;
    const auto plan = tuning::plan_oso_protocol(c);
    // k = 2: 2 + 4 + 10 + 2 = 18 runs per epsilon; k = 3: 3 + 9 + 15 + 3 = 30.
    QCOMPARE(plan.grids.size(), std::size_t{8});
    QCOMPARE(plan.grids[1].granularity, 2);
    QCOMPARE(plan.grids[1].strategy, optim::OptimizerKind::kDpSgd);
    QCOMPARE(plan.grids[1].runs, 4);
    QCOMPARE(plan.grids[6].runs, 15);
    QCOMPARE(plan.total_runs, std::int64_t{(18 + 30) * 3 * 2});
    QCOMPARE(plan.example_gradients, 288.0 * 5 * 50);
    std::int64_t calls = 0, last_total = 0;
    const auto results =
        tuning::run_oso_protocol(c, separable_data(200, 5), [&](std::int64_t done, std::int64_t t) {
          QCOMPARE(done, ++calls);
          last_total = t;
        });
    QCOMPARE(calls, plan.total_runs);
    QCOMPARE(last_total, plan.total_runs);
    for (const auto& r : results) {
      bool planned = false;
      for (const auto& g : plan.grids)
        planned |= g.granularity == r.granularity && g.strategy == r.strategy && g.runs == r.runs;
      QVERIFY(planned);
    }
    const std::string note = tuning::oso_epsilon_note(1e-5);
    QVERIFY(note.find("plan") != std::string::npos);
    QVERIFY(note.find("seeds are not charged") != std::string::npos);
  }

  // A grid's runs side by side on 2 threads (and on all cores) select the same configuration
  // with the same scores as one thread: each run is the same single-threaded computation, only
  // the order in which they finish changes. progress() is never entered twice at once.
  void threadsDoNotChangeTheResults() {
    auto c = small_protocol({1.0, 2.0}, {2}, 20);
    c.seeds = 2;
    const auto data = separable_data(400, 11);
    const auto one = tuning::run_oso_protocol(c, data, {}, nullptr, {.threads = 1});
    for (int threads : {2, 0}) {
      std::atomic<int> inside{0};
      std::int64_t calls = 0;
      bool overlapped = false;
      const auto results = tuning::run_oso_protocol(
          c, data,
          [&](std::int64_t done, std::int64_t) {
            overlapped |= inside.fetch_add(1) != 0;
            QCOMPARE(done, ++calls);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            inside.fetch_sub(1);
          },
          nullptr, {.threads = threads, .background_priority = threads == 0});
      QVERIFY(!overlapped);
      QCOMPARE(calls, tuning::plan_oso_protocol(c).total_runs);
      QCOMPARE(results.size(), one.size());
      for (std::size_t i = 0; i < one.size(); ++i) {
        QCOMPARE(results[i].strategy, one[i].strategy);
        QCOMPARE(results[i].epsilon, one[i].epsilon);
        QCOMPARE(results[i].noise_multiplier, one[i].noise_multiplier);
        QCOMPARE(results[i].score, one[i].score);
        QCOMPARE(results[i].score_std, one[i].score_std);
        QCOMPARE(results[i].learning_rate, one[i].learning_rate);
        QCOMPARE(results[i].clip, one[i].clip);
        QCOMPARE(results[i].target_quantile, one[i].target_quantile);
      }
    }
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             tuning::run_oso_protocol(c, data, {}, nullptr, {.threads = -1}));
  }

  void cancelStopsBetweenAndInsideRuns() {
    auto c = small_protocol({1.0}, {2}, 10);
    const auto data = separable_data(500, 7);
    std::atomic<bool> cancel{true};
    int runs = 0;
    const auto count = [&](std::int64_t, std::int64_t) { ++runs; };
    QVERIFY_THROWS_EXCEPTION(Cancelled, tuning::run_oso_protocol(c, data, count, &cancel));
    QCOMPARE(runs, 0);  // set before the start: not one run
    cancel = false;
    // Set after the first run: the second never starts (the protocol has 18 runs).
    QVERIFY_THROWS_EXCEPTION(Cancelled, tuning::run_oso_protocol(
                                            c, data,
                                            [&](std::int64_t, std::int64_t) {
                                              ++runs;
                                              cancel = true;
                                            },
                                            &cancel));
    QCOMPARE(runs, 1);
    // Inside a run: one run of 5e7 steps (minutes) ends within a step of the flag.
    cancel = false;
    runs = 0;
    c.strategies = {optim::OptimizerKind::kDpSgd};  // rho = 10^-2.5, C = 0.01: no divergence
    c.epsilons = {8.0};
    c.granularities = {1};
    c.steps = 50'000'000;
    c.eval_every = c.steps;
    std::thread canceller([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      cancel = true;
    });
    bool thrown = false;
    try {
      tuning::run_oso_protocol(c, data, count, &cancel);
    } catch (const Cancelled&) {
      thrown = true;
    }
    canceller.join();
    QVERIFY(thrown);
    QCOMPARE(runs, 0);
  }

  // train_subset / validation_subset keep the first rows of pixel-stored images too (the scaled
  // autoencoder preset: Fashion-MNIST kept as bytes), and the protocol runs on them.
  void subsetsOfImages() {
    try {
      data::find_fashion_mnist();
    } catch (const IoError&) {
      QSKIP("Fashion-MNIST is not installed (package dataset-fashion-mnist)");
    }
    tuning::OsoProtocolConfig c;
    c.model = models::ModelKind::kConvAutoencoder;
    c.train_subset = 40;
    c.validation_subset = 16;
    c.epsilons = {4.0};
    c.granularities = {1};
    c.strategies = {optim::OptimizerKind::kOsoDpSgd};
    c.lot_size = 8;
    c.steps = 2;
    c.seeds = 1;
    c.eval_every = 2;
    const auto data = tuning::load_oso_protocol_data(c);
    QVERIFY(data.train.stores_pixels() && data.validation.stores_pixels());
    QCOMPARE(data.train.size(), Index{40});
    QCOMPARE(data.validation.size(), Index{16});
    QCOMPARE(data.validation.targets.size(), Index{16});
    data.train.validate();
    data.validation.validate();
    const auto results = tuning::run_oso_protocol(c, data);
    QCOMPARE(results.size(), std::size_t{1});
    QVERIFY(std::isfinite(results[0].score) && results[0].score > 0);  // an MSE
  }

  // One rule set (invalid_oso_field) behind the parser, the CLI flags and the GUI: each broken
  // field is reported by its key, the default config passes, and the run cap counts K per grid.
  void fieldRulesNameTheKey() {
    using Config = tuning::OsoProtocolConfig;
    QVERIFY(!tuning::invalid_oso_field(Config{}).has_value());
    const std::vector<std::pair<const char*, std::function<void(Config&)>>> broken{
        {"validation_fraction", [](Config& c) { c.validation_fraction = 1; }},
        {"train_subset", [](Config& c) { c.train_subset = 1; }},
        {"validation_subset", [](Config& c) { c.validation_subset = 0; }},
        {"epsilons",
         [](Config& c) {
           c.epsilons = {1, std::nan("")};
         }},
        {"epsilons", [](Config& c) { c.epsilons.clear(); }},
        {"epsilons", [](Config& c) { c.epsilons.assign(tuning::kMaxOsoListLength + 1, 1.0); }},
        {"delta", [](Config& c) { c.delta = 0; }},
        {"granularities",
         [](Config& c) {
           c.granularities = {5, tuning::kMaxOsoGranularity + 1};
         }},
        {"granularities", [](Config& c) { c.granularities = {0}; }},
        {"strategies", [](Config& c) { c.strategies.clear(); }},
        {"lot_size", [](Config& c) { c.lot_size = 0.5; }},
        {"steps", [](Config& c) { c.steps = 0; }},
        // The run-size cap every command shares (core/limits.h, issue #24).
        {"steps", [](Config& c) { c.steps = dplab::kMaxTrainingSteps + 1; }},
        {"seeds", [](Config& c) { c.seeds = 0; }},
        {"eval_every", [](Config& c) { c.eval_every = 0; }},
        {"clip_range", [](Config& c) { c.clip_low = 2, c.clip_high = 1; }},
        {"learning_rate_log10", [](Config& c) { c.learning_rate_log10_high = INFINITY; }},
        {"target_quantiles",
         [](Config& c) {
           c.target_quantiles = {0.5, 1};
         }},
        {"initial_clip", [](Config& c) { c.initial_clip = -1; }},
    };
    for (const auto& [key, breakIt] : broken) {
      Config c;
      breakIt(c);
      const auto bad = tuning::invalid_oso_field(c);
      QVERIFY2(bad.has_value(), key);
      QCOMPARE(QString::fromStdString(bad->key), QString(key));
    }
    // Runs = sum over k of K (k + k^2 + 5k + k for the four strategies) x seeds x |epsilons|:
    // (60 + 98 + 144) x 4 = 1,208 per seed; 827 seeds are 999,016 runs, 828 are 1,000,224.
    Config c;
    c.seeds = 827;
    QCOMPARE(tuning::plan_oso_protocol(c).total_runs, std::int64_t{999016});
    QVERIFY(!tuning::invalid_oso_field(c).has_value());
    c.seeds = 828;
    const auto bad = tuning::invalid_oso_field(c);
    QVERIFY(bad.has_value());
    QCOMPARE(QString::fromStdString(bad->key), QStringLiteral("seeds"));
    QVERIFY2(QString::fromStdString(bad->rule).contains("1000224 training runs"),
             bad->rule.c_str());
    // The runner checks too (the GUI hands it a config directly).
    c.seeds = 0;
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, tuning::run_oso_protocol(c, {}));
  }

  void presetErrorsNameTheKey() {
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             tuning::parse_oso_protocol(R"({"epsilon": [1]})", "p.json"));
    try {
      tuning::parse_oso_protocol(R"({"target_quantiles": [0.5, 1.2]})", "p.json");
      QFAIL("no exception");
    } catch (const InvalidArgument& e) {
      QVERIFY(QString(e.what()).contains("target_quantiles"));
    }
    // Wrong types and unknown names name their key too.
    for (const auto& [text, key] :
         {std::pair<const char*, const char*>{R"({"steps": "many"})", "steps"},
          {R"({"epsilons": [1, "two"]})", "epsilons"},
          {R"({"train_subset": 1.5e30})", "train_subset"},
          {R"({"seeds": 2.5})", "seeds"},
          {R"({"model": "resnet"})", "model"},
          {R"({"strategies": ["dpsgd", "sgd-plus"]})", "strategies"}}) {
      try {
        tuning::parse_oso_protocol(text, "p.json");
        QFAIL(text);
      } catch (const InvalidArgument& e) {
        QVERIFY2(QString(e.what()).contains(QString("p.json: ") + key), e.what());
      }
    }
    const auto c =
        tuning::parse_oso_protocol(R"({"model": "logistic", "granularities": [7]})", "p.json");
    QCOMPARE(c.granularities.size(), std::size_t{1});
    QCOMPARE(c.strategies.size(), std::size_t{4});
    try {
      tuning::parse_oso_protocol(R"({"validation_subset": 0})", "p.json");
      QFAIL("no exception");
    } catch (const InvalidArgument& e) {
      QVERIFY(QString(e.what()).contains("validation_subset"));
    }
    // An unknown key lists the known ones (a typo is found at a glance).
    const QString unknown = testing::error_of<InvalidArgument>(
        [] { tuning::parse_oso_protocol(R"({"epsilon": [1]})", "p.json"); });
    QVERIFY2(unknown.startsWith("p.json: epsilon: unknown key (expected "), qPrintable(unknown));
    QVERIFY2(unknown.contains("epsilons") && unknown.contains("target_quantiles"),
             qPrintable(unknown));
    // Counts beyond an int are refused, not truncated (4294967297 used to become 1 seed, and
    // 4294967303 granularity 7).
    QVERIFY(testing::error_of<InvalidArgument>([] {
              tuning::parse_oso_protocol(R"({"seeds": 4294967297})", "p.json");
            }).startsWith("p.json: seeds: must be between 0 and 2147483647"));
    QVERIFY(testing::error_of<InvalidArgument>([] {
              tuning::parse_oso_protocol(R"({"granularities": [5, 4294967303]})", "p.json");
            }).startsWith("p.json: granularities[1]: must be between"));
    // A negative seed is refused (it used to wrap to 2^64 - 1).
    QVERIFY(testing::error_of<InvalidArgument>([] {
              tuning::parse_oso_protocol(R"({"seed": -1})", "p.json");
            }).startsWith("p.json: seed: expected a non-negative integer"));
    // A 100 KB bad value is shown as a bounded excerpt naming the key.
    nlohmann::json strategies;
    strategies["strategies"] = nlohmann::json::array({std::string(100000, 'x')});
    const std::string huge = strategies.dump();
    const QString excerpt =
        testing::error_of<InvalidArgument>([&] { tuning::parse_oso_protocol(huge, "p.json"); });
    QVERIFY2(excerpt.startsWith("p.json: strategies[0]: "), qPrintable(excerpt.left(300)));
    QVERIFY2(excerpt.size() < 400, qPrintable(QString::number(excerpt.size())));
    // The scaled autoencoder preset (docs/oso_autoencoder.md) parses to what the docs say.
    QFile file(QString::fromStdString(testing::presets_dir() +
                                      "/oso-fashion-mnist-autoencoder-scaled.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto scaled = tuning::parse_oso_protocol(file.readAll().toStdString(), "scaled");
    QCOMPARE(scaled.validation_subset.value_or(0), std::int64_t{128});
    QCOMPARE(scaled.train_subset.value_or(0), std::int64_t{800});
    QVERIFY(!tuning::higher_is_better(scaled.model));  // MSE: lower is better
  }
};

DPLAB_TEST_APPLESS_MAIN(TestOsoProtocol)
#include "test_oso_protocol.moc"
