// DiagnosticsPanel: developer numbers kept out of the status bar — the GUI thread's longest
// stall since the last reset (StallMeter: gaps between 10 ms heartbeats).
#pragma once

#include <QWidget>

class QLabel;

namespace dplab::ui {

class StallMeter;

class DiagnosticsPanel : public QWidget {
  Q_OBJECT
 public:
  DiagnosticsPanel(StallMeter* meter, QWidget* parent = nullptr);

 private:
  QLabel* stall_text_;
};

}  // namespace dplab::ui
