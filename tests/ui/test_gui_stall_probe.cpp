// Issue #25 item 13: a probe, not a pass/fail check of timing. It drives the real window (1024 ×
// 700) through a simulated long run — T = 20,000, 5 candidates, an evaluation every 20 steps, the
// points arriving as the run controller delivers them (one RunData::apply per 120 ms tick, two
// jobs at a time) — then a σ-slider drag, typing T in the form and a report export, and prints
// the GUI thread's stalls for each: the gaps between the beats of a 10 ms heartbeat (the
// StallMeter's measure, every gap kept so that the median can be printed too), plus the load
// average. Timings are reported (qInfo), not asserted: a loaded machine would make them flaky.
// What it does assert is that the simulated run was shown (the curves reached T) and that hidden
// tabs caught up when shown.
#include <QElapsedTimer>
#include <QFile>
#include <QSlider>
#include <QTimer>
#include <algorithm>
#include <cmath>

#include "run/run_data.h"
#include "support/test_registry.h"
#include "tuning/runner.h"
#include "views/accuracy_tab.h"
#include "views/heatmap_tab.h"
#include "views/privacy_tab.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

constexpr std::int64_t kSteps = 20000;
constexpr int kEvalEvery = 20;
constexpr int kTickMs = 120;        // the run controller's poll period
constexpr int kPointsPerTick = 25;  // per running job: a job takes 40 ticks (~5 s)
constexpr int kConcurrentJobs = 2;

// Every gap between the beats of a 10 ms heartbeat on the GUI thread, while recording.
class GapRecorder : public QObject {
 public:
  GapRecorder() {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(10);
    QObject::connect(&timer_, &QTimer::timeout, this, [this] {
      gaps_.push_back(static_cast<double>(clock_.nsecsElapsed()) / 1e6);
      clock_.restart();
    });
  }
  void start() {
    gaps_.clear();
    clock_.start();
    timer_.start();
  }
  std::vector<double> stop() {
    timer_.stop();
    return gaps_;
  }

 private:
  QTimer timer_;
  QElapsedTimer clock_;
  std::vector<double> gaps_;
};

struct Stats {
  double max = 0, median = 0, p99 = 0;
  std::size_t count = 0, over50 = 0;
};

Stats statsOf(std::vector<double> gaps) {
  Stats s;
  s.count = gaps.size();
  if (gaps.empty()) return s;
  std::sort(gaps.begin(), gaps.end());
  s.max = gaps.back();
  s.median = gaps[gaps.size() / 2];
  s.p99 = gaps[std::min(gaps.size() - 1, gaps.size() * 99 / 100)];
  s.over50 = static_cast<std::size_t>(
      std::count_if(gaps.begin(), gaps.end(), [](double g) { return g > 50; }));
  return s;
}

QString loadAverage() {
  QFile f(QStringLiteral("/proc/loadavg"));
  if (!f.open(QIODevice::ReadOnly)) return QStringLiteral("?");
  return QString::fromLatin1(f.readAll()).section(QLatin1Char(' '), 0, 2);
}

double accuracyAt(int candidate, std::int64_t iteration) {
  return 0.5 + 0.3 * (1 - std::exp(-static_cast<double>(iteration) / 3000.0)) + 0.02 * candidate +
         0.005 * std::sin(static_cast<double>(iteration) / 200.0);
}

}  // namespace

