// `dplab-cli tune --release private-linear-scaling` end to end on the quick-demo preset
// (synthetic, n = 2400 training rows, sigma = 2, L = 100; T cut to 100 here; K = 6 candidates):
// the printed epsilon is the engine's composition of the 2K trial runs and the final run,
// recomputed here from the public settings alone; release.json carries the fit, which matches
// the released candidate's learning rate; the trial rounds' scores stay curator-only; --db records
// the final run with the whole procedure's charge; the flag errors name the flag.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "privacy/selection/linear_scaling_tuning.h"
#include "support/cli_runner.h"
#include "support/numeric_compare.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

QString preset() {
  return QString::fromStdString(dplab::testing::presets_dir() + "/quick-demo.json");
}

nlohmann::json read_json(const QString& path) {
  return nlohmann::json::parse(read_file(path).toStdString());
}

// quick-demo with T = 100 (three phases of six candidates: keep the test short).
QString short_preset(const QTemporaryDir& dir) {
  nlohmann::json config = read_json(preset());
  config["privacy"]["steps"] = 100;
  const QString path = dir.path() + "/quick-demo-short.json";
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(QByteArray::fromStdString(config.dump(2)));
  return path;
}

}  // namespace

class TestCliLinearScaling : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private slots:
  void end_to_end_releases_the_final_run_and_the_fit() {
    const QString out = dir_.path() + "/ls";
    const QString db = dir_.path() + "/runs.sqlite";
    const CliRun r = run_cli({"tune", "--config", short_preset(dir_), "--threads", "2", "--release",
                              "private-linear-scaling", "--trial-fractions", "0.15,0.35", "--out",
                              out, "--db", db});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("linear scaling: trials at eps"), qPrintable(r.out));
    // With --db too, each phase says what it runs (without K).
    QVERIFY2(r.err.contains("trial round 1 of 2") && r.err.contains("final run at the"),
             qPrintable(r.err));
    const nlohmann::json summary = read_json(out + "/summary.json");
    const auto& release = summary["release"];
    QCOMPARE(release["mode"].get<std::string>(), std::string("private-linear-scaling"));
    QCOMPARE(release["trial_candidates"].get<int>(), 6);
    // The public settings: sigma 2, q = 100/2400, T = 100, delta = 1e-4 (the default for
    // n = 2400), K = 6, fractions 0.15 and 0.35.
    dplab::privacy::LinearScalingSetting setting;
    setting.trial_fraction_low = 0.15;
    setting.trial_fraction_high = 0.35;
    setting.candidates = 6;
    const auto expected =
        dplab::privacy::linear_scaling_cost({2.0, 100.0 / 2400.0, 100}, 1e-4, setting);
    DPLAB_COMPARE_REL(release["epsilon"].get<double>(), expected.epsilon, 1e-12);
    DPLAB_COMPARE_REL(release["epsilon_trials"].get<double>(), expected.epsilon_trials, 1e-12);
    DPLAB_COMPARE_REL(release["epsilon_final_run"].get<double>(), expected.epsilon_final, 1e-12);
    QCOMPARE(release["trial_runs"].get<int>(), 12);
    QVERIFY(release["recompute"].is_null());  // three noise multipliers: no one command
    QVERIFY(release["label"].get<std::string>().find("linear scaling") != std::string::npos);
    // The fit is released, and the released candidate runs at its learning rate.
    const nlohmann::json card = read_json(out + "/release.json");
    const auto& fit = card["released"]["linear_scaling_fit"];
    const double lr = fit["final_learning_rate"].get<double>();
    DPLAB_COMPARE_REL(fit["final_radius"].get<double>(), lr * 100, 1e-12);
    DPLAB_COMPARE_REL(fit["trial_epsilons"][1].get<double>(), 0.35 * expected.epsilon_final, 1e-12);
    DPLAB_COMPARE_REL(summary["replicates"][0]["released_candidate"]["learning_rate"].get<double>(),
                      lr, 1e-15);
    QVERIFY(summary.contains("linear_scaling_fit"));
    // Curator only: the trial rounds' winners and scores.
    const std::string released_text = read_file(out + "/release.json").toStdString() +
                                      read_file(out + "/summary.json").toStdString() +
                                      read_file(out + "/winners.csv").toStdString();
    QVERIFY(released_text.find("trial_rounds") == std::string::npos);
    const nlohmann::json curator = read_json(out + "/curator-only.json");
    QCOMPARE(curator["trial_rounds"].size(), std::size_t{2});
    // The history keeps the final run charged with the whole procedure.
    const CliRun shown = run_cli({"history", "show", "--db", db, "--id", "1"});
    QVERIFY2(shown.exit_code == 0, qPrintable(shown.err));
    QVERIFY2(shown.out.contains("linear scaling") || shown.out.contains("linear-scaling"),
             qPrintable(shown.out));
    // history export writes the same release.json: the fit included, nothing of the trials.
    const QString exported = dir_.path() + "/exported";
    const CliRun ex = run_cli({"history", "export", "--db", db, "--id", "1", "--out", exported});
    QVERIFY2(ex.exit_code == 0, qPrintable(ex.err));
    const nlohmann::json exported_card = read_json(exported + "/release.json");
    QVERIFY2(exported_card["released"]["linear_scaling_fit"] == fit,
             exported_card["released"].dump().c_str());
    QVERIFY(exported_card["privacy"] == card["privacy"]);
    QVERIFY(read_file(exported + "/release.json").toStdString().find("trial_rounds") ==
            std::string::npos);
  }

  void flag_errors_name_the_flag() {
    const CliRun wrong =
        run_cli({"tune", "--config", preset(), "--release", "private-linear-scaling",
                 "--trial-fractions", "0.4,0.2", "--out", dir_.path() + "/bad"});
    QCOMPARE(wrong.exit_code, 2);
    QVERIFY2(wrong.err.contains("--trial-fractions"), qPrintable(wrong.err));
    const CliRun one = run_cli({"tune", "--config", preset(), "--release", "private-linear-scaling",
                                "--trial-fractions", "0.4", "--out", dir_.path() + "/bad"});
    QCOMPARE(one.exit_code, 2);
    QVERIFY2(one.err.contains("two numbers"), qPrintable(one.err));
    const CliRun mode = run_cli({"tune", "--config", preset(), "--release", "private",
                                 "--trial-fractions", "0.1,0.2", "--out", dir_.path() + "/bad"});
    QCOMPARE(mode.exit_code, 2);
    QVERIFY2(mode.err.contains("needs --release private-linear-scaling"), qPrintable(mode.err));
    const CliRun strategy =
        run_cli({"tune", "--config", preset(), "--release", "private-linear-scaling", "--strategy",
                 "lt", "--out", dir_.path() + "/bad"});
    QCOMPARE(strategy.exit_code, 2);
    QVERIFY2(strategy.err.contains("--strategy ma"), qPrintable(strategy.err));
    const CliRun plan = run_cli({"tune", "--config", preset(), "--release",
                                 "private-linear-scaling", "--plan", dir_.path() + "/plan"});
    QCOMPARE(plan.exit_code, 2);
    QVERIFY2(plan.err.contains("cannot be written as a plan"), qPrintable(plan.err));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestCliLinearScaling)
#include "test_cli_linear_scaling.moc"
