// RunBar: the strip above the charts — ▶ Run, ■ Cancel, a progress bar of finished jobs and a
// line with throughput and ETA (engine tuning::Progress), or how the last run ended. It shows
// state; the window decides (Run's tooltip lists every reason it is disabled).
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
  void showStarting();
  void showProgress(const tuning::Progress& progress);
  // `jobs_finished`: jobs that finished training (the history's "n of N"); cancelled and failed
  // ones are in progress.jobs_done but not here.
  void showFinished(bool ok, bool cancelled, const tuning::Progress& progress,
                    std::int64_t jobs_finished);
  QString text() const;

 signals:
  void runClicked();
  void cancelClicked();

 private:
  QPushButton* run_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QLabel* text_;
};

// "42 s", "3 min 5 s", "–" for an unknown (NaN or negative) duration.
QString formatDuration(double seconds);

}  // namespace dplab::ui
