// RunBar: the strip above the charts — ▶ Run, ■ Cancel, a progress bar of finished jobs and a
// line with throughput and ETA (engine tuning::Progress), or how the last run ended. It shows
// state; the window decides (Run's tooltip lists every reason it is disabled). A private LT / PS
// run (experiment::hides_run_count) shows an indeterminate bar and no count, throughput, ETA or
// time: each of them reveals its private number of runs K.
#pragma once

#include <QStringList>
#include <QWidget>

#include "tuning/runner.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace dplab::ui {

class RunBar : public QWidget {
  Q_OBJECT
 public:
  explicit RunBar(QWidget* parent = nullptr);

  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }
  // Another run control (the Pause button), placed after Cancel.
  void insertControl(QWidget* control);
  // Enables Run when nothing runs and `errors` is empty (else lists them in its tooltip).
  void setState(bool running, const QStringList& errors);
  // `hide_run_count`: the run about to start keeps its number of runs private (until the next
  // showStarting, showProgress and showFinished show no count).
  void showStarting(bool hide_run_count = false);
  void showProgress(const tuning::Progress& progress);
  // `jobs_finished`: jobs that finished training (the history's "n of N"); cancelled and failed
  // ones are in progress.jobs_done but not here. `released`: a private run released a winner
  // (the wording of a run that hides its count).
  void showFinished(bool ok, bool cancelled, const tuning::Progress& progress,
                    std::int64_t jobs_finished, bool released = false);
  // A run opened for viewing (from the run history, a cluster plan folder) rather than run
  // here: `what` names it; the bar counts its jobs finished of all, or none when
  // `hide_run_count` (a private LT / PS run). The next showStarting replaces it.
  void showViewed(const QString& what, std::int64_t jobs_finished, std::int64_t jobs_total,
                  bool hide_run_count);
  bool hidesRunCount() const { return hide_run_count_; }
  QString text() const;
  // The progress bar's format (its text; a busy bar draws none), for tests and tooltips.
  QString progressFormat() const;
  // The progress bar's text as drawn ("3 / 5 jobs").
  QString progressText() const;
  // The bar and the line while a private LT / PS selection trains.
  static QString privateTrainingText();

 signals:
  void runClicked();
  void cancelClicked();

 private:
  QPushButton* run_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QLabel* text_;
  bool hide_run_count_ = false;
};

// "42 s", "3 min 5 s", "–" for an unknown (NaN or negative) duration.
QString formatDuration(double seconds);

}  // namespace dplab::ui
