// A custom network in an experiment file (issue #15): "model": {"kind": "custom", "input",
// "layers", ...} inline or {"kind": "custom", "file": path}. The parsed network's gradient matches
// central finite differences along random directions of every parametrised layer; its per-example
// norms match materialised per-example gradients; a bad description is an error naming
// model.layers[i].<field>; the stored config carries the network inline (round trip); and a tune
// run trains it end to end.
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <string>

#include "core/error.h"
#include "core/random.h"
#include "experiment/experiment_config.h"
#include "models/conv_network.h"
#include "models/model_metric.h"
#include "support/layer_gradient_check.h"
#include "support/test_registry.h"
#include "tuning/runner.h"

using namespace dplab;

namespace {

// A small conv net on 6x6x1 inputs, 3 classes; smooth activations (sigmoid, avg-pool) so that
// no kink lies inside the finite-difference step.
const char* kNetwork = R"("input": [6, 6, 1], "loss": "cross_entropy",
   "layers": [{"type": "conv", "channels": 3, "kernel": 3, "padding": 1, "stride": 1},
              {"type": "sigmoid"},
              {"type": "avg_pool", "kernel": 2},
              {"type": "conv", "channels": 4, "kernel": 2},
              {"type": "sigmoid"},
              {"type": "dense", "units": 3}])";

std::string experiment_with(const std::string& model) {
  return R"({"name": "custom", "seed": 4, "eval_every": 10,
    "dataset": {"source": "synthetic-binary", "num_samples": 400, "dim": 36},
    "model": )" +
         model + R"(,
    "privacy": {"noise_multiplier": 1.0, "lot_size": 40, "steps": 30},
    "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": 0.5, "clip": 1}}]})";
}

std::string inline_model() {
  return std::string(R"({"kind": "custom", "name": "tiny-conv", )") + kNetwork + "}";
}

