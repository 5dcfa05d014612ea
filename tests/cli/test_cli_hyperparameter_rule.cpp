// One rule for which hyperparameters an optimizer has (experiment::optimizer_takes), shared by
// tune's grids and train's flags: DPAdamWOSM's learning_rate (the alpha of its ESS) is accepted by
// both and really changes the run; a hyperparameter an optimizer does not have (momentum for
// DPAdam) is refused by both, naming the key or flag; train's default alpha is the optimizer's
// paper default (optim::default_spec), the same value tune uses when the grid has no alpha.
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "experiment/experiment_config.h"
#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;
using namespace dplab;

namespace {

QStringList wosm_run(const QString& out, const QStringList& extra) {
  QStringList args{"train",
                   "--dataset",
                   "synthetic-binary",
                   "--model",
                   "logistic",
                   "--optimizer",
                   "dpadamwosm",
                   "--clip",
                   "1",
                   "--noise-multiplier",
                   "1",
                   "--lot-size",
                   "100",
                   "--steps",
                   "100",
                   "--eval-every",
                   "50",
                   "--seed",
                   "3",
                   "--out",
                   out};
  return args + extra;
}

nlohmann::json experiment_with(const nlohmann::json& optimizer) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "name": "rule", "dataset": {"source": "synthetic-binary"}, "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1, "lot_size": 100, "steps": 100}})");
  j["optimizers"] = nlohmann::json::array({optimizer});
  return j;
}

double summary_lr(const QString& dir) {
  const QJsonObject summary = QJsonDocument::fromJson(read_file(dir + "/summary.json")).object();
  return summary["config"].toObject()["lr"].toDouble(-1);
}

}  // namespace

class CliHyperparameterRuleTest : public QObject {
  Q_OBJECT

 private slots:
  void wosmLearningRateInTuneAndTrain() {
    // tune: a learning_rate grid for dpadamwosm expands into candidates carrying it.
    const auto config = experiment::parse_experiment(experiment_with(
        {{"name", "dpadamwosm"}, {"grid", {{"learning_rate", {0.001, 0.004}}, {"clip", 1}}}}));
    const auto candidates = experiment::expand_candidates(config);
    QCOMPARE(candidates.size(), std::size_t{2});
    QCOMPARE(candidates[0].optimizer.learning_rate, 0.001);
    QCOMPARE(candidates[1].optimizer.learning_rate, 0.004);
    QVERIFY(experiment::optimizer_takes(optim::OptimizerKind::kDpAdamWosm,
                                        experiment::Param::kLearningRate));
    // train: --lr is accepted, recorded, and changes the curve (the ESS numerator).
    QTemporaryDir dir;
    const CliRun base = run_cli(wosm_run(dir.path() + "/base", {}));
    QVERIFY2(base.exit_code == 0, qPrintable(base.err));
    QCOMPARE(summary_lr(dir.path() + "/base"), 0.001);  // paper default, as tune
    const CliRun larger = run_cli(wosm_run(dir.path() + "/lr", {"--lr", "0.004"}));
    QVERIFY2(larger.exit_code == 0, qPrintable(larger.err));
    QCOMPARE(summary_lr(dir.path() + "/lr"), 0.004);
    QVERIFY(read_file(dir.path() + "/base/curve.csv") != read_file(dir.path() + "/lr/curve.csv"));
  }

  void aHyperparameterTheOptimizerLacksIsRefusedByBoth() {
    QString message;
    try {
      experiment::parse_experiment(
          experiment_with({{"name", "dpadam"}, {"grid", {{"momentum", 0.5}, {"clip", 1}}}}));
    } catch (const ParseError& e) {
      message = e.what();
    }
    QVERIFY2(message.contains("optimizers[0].grid.momentum: not a hyperparameter of dpadam"),
             qPrintable(message));
    QTemporaryDir dir;
    const CliRun run = run_cli({"train", "--dataset", "synthetic-binary", "--optimizer", "dpadam",
                                "--momentum", "0.5", "--steps", "10", "--out", dir.path() + "/x"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("--momentum = 0.5 is not a hyperparameter of dpadam"),
             qPrintable(run.err));
    QVERIFY(!QDir(dir.path() + "/x").exists());
  }
};

DPLAB_TEST_GUILESS_MAIN(CliHyperparameterRuleTest)
#include "test_cli_hyperparameter_rule.moc"
