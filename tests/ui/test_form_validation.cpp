// Issue #9 item 7: form validation gaps, on the real window. Ticking DPMomentum or ADADP marks
// their empty required grids (no hidden defaults); a regression data set with a classifier is
// flagged at the model; an invalid validation fraction and back does not leave the form at
// "loading …" with Run enabled; the Run tooltip lists every error, not one per section.
#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>
#include <QtTest>

#include "form/experiment_form.h"
#include "form/grid_field.h"
#include "form/number_field.h"
#include "form/optimizer_editor.h"
#include "form/privacy_section.h"
#include "shell/main_window.h"
#include "shell/run_bar.h"
#include "support/test_registry.h"
#include "ui_test_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {
bool marked(QWidget* w) {
  return w->styleSheet().contains(QStringLiteral("border"));
}
}  // namespace

class TestFormValidation : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    QStandardPaths::setTestModeEnabled(true);
    window_ = new MainWindow;
    window_->form()->setConfig(test::tinyExperiment());
    QTRY_VERIFY_WITH_TIMEOUT(window_->form()->dataReady() && window_->runAction()->isEnabled(),
                             30000);
  }
  void cleanup() { delete window_; }

  void requiredGridsAreMarkedWhenTicked_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("name");
    QTest::newRow("DPMomentum") << static_cast<int>(optim::OptimizerKind::kDpMomentum)
                                << "DPMomentum";
    QTest::newRow("ADADP") << static_cast<int>(optim::OptimizerKind::kAdaDp) << "ADADP";
  }
  void requiredGridsAreMarkedWhenTicked() {
    QFETCH(int, kind);
    QFETCH(QString, name);
    OptimizerEditor* editor =
        window_->form()->optimizerEditor(static_cast<optim::OptimizerKind>(kind));
    editor->setChecked(true);
    QVERIFY(!window_->runAction()->isEnabled());
    const QStringList errors = window_->form()->errors();
    QVERIFY2(errors.filter(name + QStringLiteral(" α")).size() == 1, qPrintable(errors.join("; ")));
    QVERIFY2(errors.filter(name + QStringLiteral(" C")).size() == 1, qPrintable(errors.join("; ")));
    const auto grids = editor->findChildren<GridField*>();
    QVERIFY(marked(grids.value(0)));  // α
    QVERIFY(marked(grids.value(1)));  // C
    grids.value(0)->setText(QStringLiteral("0.1, 1"));
    grids.value(1)->setText(QStringLiteral("1"));
    QTRY_VERIFY(window_->runAction()->isEnabled());
    QVERIFY(!marked(grids.value(0)));
  }

  void classifierOnRegressionDataIsFlagged() {
    auto config = test::tinyExperiment();
    config.dataset.source = "synthetic-linear";
    window_->form()->setConfig(config);
    QTRY_VERIFY_WITH_TIMEOUT(window_->form()->dataReady(), 30000);
    QVERIFY(!window_->runAction()->isEnabled());
    QVERIFY2(window_->form()->errors().join(" ").contains(QStringLiteral("model.kind")),
             qPrintable(window_->form()->errors().join("; ")));
    QVERIFY(marked(window_->form()->modelCombo()));
    QComboBox* model = window_->form()->modelCombo();
    model->setCurrentIndex(model->findData(QStringLiteral("linear")));
    QTRY_VERIFY(window_->runAction()->isEnabled());
    QVERIFY(!marked(model));
  }

  void validationFractionRoundTripDoesNotHang() {
    NumberField* fraction = window_->form()->validationFractionField();
    fraction->setText(QStringLiteral("1.5"));
    QVERIFY(!window_->runAction()->isEnabled());
    QVERIFY(marked(fraction));
    QTest::qWait(300);
    fraction->setText(QStringLiteral("0.2"));
    QTRY_VERIFY_WITH_TIMEOUT(window_->runAction()->isEnabled(), 10000);
    QTRY_VERIFY(!window_->form()->dataInfo()->text().contains(QStringLiteral("loading")));
    QVERIFY(window_->form()->privacy()->trainingSize() > 0);
  }

  void runIsDisabledWhileLoading() {
    auto config = test::tinyExperiment();
    config.dataset.num_samples = 3000;  // another data set: a new load
    window_->form()->setConfig(config);
    if (!window_->form()->dataReady()) QVERIFY(!window_->runAction()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(window_->runAction()->isEnabled(), 30000);
  }

  void runTooltipListsEveryError() {
    PrivacySection* p = window_->form()->privacy();
    p->sigmaField()->setText(QStringLiteral("0"));
    p->lotField()->setText(QStringLiteral("0"));
    p->stepsField()->setText(QStringLiteral("1.5"));
    // The run bar's Run button (the first-run welcome panel has a Run button of its own).
    RunBar* bar = window_->findChild<RunBar*>();
    QVERIFY(bar);
    QPushButton* run = bar->runButton();
    QVERIFY(run);
    const QString tip = run->toolTip();
    for (const char* field : {"σ:", "L:", "T:"})
      QVERIFY2(tip.contains(QString::fromUtf8(field)), qPrintable(tip));
  }

 private:
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestFormValidation)
#include "test_form_validation.moc"
