// model.onnx for deployment (issue #43): every released model is also written as an ONNX graph
// (release/onnx_model.h), checked as a deployment would check it, with python3-onnx and numpy
// alone (tests/support/check_onnx_files.py): onnx.checker (full check), strict shape inference
// of the documented output from the input alone, initializers equal to model.npz (conv weights in
// ONNX's layouts), no input encoding or class label in the file, and the graph evaluated node by
// node by a numpy interpreter of the ONNX ops equal to `dplab-cli predict`'s output to 1e-5.
// One row per model family and head, each trained for a few steps on a small generated file:
//   logistic binary (sigmoid head: [p0, p1]), logistic 3 classes (softmax), linear (identity, one
//   value), tlnn, the built-in cnn, conv-autoencoder and wide-cnn on 28x28 rows, a custom network
//   with every op (tune --save-models best), and a custom reconstruction whose dense layer feeds a
//   conv_transpose (rows back to a map, a map out as the output).
#include <QFile>
#include <QProcess>
#include <QTest>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

// check_onnx_files.py: "" when it passes, else what it printed.
QString onnx_check(const QStringList& arguments) {
  return dplab::testing::python_check_problems("check_onnx_files.py", arguments);
}

// Tabular rows: two numeric columns, a categorical one and a label with `classes` values (0: a
// numeric regression target).
std::string table_rows(int n, int classes, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  const char* shades[] = {"crimson", "emerald", "cobalt", "amber"};
  std::string text = "years_of_age,favourite_shade,weekly_hours,outcome\n";
  for (int i = 0; i < n; ++i) {
    const double age = 18 + 60 * unit(rng), hours = 1 + 59 * unit(rng);
    const int shade = static_cast<int>(4 * unit(rng));
    const double score = age / 80 + hours / 60 + (shade == 2 ? 0.5 : 0) + 0.3 * unit(rng);
    std::string label;
    if (classes == 0) {
      label = std::to_string(score);
    } else {
      const int k = std::min(classes - 1, static_cast<int>(score * classes / 2.3));
      label = "outcome_class_" + std::to_string(k);
    }
    text += std::to_string(age) + "," + shades[shade] + "," + std::to_string(hours) + "," + label +
            "\n";
  }
  return text;
}

// Image rows: h*w*c pixel columns (0..255) and a label with `classes` values.
std::string image_rows(int n, int pixels, int classes, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pixel(0, 255);
  std::string text;
  for (int j = 0; j < pixels; ++j) text += "px" + std::to_string(j) + ",";
  text += "digit\n";
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < pixels; ++j) text += std::to_string(pixel(rng)) + ",";
    text += "digit_" + std::to_string(i % classes) + "\n";
  }
  return text;
}

QStringList train_flags(const QString& model) {
  return {"train", "--model", model, "--optimizer",        "dpsgd", "--lr",
          "0.5",   "--clip",  "1",   "--noise-multiplier", "1",     "--lot-size",
          "10",    "--steps", "6",   "--eval-every",       "3",     "--seed",
          "5"};
}

std::string custom_experiment(const std::string& source, const std::string& model) {
  return R"({"name": "net", "dataset": {"source": ")" + source + R"("}, "model": )" + model +
         R"(, "privacy": {"noise_multiplier": 1.0, "lot_size": 10, "steps": 6},
  "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.5], "clip": [1]}}],
  "repeats": 1, "eval_every": 3, "seed": 2})";
}

// Every op of a custom network, a softmax head (the network of tests/support's reference).
constexpr const char* kEveryOp = R"({"kind": "custom", "input": [9, 9, 2], "loss": "cross_entropy",
  "layers": [{"type": "conv", "channels": 3, "kernel": 3, "stride": 2, "padding": 1},
    {"type": "leaky_relu"},
    {"type": "conv_transpose", "channels": 2, "kernel": 3, "stride": 2, "padding": 1},
    {"type": "tanh"}, {"type": "avg_pool", "kernel": 2, "stride": 1}, {"type": "sigmoid"},
    {"type": "max_pool", "kernel": 2, "stride": 2}, {"type": "relu"},
    {"type": "dense", "units": 3}]})";

