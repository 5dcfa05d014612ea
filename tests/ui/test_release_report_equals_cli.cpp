// The GUI's report and `dplab-cli tune --out` are two doors of one release (issue #42 item 4):
// the same experiment file, with a non-default accounting setting (classic conversion, log2 in
// Liu-Talwar's hard stop), run in the window and exported as a report, and run by the CLI, gives
// byte-identical release.json and CSVs, and the same planning figures (single run, MA, LT per
// optimizer) in both summaries. Fails on main: the GUI's summary dropped the experiment's
// accounting (1.484 / 3.164 / 9.529 against the CLI's 1.840 / 3.707 / 10.41 with "classic").
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "form/experiment_form.h"
#include "run/run_controller.h"
#include "shell/main_window.h"
#include "support/cli_runner.h"
#include "support/test_registry.h"
#include "ui_test_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

// The window's tiny experiment with a non-default accounting setting.
experiment::ExperimentConfig classicExperiment() {
  experiment::ExperimentConfig config = test::tinyExperiment();
  config.name = "classic accounting";
  config.accounting.conversion = privacy::Conversion::kClassic;
  config.accounting.lt_log_base = privacy::LogBase::kTwo;
  return config;
}

nlohmann::json json_of(const QString& path) {
  return nlohmann::json::parse(testing::read_file(path).toStdString());
}

}  // namespace

class TestReleaseReportEqualsCli : public QObject {
  Q_OBJECT
 private slots:
  void theReportIsTheCliRelease() {
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString config = dir.filePath("classic.json");
    {
      QFile file(config);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(QByteArray::fromStdString(experiment::to_json(classicExperiment()).dump(2)));
    }
    const QString cli_out = dir.filePath("cli");
    const testing::CliRun r =
        testing::run_cli({"tune", "--config", config, "--threads", "2", "--out", cli_out});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));

    MainWindow window;
    window.runController()->setHistoryPath(dir.filePath("history.sqlite"));
    window.resize(1280, 800);
    window.show();
    window.form()->setConfig(classicExperiment());
    QTRY_VERIFY_WITH_TIMEOUT(window.runAction()->isEnabled() && window.form()->dataReady(), 30000);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.runAction()->trigger();
    QVERIFY(finished.wait(120000));
    QVERIFY(finished.first().at(0).toBool());
    const QString report = dir.filePath("report");
    QString error;
    QVERIFY2(test::exportReportAndWait(&window, report, &error), qPrintable(error));

    // The release: the same bytes from both doors.
    const QByteArray release = testing::read_file(cli_out + "/release.json");
    QVERIFY(!release.isEmpty());
    QCOMPARE(testing::read_file(report + "/release.json"), release);
    for (const auto& file : json_of(cli_out + "/release.json")["files"]) {
      const QString name = QString::fromStdString(file.get<std::string>());
      QVERIFY2(testing::read_file(report + "/" + name) == testing::read_file(cli_out + "/" + name),
               qPrintable(name));
    }
    // The planning figures: the experiment's accounting in both summaries.
    const auto gui = json_of(report + "/summary.json")["per_optimizer"];
    const auto cli = json_of(cli_out + "/summary.json")["optimizers"];
    QCOMPARE(gui.size(), cli.size());
    QCOMPARE(cli[0]["conversion"].get<std::string>(), std::string("classic"));
    for (std::size_t o = 0; o < gui.size(); ++o) {
      for (const char* key : {"epsilon_single_run", "epsilon_ma", "epsilon_lt"}) {
        QVERIFY2(test::closeRel(gui[o][key].get<double>(), cli[o][key].get<double>(), 1e-12), key);
      }
    }
  }
};

DPLAB_TEST_MAIN(TestReleaseReportEqualsCli)
#include "test_release_report_equals_cli.moc"
