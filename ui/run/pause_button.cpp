#include "run/pause_button.h"

#include "run/run_controller.h"

namespace dplab::ui {

PauseButton::PauseButton(RunController* controller, QWidget* parent)
    : QPushButton(parent), controller_(controller) {
  setObjectName(QStringLiteral("pauseButton"));
  // No shortcut of its own: setText() below would reset it (Qt clears a button's shortcut to the
  // text's mnemonic). F8 is the window's Run → Pause action, which toggles the same way.
  connect(this, &QPushButton::clicked, controller_, &RunController::togglePause);
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
