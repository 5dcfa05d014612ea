// The two GUI threading helpers of ui/async/ (issue #26 item 5): async::startInBackground (one-shot
// work off the GUI thread) and LatestOnlyTask (latest request wins). Results and errors arrive on
// the GUI thread; cancel reaches work that polls; a destroyed context gets nothing and nothing
// crashes; and closing a window while its DataLoader is in a slow load returns at once.
#include <QElapsedTimer>
#include <QThread>
#include <QWidget>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "async/background_task.h"
#include "async/latest_only_task.h"
#include "core/error.h"
#include "form/data_loader.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

// A gate the worker waits at until the test opens it; shared, since a detached worker may
// outlive the test's scope. entered/left let the test wait for the worker at either end.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool open = false;
  bool entered = false;
  bool left = false;

  void passThrough() {
    std::unique_lock lock(m);
    entered = true;
    cv.notify_all();
    cv.wait(lock, [this] { return open; });
  }
  void release() {
    std::lock_guard lock(m);
    open = true;
    cv.notify_all();
  }
  void markLeft() {
    std::lock_guard lock(m);
    left = true;
    cv.notify_all();
  }
  bool waitEntered() {
    std::unique_lock lock(m);
    return cv.wait_for(lock, std::chrono::seconds(10), [this] { return entered; });
  }
  bool waitLeft() {
    std::unique_lock lock(m);
    return cv.wait_for(lock, std::chrono::seconds(10), [this] { return left; });
  }
};

// Opens `gate` from another thread after `delay` unless it is already open: a helper that waits
// where it must not (for the worker) is then measured slow instead of hanging the suite.
std::thread openLater(std::shared_ptr<Gate> gate, std::chrono::milliseconds delay) {
  return std::thread([gate, delay] {
    std::this_thread::sleep_for(delay);
    gate->release();
  });
}

}  // namespace

class TestAsyncHelpers : public QObject {
  Q_OBJECT
 private slots:
  void resultArrivesOnTheGuiThread() {
    QObject context;
    std::thread::id work_thread;
    std::atomic<bool> work_ran{false};
    QThread* delivered_on = nullptr;
    int value = 0;
    async::TaskHandle task = async::startInBackground(
        &context,
        [&](async::TaskControl&) {
          work_thread = std::this_thread::get_id();
          work_ran = true;
          return 42;
        },
        [&](int result) {
          delivered_on = QThread::currentThread();
          value = result;
        },
        [](const async::Failure&) { QFAIL("no failure expected"); });
    QTRY_COMPARE(value, 42);
    QVERIFY(work_ran);
    QCOMPARE(delivered_on, QCoreApplication::instance()->thread());
    QVERIFY(work_thread != std::this_thread::get_id());
    task.wait();
    QVERIFY(!task.running());
  }

  void errorArrivesAsTheErrorMessage() {
    QObject context;
    QString message;
    bool cancelled = true;
    bool got_result = false;
    async::startInBackground(
        &context,
        [](async::TaskControl&) -> int {
          throw InvalidArgument("dataset.path: no such file 'x.csv'");
        },
        [&](int) { got_result = true; },
        [&](const async::Failure& failure) {
          message = failure.message;
          cancelled = failure.cancelled;
        });
    QTRY_VERIFY(!message.isEmpty());
    QCOMPARE(message, QStringLiteral("dataset.path: no such file 'x.csv'"));
    QVERIFY(!cancelled);
    QVERIFY(!got_result);

    // dplab::Cancelled is reported as a cancel, void work as a call without a value.
    bool was_cancelled = false, void_done = false;
    async::startInBackground(
        &context, [](async::TaskControl&) { throw Cancelled(); }, [] {},
        [&](const async::Failure& failure) { was_cancelled = failure.cancelled; });
    async::startInBackground(
        &context, [](async::TaskControl&) {}, [&] { void_done = true; },
        [](const async::Failure&) {});
    QTRY_VERIFY(was_cancelled && void_done);
  }

  void cancelStopsWorkThatPolls() {
    QObject context;
    auto started = std::make_shared<std::atomic<bool>>(false);
    bool cancelled = false;
    bool finished = false;
    QElapsedTimer clock;
    async::TaskHandle task = async::startInBackground(
        &context,
        [started](async::TaskControl& control) {
          *started = true;
          // At most 20 s unless the flag is seen: a cancel that does not reach the work fails
          // the QTRY below (5 s) instead of passing late.
          for (int i = 0; i < 2000; ++i) {
            if (control.cancelRequested()) throw Cancelled();
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
          }
          return 0;
        },
        [&](int) { finished = true; },
        [&](const async::Failure& failure) {
          cancelled = failure.cancelled;
          finished = true;
        });
    QTRY_VERIFY(started->load());
    clock.start();
    task.cancel();
    QVERIFY(task.cancelRequested());
    QTRY_VERIFY_WITH_TIMEOUT(finished, 5000);
    QVERIFY(cancelled);
    QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
  }

