// The experiment form: invalid values disable Run, fixing them enables it, and the live ε of one
// run equals the engine accountant's epsilon_for_delta for the form's values.
#include <QAction>
#include <QFile>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "form/experiment_form.h"
#include "form/grid_field.h"
#include "form/number_field.h"
#include "form/optimizer_editor.h"
#include "form/privacy_section.h"
#include "privacy/accounting/default_delta.h"
#include "privacy/accounting/rdp_accountant.h"
#include "shell/main_window.h"
#include "support/test_registry.h"
#include "ui_test_support.h"

using namespace dplab;
using namespace dplab::ui;

class TestExperimentForm : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    window_ = new MainWindow;
    window_->form()->setConfig(test::tinyExperiment());
    QTRY_VERIFY_WITH_TIMEOUT(window_->form()->dataReady(), 30000);
    QTRY_VERIFY(window_->runAction()->isEnabled());
  }
  void cleanupTestCase() { delete window_; }

  void invalidValuesDisableRun_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("bad");
    QTest::addColumn<QString>("good");
    QTest::newRow("sigma zero") << "sigma"
                                << "0"
                                << "2";
    QTest::newRow("sigma negative") << "sigma"
                                    << "-1"
                                    << "2";
    QTest::newRow("L zero") << "lot"
                            << "0"
                            << "100";
    QTest::newRow("L above n") << "lot"
                               << "1e9"
                               << "100";
    QTest::newRow("T fractional") << "steps"
                                  << "10.5"
                                  << "100";
    QTest::newRow("delta one") << "delta"
                               << "1"
                               << "";
    QTest::newRow("delta above one") << "delta"
                                     << "2"
                                     << "1e-5";
    QTest::newRow("not a number") << "sigma"
                                  << "abc"
                                  << "2";
    QTest::newRow("empty alpha grid") << "alpha"
                                      << ""
                                      << "0.1, 0.5, 2";
    QTest::newRow("negative clip") << "clip"
                                   << "-1"
                                   << "1";
    QTest::newRow("bad logspace") << "alpha"
                                  << "logspace(1, 2)"
                                  << "0.1, 0.5, 2";
    QTest::newRow("logspace accepted") << "alpha"
                                       << "logspace(1, 0, 3)"
                                       << "0.1, 0.5, 2";
  }
  void invalidValuesDisableRun() {
    QFETCH(QString, field);
    QFETCH(QString, bad);
    QFETCH(QString, good);
    QLineEdit* edit = lineEdit(field);
    QVERIFY(edit);
    edit->setText(bad);
    QVERIFY(!window_->form()->isValid());
    QVERIFY(!window_->runAction()->isEnabled());
    QVERIFY2(edit->styleSheet().contains(QStringLiteral("border")), "invalid field is not marked");
    QVERIFY(edit->toolTip().contains(QStringLiteral("⚠")));
    edit->setText(good);
    QVERIFY2(window_->form()->isValid(), qPrintable(window_->form()->errors().join("; ")));
    QVERIFY(window_->runAction()->isEnabled());
    QVERIFY(edit->styleSheet().isEmpty());
  }

  void noOptimizerDisablesRun() {
    auto* sgd = window_->form()->optimizerEditor(optim::OptimizerKind::kDpSgd);
    auto* adam = window_->form()->optimizerEditor(optim::OptimizerKind::kDpAdam);
    sgd->setChecked(false);
    adam->setChecked(false);
    QVERIFY(!window_->runAction()->isEnabled());
    sgd->setChecked(true);
    adam->setChecked(true);
    QVERIFY(window_->runAction()->isEnabled());
  }

  void liveEpsilonMatchesEngine_data() {
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("lot");
    QTest::addColumn<int>("steps");
    QTest::addColumn<QString>("delta");
    QTest::newRow("default delta") << 2.0 << 100.0 << 100 << "";
    QTest::newRow("paper sigma") << 4.0 << 250.0 << 2000 << "1e-5";
    QTest::newRow("low noise") << 0.8 << 50.0 << 500 << "1e-6";
  }
  void liveEpsilonMatchesEngine() {
    QFETCH(double, sigma);
    QFETCH(double, lot);
    QFETCH(int, steps);
    QFETCH(QString, delta);
    PrivacySection* p = window_->form()->privacy();
    p->sigmaField()->setValue(sigma);
    p->lotField()->setValue(lot);
    p->stepsField()->setValue(steps);
    p->deltaField()->setText(delta);
    const qint64 n = p->trainingSize();
    QVERIFY(n > 0);
    const double d = delta.isEmpty() ? privacy::default_delta(n) : delta.toDouble();
    const double expected =
        privacy::epsilon_for_delta({sigma, lot / static_cast<double>(n), steps}, d).epsilon;
    QVERIFY(test::closeRel(p->liveEpsilon(), expected, 1e-12));
    QVERIFY2(p->liveText().contains(QString::number(expected, 'g', 4)), qPrintable(p->liveText()));
    // restore the tiny experiment's values
    p->sigmaField()->setValue(2.0);
    p->lotField()->setValue(100);
    p->stepsField()->setValue(100);
    p->deltaField()->setText(QString());
  }

  void configRoundTrip() {
    const auto expected = experiment::to_json(test::tinyExperiment());
    auto actual = experiment::to_json(window_->form()->config());
    QCOMPARE(QString::fromStdString(actual["privacy"].dump()),
             QString::fromStdString(expected["privacy"].dump()));
    QCOMPARE(QString::fromStdString(actual["optimizers"].dump()),
             QString::fromStdString(expected["optimizers"].dump()));
  }

  // Issue #23 item 4: the data form says how the features were scaled: fitted on the (private)
  // rows, "not covered" by ε, or public bounds from the experiment's dataset.feature_range.
  void dataFormShowsPreprocessing() {
    QTemporaryDir dir;
    QFile csv(dir.filePath("people.csv"));
    QVERIFY(csv.open(QIODevice::WriteOnly));
    QByteArray text = "height,weight,label\n";
    for (int i = 0; i < 200; ++i) {
      text += QByteArray::number(150 + i % 50) + "," + QByteArray::number(50 + (i * 7) % 40) + "," +
              QByteArray::number(i % 2) + "\n";
    }
    csv.write(text);
    csv.close();
    auto config = test::tinyExperiment();
    config.dataset = experiment::DatasetConfig{};
    config.dataset.source = csv.fileName().toStdString();
    config.dataset.format = "csv";
    window_->form()->setConfig(config);
    QTRY_VERIFY_WITH_TIMEOUT(window_->form()->dataReady(), 30000);
    QLabel* info = window_->form()->dataInfo();
    QTRY_VERIFY2(info->text().contains(QStringLiteral("not covered")), qPrintable(info->text()));
    QVERIFY2(info->text().contains(QStringLiteral("min-max ranges fitted")),
             qPrintable(info->text()));
    QVERIFY2(info->toolTip().contains(QStringLiteral("ε does not cover")),
             qPrintable(info->toolTip()));

    config.dataset.feature_bounds.all = data::FeatureInterval{0, 300};
    window_->form()->setConfig(config);
    QTRY_VERIFY_WITH_TIMEOUT(info->text().contains(QStringLiteral("public feature bounds")), 30000);
    QVERIFY2(!info->text().contains(QStringLiteral("not covered")), qPrintable(info->text()));
    // The form keeps the bounds it was given.
    QVERIFY(window_->form()->config().dataset.feature_bounds.all.has_value());

    window_->form()->setConfig(test::tinyExperiment());
    QTRY_VERIFY_WITH_TIMEOUT(window_->form()->dataReady(), 30000);
  }

 private:
  QLineEdit* lineEdit(const QString& field) {
    PrivacySection* p = window_->form()->privacy();
    if (field == "sigma") return p->sigmaField();
    if (field == "lot") return p->lotField();
    if (field == "steps") return p->stepsField();
    if (field == "delta") return p->deltaField();
    auto* sgd = window_->form()->optimizerEditor(optim::OptimizerKind::kDpSgd);
    const auto grids = sgd->findChildren<GridField*>();
    if (field == "alpha") return grids.value(0);
    if (field == "clip") return grids.value(1);
    return nullptr;
  }
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestExperimentForm)
#include "test_experiment_form.moc"
