// LatestOnlyTask (ui/async/latest_only_task.h), the worker behind every control whose engine call
// is too slow for the GUI thread: computations run on its own thread, a query submitted while one
// runs waits and is replaced by a newer one (latest value wins), results arrive on the GUI thread
// in submission order with their sequence numbers, and failures arrive as messages.
#include <QtTest>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "async/latest_only_task.h"
#include "support/test_registry.h"

using namespace dplab::ui;

class TestLatestOnlyTask : public QObject {
  Q_OBJECT
 private slots:
  void latestValueWinsWhileBusy() {
    // The first computation blocks until released, so queries 2..5 arrive while it runs.
    std::mutex m;
    std::condition_variable cv;
    bool release = false;
    std::thread::id compute_thread;
    QObject context;
    QList<QPair<int, int>> delivered;  // (sequence, result)
    LatestOnlyTask<int, int> task(
        &context,
        [&](const int& x) {
          compute_thread = std::this_thread::get_id();
          std::unique_lock lock(m);
          cv.wait(lock, [&] { return release; });
          return x * x;
        },
        [&](int sequence, const int& result) {
          delivered.append({sequence, result});
        },
        [](int, const QString&) { QFAIL("no failure expected"); });
    QCOMPARE(task.submit(1), 1);
    QTRY_COMPARE(task.computations(), 1);  // started (and blocked)
    for (int x = 2; x <= 5; ++x) QCOMPARE(task.submit(x), x);
    QVERIFY(task.busy());
    QVERIFY(delivered.isEmpty());  // nothing arrives before the computation ends
    {
      std::lock_guard lock(m);
      release = true;
    }
    cv.notify_all();
    QTRY_COMPARE(delivered.size(), 2);
    QCOMPARE(delivered[0], qMakePair(1, 1));
    QCOMPARE(delivered[1], qMakePair(5, 25));  // 2, 3 and 4 were replaced, never computed
    QCOMPARE(task.computations(), 2);
    QVERIFY(compute_thread != std::this_thread::get_id());
    QCOMPARE(task.computeThread(), compute_thread);
    QTRY_VERIFY(!task.busy());
    QCOMPARE(task.nextSequence(), 6);  // a synchronous redraw counts as newer than all queries
  }

  void failuresArriveAsMessages() {
    QObject context;
    QString failure;
    int failed_sequence = 0;
    LatestOnlyTask<int, int> task(
        &context,
        [](const int& x) -> int {
          if (x < 0) throw std::invalid_argument("sigma = -1 must be > 0");
          return x;
        },
        [](int, const int&) {},
        [&](int sequence, const QString& error) {
          failed_sequence = sequence;
          failure = error;
        });
    task.submit(-1);
    QTRY_COMPARE(failed_sequence, 1);
    QCOMPARE(failure, QStringLiteral("sigma = -1 must be > 0"));
  }
};

DPLAB_TEST_MAIN(TestLatestOnlyTask)
#include "test_latest_only_task.moc"