// The ParseError message of parsing `model` inside an experiment ("" if it parses).
std::string parse_error(const std::string& model) {
  try {
    experiment::parse_experiment_text(experiment_with(model), "test");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class TestCustomNetwork : public QObject {
  Q_OBJECT
 private slots:
  void gradientMatchesFiniteDifferences() {
    const auto config = experiment::parse_experiment_text(experiment_with(inline_model()), "t");
    QVERIFY(config.model.kind == models::ModelKind::kCustom);
    auto model = models::make_model(config.model.spec(), 36, 3);
    auto* net = dynamic_cast<models::ConvNetwork*>(model.get());
    QVERIFY(net);
    QCOMPARE(net->name(), std::string("tiny-conv"));
    // conv 3x3x1x3 + 3, conv 2x2x3x4 + 4, dense (2x2x4 -> 3) + 3
    QCOMPARE(net->num_params(), Index{27 + 3 + 48 + 4 + 48 + 3});
    net->initialize(9);
    Rng rng(5);
    Matrix x(6, 36);
    Vector y(6);
    for (Index i = 0; i < 6; ++i) {
      for (Index j = 0; j < 36; ++j) x(i, j) = static_cast<float>(rng.uniform());
      y[i] = static_cast<float>(rng.below(3));
    }
    const auto check = test::check_layer_gradients(*net, x, y, rng);
    QVERIFY2(check.failure.empty(), check.failure.c_str());
    QCOMPARE(check.checked, 3);
    // Per-example norms (mixed ghost/direct) against materialised single-row gradients.
    Vector norms(6), clipped(net->num_params());
    net->clipped_gradient_sum(x, y, 0.05, clipped, norms);
    Eigen::VectorXd expected_sum = Eigen::VectorXd::Zero(net->num_params());
    for (Index i = 0; i < 6; ++i) {
      Vector gi(net->num_params()), no_norms;
      net->clipped_gradient_sum(x.middleRows(i, 1), y.segment(i, 1), models::kNoClipping, gi,
                                no_norms);
      const double n = gi.cast<double>().norm();
      QVERIFY2(std::abs(norms[i] - n) <= 1e-4 * n,
               qPrintable(QString("%1 vs %2").arg(norms[i]).arg(n)));
      expected_sum += std::min(1.0, 0.05 / n) * gi.cast<double>();
    }
    QVERIFY((clipped.cast<double>() - expected_sum).norm() <= 1e-4 * expected_sum.norm());
  }

  void errorsNameLayerAndField() {
    // A missing field, a misspelt key, a wrong type, an unknown layer type.
    const std::string missing = parse_error(
        R"({"kind": "custom", "input": [6, 6, 1],
            "layers": [{"type": "relu"}, {"type": "conv", "channels": 2}]})");
    QVERIFY2(missing.find("model.layers[1].kernel: missing") != std::string::npos, missing.c_str());
    const std::string typo = parse_error(
        R"({"kind": "custom", "input": [6, 6, 1],
            "layers": [{"type": "conv", "channels": 2, "kernel": 3, "strid": 2}]})");
    // The typo is named with the keys a conv layer takes.
    QVERIFY2(typo.find("model.layers[0].strid: unknown key (expected channels, kernel, padding, "
                       "stride or type)") != std::string::npos,
             typo.c_str());
    const std::string type = parse_error(
        R"({"kind": "custom", "input": [6, 6, 1],
            "layers": [{"type": "dense", "units": "ten"}]})");
    QVERIFY2(type.find("model.layers[0].units: expected an integer") != std::string::npos,
             type.c_str());
    const std::string unknown =
        parse_error(R"({"kind": "custom", "input": [6, 6, 1], "layers": [{"type": "dropout"}]})");
    QVERIFY2(
        unknown.find("model.layers[0].type: unknown layer type \"dropout\"") != std::string::npos,
        unknown.c_str());
    QVERIFY(parse_error(R"({"kind": "custom", "input": [6, 6, 1]})").find("model.layers") !=
            std::string::npos);
    // A 100 KB layer type is shown as a bounded excerpt (it used to be echoed whole).
    nlohmann::json long_type = nlohmann::json::parse(R"({"kind": "custom", "input": [6, 6, 1]})");
    long_type["layers"] =
        nlohmann::json::array({nlohmann::json::object({{"type", std::string(100000, 'x')}})});
    const std::string huge = parse_error(long_type.dump());
    QVERIFY2(huge.find("model.layers[0].type: unknown layer type \"xxx") != std::string::npos,
             huge.substr(0, 300).c_str());
    QVERIFY2(huge.size() < 400, std::to_string(huge.size()).c_str());
    // Sizes are integers in range, element by element.
    const std::string side = parse_error(R"({"kind": "custom", "input": [6, 6, 0],
        "layers": [{"type": "relu"}]})");
    QVERIFY2(side.find("model.input[2]: must be between 1 and 100000, got 0") != std::string::npos,
             side.c_str());
    // Shape errors come when the data's shape is known, and name the layer too.
    const auto config =
        experiment::parse_experiment_text(experiment_with(R"({"kind": "custom", "input": [6, 6, 1],
            "layers": [{"type": "avg_pool", "kernel": 2}, {"type": "conv", "channels": 2,
                        "kernel": 4}, {"type": "dense", "units": 3}]})"),
                                          "t");
    try {
      models::make_model(config.model.spec(), 36, 3);
      QFAIL("no error");
    } catch (const InvalidArgument& e) {
      const std::string text = e.what();
      QVERIFY2(text.find("layers[1]") != std::string::npos &&
                   text.find("larger than the padded input 3x3x1") != std::string::npos,
               text.c_str());
    }
  }

  void fileAndRoundTrip() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("net.json").toStdString();
    std::ofstream(path) << "{\"name\": \"tiny-conv\", " << kNetwork << "}";
    const auto from_file = experiment::parse_experiment_text(
        experiment_with(R"({"kind": "custom", "file": ")" + path + R"("})"), "t");
    const auto inline_config =
        experiment::parse_experiment_text(experiment_with(inline_model()), "t");
    QCOMPARE(from_file.model.network, inline_config.model.network);
    // The stored JSON holds the network inline, and parses back to the same network.
    const nlohmann::json stored = experiment::to_json(from_file);
    QVERIFY(!stored["model"].contains("file"));
    QCOMPARE(stored["model"]["layers"].size(), std::size_t{6});
    QCOMPARE(experiment::parse_experiment(stored).model.network, from_file.model.network);
    QVERIFY(models::validation_metric(from_file.model.spec()) ==
            models::ValidationMetric::kAccuracy);
    // A bad file is named.
    std::ofstream(dir.filePath("bad.json").toStdString())
        << R"({"input": [6, 6, 1], "layers": [{"type": "conv", "kernel": 3}]})";
    const std::string bad = dir.filePath("bad.json").toStdString();
    const std::string error = parse_error(R"({"kind": "custom", "file": ")" + bad + R"("})");
    QVERIFY2(error.find(bad) != std::string::npos &&
                 error.find("layers[0].channels: missing") != std::string::npos,
             error.c_str());
    QVERIFY(parse_error(R"({"kind": "custom", "file": "/no/such/net.json"})")
                .find("/no/such/net.json") != std::string::npos);
  }

  void trainsInATuneRun() {
    const auto config = experiment::parse_experiment_text(experiment_with(R"({"kind": "custom",
        "input": [6, 6, 1], "layers": [{"type": "conv", "channels": 3, "kernel": 3},
        {"type": "relu"}, {"type": "max_pool", "kernel": 2}, {"type": "dense", "units": 2}]})"),
                                                          "t");
    tuning::Runner runner(config, tuning::load_experiment_data(config),
                          tuning::RunOptions{1, true});
    const tuning::SearchResults results = runner.run();
    QCOMPARE(results.jobs.size(), std::size_t{1});
    const auto& job = results.jobs[0];
    QVERIFY(job.status == tuning::JobStatus::kFinished);
    QCOMPARE(job.queries, std::int64_t{30});
    QVERIFY(job.final_val_accuracy >= 0 && job.final_val_accuracy <= 1);
    QVERIFY(std::isfinite(job.final_train_loss));
    QVERIFY(!results.is_regression);  // a classifier: scored by accuracy
  }
};

DPLAB_TEST_APPLESS_MAIN(TestCustomNetwork)
#include "test_custom_network.moc"