class TestGuiStallProbe : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    experiment::ExperimentConfig config = test::tinyExperiment();
    config.privacy.steps = kSteps;
    config.eval_every = kEvalEvery;
    window_ = test::openWindow(dir_, config);
    window_->resize(1024, 700);
    QVERIFY(QTest::qWaitForWindowExposed(window_));
    window_->tabs()->setCurrentWidget(window_->accuracyTab());
    config_ = config;
    QTest::qWait(200);
  }
  void cleanupTestCase() {
    delete window_;
    qInfo("load average at the end: %s", qPrintable(loadAverage()));
  }

  void longRun() {
    RunData* data = window_->runData();
    tuning::SearchResults run =
        tuning::Runner(config_, tuning::load_experiment_data(config_)).plan();
    const int jobs = static_cast<int>(run.jobs.size());
    QCOMPARE(jobs, 5);
    const int points_per_job = static_cast<int>(kSteps / kEvalEvery);
    std::vector<int> reached(static_cast<std::size_t>(jobs), 0);
    const QString load_before = loadAverage();
    GapRecorder recorder;
    recorder.start();
    QElapsedTimer begin;
    begin.start();
    data->beginLive(run);
    const double begin_ms = static_cast<double>(begin.nsecsElapsed()) / 1e6;
    std::vector<double> first_ticks;
    int next_job = 0;
    std::vector<int> running;
    int ticks = 0;
    while (true) {
      while (static_cast<int>(running.size()) < kConcurrentJobs && next_job < jobs)
        running.push_back(next_job++);
      if (running.empty()) break;
      QTest::qWait(kTickMs);
      tuning::MonitorUpdate update;
      for (int j : running) {
        auto& job = run.jobs[static_cast<std::size_t>(j)];
        for (int k = 0; k < kPointsPerTick && reached[j] < points_per_job; ++k) {
          ++reached[j];
          tuning::PointEvent e;
          e.candidate = job.candidate;
          e.repeat = job.repeat;
          e.point.iteration = static_cast<std::int64_t>(reached[j]) * kEvalEvery;
          e.point.val_accuracy = accuracyAt(job.candidate, e.point.iteration);
          e.point.train_loss = 1 - e.point.val_accuracy;
          update.new_points.push_back(e);
          job.curve.push_back(e.point);
        }
        if (reached[j] == points_per_job) {
          job.status = tuning::JobStatus::kFinished;
          job.final_val_accuracy = job.curve.back().val_accuracy;
          job.final_train_loss = job.curve.back().train_loss;
          job.queries = kSteps;
          update.new_finished.push_back(job);
        }
      }
      running.erase(std::remove_if(running.begin(), running.end(),
                                   [&](int j) { return reached[j] == points_per_job; }),
                    running.end());
      QElapsedTimer tick;
      tick.start();
      data->apply(update);
      QCoreApplication::processEvents();  // the queued replot of this tick
      if (ticks++ < 3) first_ticks.push_back(static_cast<double>(tick.nsecsElapsed()) / 1e6);
    }
    QElapsedTimer end;
    end.start();
    data->setResults(run);
    const double end_ms = static_cast<double>(end.nsecsElapsed()) / 1e6;
    QTest::qWait(300);
    const std::vector<double> gaps = recorder.stop();
    QStringList big;  // when the long gaps came: ms since the run started
    double at = 0;
    for (double g : gaps) {
      at += g;
      if (g > 50)
        big << QStringLiteral("%1 ms at %2 s").arg(g, 0, 'f', 0).arg(at / 1000, 0, 'f', 2);
    }
    qInfo(
        "long run: beginLive %.1f ms, setResults (the end) %.1f ms, run length %.1f s; gaps > 50 "
        "ms: %s",
        begin_ms, end_ms, at / 1000, qPrintable(big.join(QStringLiteral(", "))));
    const Stats s = statsOf(gaps);
    qInfo(
        "long run (simulated T = %lld, %d candidates, eval every %d, %d ticks): GUI stall max "
        "%.1f ms, median %.1f ms, p99 %.1f ms, %zu of %zu gaps > 50 ms; first ticks %.1f / %.1f "
        "/ %.1f ms; load average %s -> %s",
        static_cast<long long>(kSteps), jobs, kEvalEvery, ticks, s.max, s.median, s.p99, s.over50,
        s.count, first_ticks.at(0), first_ticks.at(1), first_ticks.at(2), qPrintable(load_before),
        qPrintable(loadAverage()));
    // The run was shown: the curves reached T, and a tab hidden during the run catches up.
    QCPGraph* max = nullptr;
    QCustomPlot* plot = window_->accuracyTab()->curvesChart()->plot();
    for (int i = 0; i < plot->graphCount(); ++i)
      if (plot->graph(i)->name() == QStringLiteral("DPSGD max")) max = plot->graph(i);
    QVERIFY(max);
    QCOMPARE((max->data()->end() - 1)->key, static_cast<double>(kSteps));
    test::showChart(window_, window_->heatmapTab()->chart());
    QCOMPARE(window_->heatmapTab()->cellCount(), 3);
    window_->tabs()->setCurrentWidget(window_->accuracyTab());
  }

  void sliderDrag() {
    PrivacyTab* privacy = window_->privacyTab();
    window_->tabs()->setCurrentWidget(privacy);
    QTRY_VERIFY_WITH_TIMEOUT(privacy->upToDate(), 30000);
    QTest::qWait(50);
    GapRecorder recorder;
    recorder.start();
    for (int v = 30; v <= 60; ++v) {
      privacy->sigmaSlider()->setValue(v);
      QTest::qWait(20);  // the pointer moves every 20 ms
    }
    QTRY_VERIFY_WITH_TIMEOUT(privacy->upToDate(), 60000);
    QTest::qWait(50);
    report("σ slider drag (31 positions, 20 ms apart)", recorder.stop());
    QCOMPARE(privacy->query().noise_multiplier, 6.0);
  }

  void typingInTheForm() {
    NumberField* steps = window_->form()->privacy()->stepsField();
    steps->clear();
    QTest::qWait(50);
    GapRecorder recorder;
    recorder.start();
    QTest::keyClicks(steps, QStringLiteral("25000"), Qt::NoModifier, 30);
    QTRY_VERIFY_WITH_TIMEOUT(window_->privacyTab()->upToDate(), 30000);
    QTest::qWait(100);
    report("typing T in the form", recorder.stop());
    QCOMPARE(window_->privacyTab()->steps(), 25000);
  }

  void reportExport() {
    QTest::qWait(50);
    GapRecorder recorder;
    recorder.start();
    QString error;
    QVERIFY2(test::exportReportAndWait(window_, dir_.filePath(QStringLiteral("report")), &error),
             qPrintable(error));
    QTest::qWait(50);
    report("report export", recorder.stop());
  }

 private:
  void report(const char* what, std::vector<double> gaps) {
    const Stats s = statsOf(std::move(gaps));
    qInfo(
        "%s: GUI stall max %.1f ms, median %.1f ms, p99 %.1f ms, %zu of %zu gaps > 50 ms; load "
        "average %s",
        what, s.max, s.median, s.p99, s.over50, s.count, qPrintable(loadAverage()));
    QVERIFY(s.count > 0);
  }

  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
  experiment::ExperimentConfig config_;
};

DPLAB_TEST_MAIN(TestGuiStallProbe)
#include "test_gui_stall_probe.moc"
