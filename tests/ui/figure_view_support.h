// Helpers for the paper-figure views (views/figure_run_panel.h FigureView): start a long run,
// cancel it through the Cancel button and check that the view came back idle.
#pragma once

#include <QElapsedTimer>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "shell/stall_meter.h"
#include "views/figure_run_panel.h"

namespace dplab::ui::test {

// Clicks `view`'s Run button in `window` and waits up to `timeout_ms` for the end. True when the
// click returned at once with the run going (busy, Run disabled, Cancel enabled), the run ended
// ok and the GUI thread never stalled `max_stall_ms` or more meanwhile (the window's meter).
template <class Window>
bool clickRunToEnd(Window* window, FigureView* view, double max_stall_ms, int timeout_ms = 120000) {
  QSignalSpy finished(view, &FigureView::finished);
  window->stallMeter()->reset();
  QTest::mouseClick(view->runButton(), Qt::LeftButton);
  if (!view->busy() || view->runButton()->isEnabled() || !view->cancelButton()->isEnabled()) {
    qWarning("the click did not leave a run going: %s", qPrintable(view->statusText()));
    return false;
  }
  if (!QTest::qWaitFor([&] { return finished.count() == 1; }, timeout_ms)) {
    qWarning("the run did not end within %d ms", timeout_ms);
    return false;
  }
  if (!finished.at(0).at(0).toBool()) {
    qWarning("the run failed: %s", qPrintable(view->statusText()));
    return false;
  }
  if (window->longestStallMs() >= max_stall_ms) {
    qWarning("the GUI thread stalled %g ms", window->longestStallMs());
    return false;
  }
  return view->progressBar()->value() == view->progressBar()->maximum();
}

// Runs `view`, lets it work `run_ms`, clicks Cancel and waits up to `timeout_ms` for the end.
// True when the run was still busy at the click and ended cancelled (not ok), with Run enabled
// and Cancel disabled again; otherwise false with a warning saying what went wrong.
inline bool runThenCancel(FigureView* view, int run_ms, int timeout_ms = 30000) {
  QSignalSpy finished(view, &FigureView::finished);
  if (!view->run()) {
    qWarning("the run did not start: %s", qPrintable(view->statusText()));
    return false;
  }
  QTest::qWait(run_ms);
  if (!view->busy()) {
    qWarning("the run ended within %d ms: nothing to cancel", run_ms);
    return false;
  }
  QElapsedTimer clock;
  clock.start();
  QTest::mouseClick(view->cancelButton(), Qt::LeftButton);
  if (!QTest::qWaitFor([&] { return finished.count() == 1; }, timeout_ms)) {
    qWarning("Cancel did not end the run within %d ms", timeout_ms);
    return false;
  }
  qInfo("cancel took %lld ms", static_cast<long long>(clock.elapsed()));
  const bool ok = finished.at(0).at(0).toBool(), cancelled = finished.at(0).at(1).toBool();
  if (ok || !cancelled) {
    qWarning("the run ended ok = %d, cancelled = %d: %s", ok, cancelled,
             qPrintable(view->statusText()));
    return false;
  }
  return view->runButton()->isEnabled() && !view->cancelButton()->isEnabled() && !view->busy();
}

}  // namespace dplab::ui::test