  void destroyedContextGetsNothing() {
    auto gate = std::make_shared<Gate>();
    auto saw_cancel = std::make_shared<std::atomic<bool>>(false);
    int delivered = 0;
    auto* context = new QObject;
    async::TaskHandle task = async::startInBackground(
        context,
        [gate, saw_cancel](async::TaskControl& control) {
          gate->passThrough();
          *saw_cancel = control.cancelRequested();  // the context's death cancels
          return 7;
        },
        [&](int) { ++delivered; }, [&](const async::Failure&) { ++delivered; });
    // The same with progress posted from the worker after the context is gone.
    auto gate2 = std::make_shared<Gate>();
    auto* context2 = new QObject;
    bool posted_ran = false;
    async::TaskHandle task2 = async::startInBackground(
        context2,
        [gate2, &posted_ran](async::TaskControl& control) {
          gate2->passThrough();
          return control.post([&posted_ran] { posted_ran = true; });
        },
        [&](bool) { ++delivered; }, [&](const async::Failure&) { ++delivered; });
    QVERIFY(gate->waitEntered());
    QVERIFY(gate2->waitEntered());
    delete context;
    delete context2;
    gate->release();
    gate2->release();
    task.wait();
    task2.wait();
    QCoreApplication::processEvents();
    QTest::qWait(50);
    QCOMPARE(delivered, 0);
    QVERIFY(!posted_ran);
    QVERIFY(saw_cancel->load());

    // A result posted while the context lives, whose context dies before the event loop runs:
    // dropped with the context's posted events.
    auto* context3 = new QObject;
    async::TaskHandle task3 = async::startInBackground(
        context3, [](async::TaskControl&) { return 1; }, [&](int) { ++delivered; },
        [&](const async::Failure&) { ++delivered; });
    task3.wait();  // posted, not yet delivered (this thread has not returned to its loop)
    delete context3;
    QTest::qWait(50);
    QCOMPARE(delivered, 0);
  }

  void latestOnlyTaskDetachedReturnsAtOnce() {
    auto gate = std::make_shared<Gate>();
    QObject context;
    int delivered = 0;
    auto task = std::make_unique<LatestOnlyTask<int, int>>(
        &context,
        [gate](const int& x, const std::atomic<bool>& cancel) {
          gate->passThrough();
          const int out = cancel.load() ? -1 : x;
          gate->markLeft();
          return out;
        },
        [&](int, const int&) { ++delivered; }, [&](int, const QString&) { ++delivered; },
        LatestOnlyTask<int, int>::OnDestroy::kDetach);
    task->submit(3);
    QVERIFY(gate->waitEntered());
    std::thread opener = openLater(gate, std::chrono::milliseconds(2000));
    QElapsedTimer clock;
    clock.start();
    task.reset();
    const qint64 ms = clock.elapsed();
    gate->release();
    opener.join();
    QVERIFY(gate->waitLeft());
    QTest::qWait(50);
    QVERIFY2(ms < 100, qPrintable(QStringLiteral("destructor took %1 ms").arg(ms)));
    QCOMPARE(delivered, 0);  // the task is gone: its result is dropped
  }

  void closingTheWindowDuringASlowLoadReturnsAtOnce() {
    auto gate = std::make_shared<Gate>();
    auto* window = new QWidget;
    window->setAttribute(Qt::WA_DeleteOnClose);
    int answers = 0;
    auto* loader = new DataLoader(window,
                                  [gate](const experiment::ExperimentConfig&)
                                      -> std::shared_ptr<const data::TrainValidationSplit> {
                                    gate->passThrough();
                                    auto split = std::make_shared<data::TrainValidationSplit>();
                                    gate->markLeft();
                                    return split;
                                  });
    connect(loader, &DataLoader::loaded, this, [&] { ++answers; });
    connect(loader, &DataLoader::failed, this, [&] { ++answers; });
    window->show();
    loader->request(experiment::ExperimentConfig{});
    QVERIFY(gate->waitEntered());
    QVERIFY(loader->busy());
    // If closing waited for the load, the opener would end the wait after 2 s: measured, not hung.
    std::thread opener = openLater(gate, std::chrono::milliseconds(2000));
    QPointer<QWidget> watch(window);
    QElapsedTimer clock;
    clock.start();
    window->close();
    delete window;  // WA_DeleteOnClose would delete it on the next loop pass: now, for the clock
    const qint64 ms = clock.elapsed();
    gate->release();
    opener.join();
    QVERIFY(gate->waitLeft());
    QTest::qWait(100);
    QVERIFY(watch.isNull());
    QVERIFY2(ms < 100, qPrintable(QStringLiteral("closing took %1 ms").arg(ms)));
    QCOMPARE(answers, 0);
  }
};

DPLAB_TEST_MAIN(TestAsyncHelpers)
#include "test_async_helpers.moc"
