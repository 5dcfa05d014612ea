// Issue #9 item 1: a plain launch is an ordinary window. Cancel, a failed run and a long session
// never end the application; only a scripted launch with --quit-when-done may (and --timeout
// applies to that only). The window is the real MainWindow, launched as main() launches it.
#include <QAction>
#include <QEventLoop>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "form/experiment_form.h"
#include "run/run_controller.h"
#include "shell/launcher.h"
#include "shell/main_window.h"
#include "support/test_registry.h"
#include "ui_test_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {
// Runs the event loop for `ms`; returns the loop's exit code: 0 unless something called
// QCoreApplication::exit(code) meanwhile (which ends every running event loop with that code).
int spinEventLoop(int ms) {
  QEventLoop loop;
  QTimer::singleShot(ms, &loop, [&loop] { loop.exit(0); });
  return loop.exec();
}
}  // namespace

class TestAppLifecycle : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
  }

  void plainLaunchHasNoScriptedSession() {
    QString error;
    const auto options = parseScriptOptions({QStringLiteral("dplab")}, &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(!options->scripted());
    QVERIFY(!options->unattended());
    MainWindow window;
    QVERIFY(launchScriptedSession(&window, *options) == nullptr);
  }

  void badTimeoutIsRejected() {
    QString error;
    QVERIFY(!parseScriptOptions(
        {QStringLiteral("dplab"), QStringLiteral("--timeout"), QStringLiteral("x")}, &error));
    QVERIFY(error.contains(QStringLiteral("--timeout")));
  }

  void cancelAndFailureKeepTheWindow() {
    QString error;
    const auto options = parseScriptOptions({QStringLiteral("dplab")}, &error);
    QVERIFY(options);
    MainWindow window;
    window.runController()->setHistoryPath(dir_.filePath(QStringLiteral("h.sqlite")));
    const auto session = launchScriptedSession(&window, *options);
    window.show();
    // A long run, cancelled through the real action (Esc / Ctrl+.).
    auto config = test::tinyExperiment();
    config.privacy.steps = 200000;
    window.form()->setConfig(config);
    QTRY_VERIFY_WITH_TIMEOUT(window.form()->dataReady() && window.runAction()->isEnabled(), 30000);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.runAction()->trigger();
    QVERIFY(window.cancelAction()->isEnabled());
    QTest::qWait(200);
    window.cancelAction()->trigger();
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.last().at(1).toBool(), true);  // cancelled
    QCOMPARE(spinEventLoop(300), 0);                 // nobody asked the application to exit
    QVERIFY(window.isVisible());

    // A failing run (the data file vanished after the form loaded it).
    auto broken = test::tinyExperiment();
    broken.dataset.source = dir_.filePath(QStringLiteral("missing.csv")).toStdString();
    QVERIFY(window.runController()->start(broken, nullptr, 1));
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.last().at(0).toBool(), false);  // failed
    QCOMPARE(spinEventLoop(300), 0);
    QVERIFY(window.isVisible());

    // And the window can run again, to the end.
    window.form()->setConfig(test::tinyExperiment());
    QTRY_VERIFY_WITH_TIMEOUT(window.runAction()->isEnabled(), 30000);
    window.runAction()->trigger();
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.last().at(0).toBool(), true);
    QCOMPARE(finished.last().at(1).toBool(), false);
    QCOMPARE(spinEventLoop(100), 0);
  }

  void scriptedOpenWithoutQuitStaysOpen() {
    // `dplab --open F --timeout 1`: opens F and stays, no timeout, no exit on cancel.
    QString error;
    const QString path = dir_.filePath(QStringLiteral("tiny.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(experiment::to_json(test::tinyExperiment()).dump()));
    f.close();
    const auto options =
        parseScriptOptions({QStringLiteral("dplab"), QStringLiteral("--open"), path,
                            QStringLiteral("--timeout"), QStringLiteral("1")},
                           &error);
    QVERIFY(options);
    QVERIFY(options->scripted());
    QVERIFY(!options->unattended());
    MainWindow window;
    const auto session = launchScriptedSession(&window, *options);
    QVERIFY(session);
    QSignalSpy quit(session.get(), &ScriptedSession::quitRequested);
    QTRY_COMPARE(QString::fromStdString(window.form()->config().name),
                 QStringLiteral("ui test tiny"));
    QTest::qWait(1300);  // past the (ignored) timeout
    QCOMPARE(quit.count(), 0);
  }

  void quitWhenDoneTimesOut() {
    // With --quit-when-done the session is unattended: the timeout applies and asks to exit 1.
    QString error;
    const auto options = parseScriptOptions(
        {QStringLiteral("dplab"), QStringLiteral("--quit-when-done"), QStringLiteral("--run"),
         QStringLiteral("--timeout"), QStringLiteral("1")},
        &error);
    QVERIFY(options && options->unattended());
    MainWindow window;
    auto config = test::tinyExperiment();
    config.privacy.steps = 500000;  // far longer than the timeout
    window.form()->setConfig(config);
    const auto session = launchScriptedSession(&window, *options);
    QSignalSpy quit(session.get(), &ScriptedSession::quitRequested);
    QVERIFY(quit.wait(20000));
    QCOMPARE(quit.first().at(0).toInt(), 1);
    window.runController()->cancel();
  }

 private:
  QTemporaryDir dir_;
};

DPLAB_TEST_MAIN(TestAppLifecycle)
#include "test_app_lifecycle.moc"
