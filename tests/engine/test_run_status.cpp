// store::RunStatus (store/run_status.h): the enum that replaced free status strings. The text it
// writes and reads is the exact text of every earlier version (history files and `dplab-cli
// history` output stay byte-identical), and the resumable / ended sets are the ones the string
// comparisons had.
#include <QTest>
#include <string>

#include "store/run_history.h"
#include "store/run_status.h"
#include "support/test_registry.h"

using namespace dplab::store;

class TestRunStatus : public QObject {
  Q_OBJECT
 private slots:
  void storedTextIsUnchanged() {
    QCOMPARE(std::string(to_string(RunStatus::kRunning)), std::string("running"));
    QCOMPARE(std::string(to_string(RunStatus::kFinished)), std::string("finished"));
    QCOMPARE(std::string(to_string(RunStatus::kCancelled)), std::string("cancelled"));
    QCOMPARE(std::string(to_string(RunStatus::kInterrupted)), std::string("interrupted"));
    QCOMPARE(std::string(to_string(RunStatus::kIncomplete)), std::string("incomplete"));
  }

  void parseRoundTripsAndRejectsOtherText() {
    for (RunStatus s : {RunStatus::kRunning, RunStatus::kFinished, RunStatus::kCancelled,
                        RunStatus::kInterrupted, RunStatus::kIncomplete}) {
      const std::optional<RunStatus> back = parse_run_status(to_string(s));
      QVERIFY(back.has_value());
      QCOMPARE(static_cast<int>(*back), static_cast<int>(s));
    }
    for (const char* other : {"", "Running", "finished ", "diverged", "failed"}) {
      QVERIFY2(!parse_run_status(other).has_value(), other);
    }
  }

  void resumableAndEndedSetsAreTheOldOnes() {
    // The string comparisons these replace: resumable = interrupted | cancelled | incomplete
    // (store/run_history.cpp); ended = cancelled | interrupted | incomplete | finished
    // (cluster/cluster_watch.cpp).
    const auto resumable = [](const std::string& s) {
      return s == "interrupted" || s == "cancelled" || s == "incomplete";
    };
    const auto ended = [](const std::string& s) {
      return s == "cancelled" || s == "interrupted" || s == "incomplete" || s == "finished";
    };
    for (const char* text :
         {"running", "finished", "cancelled", "interrupted", "incomplete", "", "unknown"}) {
      QCOMPARE(is_resumable_status(text), resumable(text));
      const std::optional<RunStatus> s = parse_run_status(text);
      QCOMPARE(s.has_value() && has_ended(*s), ended(text));
    }
  }
};

DPLAB_TEST_APPLESS_MAIN(TestRunStatus)
#include "test_run_status.moc"
