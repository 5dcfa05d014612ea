// Shared helpers of the UI test suites: a tiny synthetic experiment and tolerance checks.
#pragma once

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTimer>
#include <QtTest>
#include <cmath>

#include "experiment/experiment_config.h"

namespace dplab::ui::test {

// Synthetic binary data, 5 candidates (3 DPSGD + 2 DPAdam), 100 steps: runs in well under a second.
inline experiment::ExperimentConfig tinyExperiment() {
  return experiment::parse_experiment_text(R"({
    "name": "ui test tiny",
    "seed": 5,
    "repeats": 1,
    "eval_every": 10,
    "dataset": {"source": "synthetic-binary"},
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 2.0, "lot_size": 100, "steps": 100},
    "optimizers": [
      {"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5, 2.0], "clip": [1.0]}},
      {"name": "dpadam", "grid": {"learning_rate": 0.001, "clip": [0.5, 1.0]}}
    ],
    "tuning": {"strategy": "grid"}
  })",
                                           "tiny");
}

// Relative comparison that prints 17 digits on failure (QCOMPARE on doubles is fuzzy).
inline bool closeRel(double actual, double expected, double rel_tol) {
  const bool ok = std::abs(actual - expected) <= rel_tol * std::max(std::abs(expected), 1e-300);
  if (!ok) qWarning("actual %.17g expected %.17g (rel tol %g)", actual, expected, rel_tol);
  return ok;
}

// Starts the window's report export and waits until it is written: exportReport() returns at
// once (the files are written off the GUI thread) and reportExported() tells the outcome.
template <class Window>
bool exportReportAndWait(Window* window, const QString& dir, QString* error,
                         int timeout_ms = 60000) {
  QSignalSpy done(window, &Window::reportExported);
  if (!window->exportReport(dir, error)) return false;
  if (done.isEmpty() && !done.wait(timeout_ms)) {
    *error = QStringLiteral("the report was not written within %1 ms").arg(timeout_ms);
    return false;
  }
  const QList<QVariant> outcome = done.takeFirst();
  if (!outcome.at(0).toBool()) {
    *error = outcome.at(2).toString();
    return false;
  }
  return true;
}

// Presses the button of the next modal message box whose text contains `button`; returns the
// box's text through `seen`.
inline void answerNextBox(const QString& button, QString* seen) {
  QTimer::singleShot(0, [button, seen] {
    QWidget* modal = nullptr;
    if (!QTest::qWaitFor([&] { return (modal = QApplication::activeModalWidget()) != nullptr; },
                         5000))
      return;  // no dialog came: the test fails on what it checks next
    auto* box = qobject_cast<QMessageBox*>(modal);
    if (!box) {
      if (modal) modal->close();
      return;
    }
    if (seen) *seen = box->text();
    for (QAbstractButton* b : box->buttons()) {
      if (b->text().remove(QLatin1Char('&')).contains(button)) {
        b->click();
        return;
      }
    }
    box->close();
  });
}

}  // namespace dplab::ui::test