// A reconstruction: a map to rows (dense), rows back to a 1x1 map (conv_transpose), a map out.
constexpr const char* kDenseThenMap = R"({"kind": "custom", "input": [4, 4, 2],
  "loss": "reconstruction",
  "layers": [{"type": "conv", "channels": 3, "kernel": 3, "padding": 1}, {"type": "tanh"},
    {"type": "dense", "units": 6}, {"type": "relu"},
    {"type": "conv_transpose", "channels": 2, "kernel": 4}, {"type": "sigmoid"}]})";

}  // namespace

class TestCliOnnx : public QObject {
  Q_OBJECT
  dplab::testing::TempFiles temp_;

  // The release in `out` lists its model.onnx, and the ONNX check passes on predict's output for
  // `data`.
  void check_release(const QString& out, const QString& data) {
    const auto release = nlohmann::json::parse(read_file(out + "/release.json").toStdString());
    const std::set<std::string> files(release["files"].begin(), release["files"].end());
    QVERIFY2(files.count("model/model.onnx"), release["files"].dump().c_str());
    const QString preds = out + "/preds.csv";
    const CliRun r = run_cli({"predict", "--model", out, "--dataset", data, "--out", preds});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QString problems = onnx_check({out + "/model", data, preds});
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
  }

 private slots:
  void trainedModelsMatchPredict_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("classes");  // 0: regression / reconstruction
    QTest::addColumn<QString>("head");
    QTest::newRow("logistic binary") << "logistic" << 2 << "sigmoid";
    QTest::newRow("logistic 3 classes") << "logistic" << 3 << "softmax";
    QTest::newRow("linear") << "linear" << 0 << "identity";
    QTest::newRow("tlnn") << "tlnn" << 3 << "softmax";
    QTest::newRow("cnn") << "cnn" << 10 << "softmax";
    QTest::newRow("conv-autoencoder") << "conv-autoencoder" << 3 << "identity";
    QTest::newRow("wide-cnn") << "wide-cnn" << 10 << "softmax";
  }
  void trainedModelsMatchPredict() {
    QFETCH(QString, model);
    QFETCH(int, classes);
    QFETCH(QString, head);
    const bool image = model == "cnn" || model == "conv-autoencoder" || model == "wide-cnn";
    const std::string name = model.toStdString() + "-" + std::to_string(classes);
    const QString data = QString::fromStdString(
        temp_.write((name + ".csv").c_str(),
                    image ? image_rows(30, 784, classes, 7) : table_rows(120, classes, 7)));
    const QString out = QString::fromStdString(temp_.path(name.c_str()));
    QStringList args = train_flags(model) << "--dataset" << data << "--out" << out;
    if (model == "tlnn")
      args << "--hidden-units"
           << "5";
    const CliRun r = run_cli(args);
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const auto meta = nlohmann::json::parse(read_file(out + "/model/model.json").toStdString());
    QCOMPARE(QString::fromStdString(meta["model"]["output"].get<std::string>()), head);
    check_release(out, data);
  }

  void customNetworksMatchPredict_data() {
    QTest::addColumn<QString>("network");
    QTest::addColumn<int>("pixels");
    QTest::newRow("every op") << kEveryOp << 9 * 9 * 2;
    QTest::newRow("dense then a map") << kDenseThenMap << 4 * 4 * 2;
  }
  void customNetworksMatchPredict() {
    QFETCH(QString, network);
    QFETCH(int, pixels);
    const std::string name = "custom-" + std::to_string(pixels);
    const QString data =
        QString::fromStdString(temp_.write((name + ".csv").c_str(), image_rows(60, pixels, 3, 9)));
    const QString config = QString::fromStdString(temp_.write(
        (name + ".json").c_str(), custom_experiment(data.toStdString(), network.toStdString())));
    const QString out = QString::fromStdString(temp_.path(name.c_str()));
    const CliRun r = run_cli(
        {"tune", "--config", config, "--out", out, "--save-models", "best", "--threads", "1"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    check_release(out, data);
  }
};

DPLAB_TEST_MAIN(TestCliOnnx)
#include "test_cli_onnx.moc"
