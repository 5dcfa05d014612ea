// First-run welcome, File → New and About on the real window: the welcome shows on a first run
// and says where to start, its Run button runs the experiment, "Got it" hides it for good (a new
// window does not show it); File → New asks before discarding edits (Cancel keeps them, Discard
// resets to the default experiment) and asks nothing when there are none; About names the
// version.
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QTimer>

#include "form/presets.h"
#include "shell/discard_guard.h"
#include "shell/welcome_panel.h"
#include "support/test_registry.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

using test::answerNextBox;

class TestWelcomeNewAbout : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
  }

  void welcomeOnFirstRunOnly() {
    QSettings().remove(QLatin1String(WelcomePanel::kDismissedKey));
    auto* window = new MainWindow;
    window->runController()->setHistoryPath(dir_.filePath(QStringLiteral("history.sqlite")));
    window->show();
    QVERIFY(window->welcomePanel()->isVisible());
    auto* text = window->welcomePanel()->findChild<QLabel*>(QStringLiteral("welcomeText"));
    QVERIFY(text);
    QVERIFY(text->text().contains(QStringLiteral("Start here")));
    QVERIFY(text->text().contains(QStringLiteral("Run")));
    window->resize(1400, 900);
    test::saveShot(window, QStringLiteral("welcome"));
    // Its Run button runs the experiment in the form.
    QTRY_VERIFY_WITH_TIMEOUT(window->runAction()->isEnabled() && window->form()->dataReady(),
                             60000);
    window->form()->setConfig(test::tinyExperiment());
    QTRY_VERIFY_WITH_TIMEOUT(window->runAction()->isEnabled(), 60000);
    QSignalSpy finished(window, &MainWindow::runFinished);
    window->welcomePanel()->findChild<QPushButton*>(QStringLiteral("welcomeRun"))->click();
    QVERIFY(window->runController()->running());
    QVERIFY(finished.wait(120000));
    // "Got it" hides it, and it stays hidden in the next window.
    window->welcomePanel()->findChild<QPushButton*>(QStringLiteral("welcomeDismiss"))->click();
    QVERIFY(!window->welcomePanel()->isVisible());
    delete window;
    MainWindow second;
    second.show();
    QVERIFY(!second.welcomePanel()->isVisible());
  }

  void newAsksBeforeDiscardingEdits() {
    MainWindow window;
    window.runController()->setHistoryPath(dir_.filePath(QStringLiteral("history.sqlite")));
    window.show();
    const double default_sigma = defaultExperiment().privacy.noise_multiplier;
    // Nothing edited: New asks nothing.
    QVERIFY(!window.discardGuard()->isModified());
    window.newAction()->trigger();
    QCOMPARE(window.discardGuard()->questionsAsked(), 0);
    // Edited: Cancel keeps the edit.
    window.form()->privacy()->sigmaField()->setValue(default_sigma + 3);
    QVERIFY(window.discardGuard()->isModified());
    QString question;
    answerNextBox(QStringLiteral("Cancel"), &question);
    window.newAction()->trigger();
    QCOMPARE(window.discardGuard()->questionsAsked(), 1);
    QVERIFY2(question.contains(QStringLiteral("Discard")), qPrintable(question));
    QCOMPARE(window.form()->config().privacy.noise_multiplier, default_sigma + 3);
    // Discard resets to the default experiment.
    answerNextBox(QStringLiteral("Discard"), nullptr);
    window.newAction()->trigger();
    QCOMPARE(window.form()->config().privacy.noise_multiplier, default_sigma);
    QVERIFY(!window.discardGuard()->isModified());
    // Saving makes the form clean: New then asks nothing.
    window.form()->privacy()->sigmaField()->setValue(default_sigma + 1);
    QString error;
    QVERIFY(window.saveExperiment(dir_.filePath(QStringLiteral("saved.json")), &error));
    window.newAction()->trigger();
    QCOMPARE(window.discardGuard()->questionsAsked(), 2);
  }

  void aboutNamesTheVersion() {
    MainWindow window;
    window.show();
    QString text;
    answerNextBox(QStringLiteral("OK"), &text);
    window.aboutAction()->trigger();
    QVERIFY2(text.contains(MainWindow::version()), qPrintable(text));
    QVERIFY2(QRegularExpression(QStringLiteral("^\\d+\\.\\d+\\.\\d+$"))
                 .match(MainWindow::version())
                 .hasMatch(),
             qPrintable(MainWindow::version()));
  }

 private:
  QTemporaryDir dir_;
};

DPLAB_TEST_MAIN(TestWelcomeNewAbout)
#include "test_welcome_new_about.moc"
