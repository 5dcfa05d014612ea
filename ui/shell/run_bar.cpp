#include "shell/run_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <algorithm>
#include <cmath>

namespace dplab::ui {

QString formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("–");
  const int s = static_cast<int>(std::lround(seconds));
  return s >= 60 ? QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60)
                 : QStringLiteral("%1 s").arg(s);
}

RunBar::RunBar(QWidget* parent) : QWidget(parent) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  run_ = new QPushButton(tr("▶ Run"), this);
  run_->setToolTip(
      tr("Train every candidate of the experiment (Ctrl+R). Disabled while a "
         "field is invalid — hover it for the reason."));
  cancel_ = new QPushButton(tr("■ Cancel"), this);
  cancel_->setToolTip(tr("Stop the run (Esc or Ctrl+.); finished jobs are kept."));
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setFormat(tr("no run yet"));  // not "0 / 1 jobs" before any run
  progress_->setToolTip(tr("Jobs (candidate × repeat) finished out of all jobs."));
  text_ = new QLabel(tr("idle"), this);
  text_->setMinimumWidth(180);
  text_->setToolTip(
      tr("Training throughput over all worker threads and the estimated "
         "time left."));
  layout->addWidget(run_);
  layout->addWidget(cancel_);
  layout->addWidget(progress_, 1);
  layout->addWidget(text_);
  connect(run_, &QPushButton::clicked, this, &RunBar::runClicked);
  connect(cancel_, &QPushButton::clicked, this, &RunBar::cancelClicked);
}

void RunBar::insertControl(QWidget* control) {
  static_cast<QHBoxLayout*>(layout())->insertWidget(layout()->indexOf(cancel_) + 1, control);
}

void RunBar::setState(bool running, const QStringList& errors) {
  run_->setEnabled(!running && errors.isEmpty());
  cancel_->setEnabled(running);
  run_->setToolTip(errors.isEmpty()
                       ? tr("Train every candidate of the experiment (Ctrl+R).")
                       : tr("Fix first:\n• %1").arg(errors.join(QStringLiteral("\n• "))));
}

QString RunBar::privateTrainingText() {
  return tr("training (private selection: the number of runs is not shown)");
}

void RunBar::showStarting(bool hide_run_count) {
  hide_run_count_ = hide_run_count;
  if (hide_run_count_) {
    // An indeterminate bar: its fraction, the job and step counts, steps/s, the ETA and the
    // elapsed time all reveal the private number of runs K (experiment::hides_run_count).
    progress_->setRange(0, 0);
    progress_->setFormat(privateTrainingText());
    progress_->setToolTip(
        tr("A private Liu–Talwar / Papernot–Steinke selection draws its number of runs at "
           "random and releases only the winner: how many runs it trains, and how long that "
           "takes, are curator-only (dplab-cli tune --show-curator)."));
    text_->setToolTip(progress_->toolTip());
    text_->setText(privateTrainingText());
    return;
  }
  progress_->setToolTip(tr("Jobs (candidate × repeat) finished out of all jobs."));
  text_->setToolTip(
      tr("Training throughput over all worker threads and the estimated "
         "time left."));
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setFormat(tr("%v / %m jobs"));
  text_->setText(tr("loading data and starting workers …"));
}

void RunBar::showProgress(const tuning::Progress& p) {
  if (hide_run_count_) {
    text_->setText(p.paused ? tr("paused (private selection: the number of runs is not shown)")
                            : privateTrainingText());
    return;
  }
  progress_->setRange(0, static_cast<int>(std::max<std::int64_t>(1, p.jobs_total)));
  progress_->setValue(static_cast<int>(p.jobs_done));
  if (p.paused) {
    text_->setText(tr("paused · %1 / %2 steps").arg(p.steps_done).arg(p.steps_total));
    return;
  }
  text_->setText(tr("%1 steps/s · ETA %2 · %3 / %4 steps")
                     .arg(p.steps_per_second, 0, 'f', 0)
                     .arg(formatDuration(p.eta_seconds))
                     .arg(p.steps_done)
                     .arg(p.steps_total));
}

void RunBar::showFinished(bool ok, bool cancelled, const tuning::Progress& p,
                          std::int64_t jobs_finished, bool released) {
  const bool complete = ok && !cancelled;
  if (hide_run_count_) {
    // What was released, with no count and no time (both reveal K).
    const QString text = !ok         ? tr("failed — see Messages")
                         : released  ? (cancelled ? tr("cancelled: released the replicate "
                                                        "searches that finished")
                                                  : tr("released"))
                         : cancelled ? tr("cancelled: nothing released")
                                     : tr("nothing released");
    progress_->setRange(0, 1);
    progress_->setValue(released ? 1 : 0);
    progress_->setFormat(text);
    text_->setText(text);
    return;
  }
  // Jobs that finished training, as the run history counts them (a cancelled job is not one).
  progress_->setValue(complete ? progress_->maximum() : static_cast<int>(jobs_finished));
  text_->setText(!ok         ? tr("failed — see Messages")
                 : cancelled ? tr("cancelled after %1 s").arg(p.elapsed_seconds, 0, 'f', 1)
                             : tr("done in %1 s (%2 steps/s)")
                                   .arg(p.elapsed_seconds, 0, 'f', 1)
                                   .arg(p.steps_per_second, 0, 'f', 0));
}

void RunBar::showViewed(const QString& what, std::int64_t jobs_finished, std::int64_t jobs_total,
                        bool hide_run_count) {
  hide_run_count_ = hide_run_count;
  const QString text = tr("viewing %1").arg(what);
  progress_->setToolTip(hide_run_count ? tr("A private selection's number of runs is not shown.")
                                       : tr("Jobs of the viewed run that finished training."));
  progress_->setRange(0, 1);
  if (hide_run_count) {
    progress_->setValue(0);
    progress_->setFormat(tr("private: no count"));
  } else {
    progress_->setRange(0, static_cast<int>(std::max<std::int64_t>(1, jobs_total)));
    progress_->setValue(static_cast<int>(jobs_finished));
    progress_->setFormat(tr("%v / %m jobs"));
  }
  text_->setToolTip(text);
  text_->setText(text);
}

QString RunBar::text() const {
  return text_->text();
}

QString RunBar::progressFormat() const {
  return progress_->format();
}

QString RunBar::progressText() const {
  return progress_->text();
}

}  // namespace dplab::ui
