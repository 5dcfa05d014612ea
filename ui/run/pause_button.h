// PauseButton: "Pause" / "▶ Resume" for the running search (RunController::pause/resume,
// which hold every job before its next optimizer step: nothing is lost and the results equal an
// uninterrupted run). Enabled only while a run is going on; F8 (the window's Run → Pause action)
// toggles the run the same way.
#pragma once

#include <QPushButton>

namespace dplab::ui {

class RunController;

class PauseButton : public QPushButton {
  Q_OBJECT
 public:
  PauseButton(RunController* controller, QWidget* parent = nullptr);

 private:
  void update();
  RunController* controller_;
};

}  // namespace dplab::ui
