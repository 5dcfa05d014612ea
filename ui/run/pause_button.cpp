#include "run/pause_button.h"

#include "run/run_controller.h"

namespace dplab::ui {

PauseButton::PauseButton(RunController* controller, QWidget* parent)
    : QPushButton(parent), controller_(controller) {
  setObjectName(QStringLiteral("pauseButton"));
  setShortcut(QKeySequence(Qt::Key_F8));
  connect(this, &QPushButton::clicked, this, [this] {
    if (controller_->paused()) {
      controller_->resume();
    } else {
      controller_->pause();
    }
  });
  connect(controller_, &RunController::started, this, &PauseButton::update);
  connect(controller_, &RunController::finished, this, &PauseButton::update);
  connect(controller_, &RunController::pausedChanged, this, &PauseButton::update);
  update();
}

void PauseButton::update() {
  const bool paused = controller_->paused();
  setEnabled(controller_->running());
  setText(paused ? tr("▶ Resume") : tr("Pause"));
  setToolTip(paused ? tr("Continue the paused run (F8): every job goes on from the step it "
                         "stopped at, so the results equal an uninterrupted run.")
                    : tr("Pause the run (F8): jobs stop before their next step and keep their "
                         "state; nothing is lost or recomputed."));
}

}  // namespace dplab::ui
