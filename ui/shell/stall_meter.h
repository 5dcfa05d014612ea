// StallMeter: measures how long the GUI thread is kept from processing events. A 10 ms
// heartbeat QTimer runs on the GUI thread; each tick records the gap since the previous tick
// (QElapsedTimer). The longest gap is the worst stall a user could have felt (a responsive GUI
// stays near the 10 ms period). Shown in the status bar and printed by --quit-when-done.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace dplab::ui {

class StallMeter : public QObject {
  Q_OBJECT
 public:
  explicit StallMeter(QObject* parent = nullptr, int period_ms = 10);

  // Longest gap between two heartbeats since the last reset, in milliseconds.
  double longestGapMs() const { return longest_ms_; }
  int periodMs() const { return timer_.interval(); }
  // Starts a new measuring window (e.g. at the start of a run).
  void reset();

 signals:
  void longestGapChanged(double ms);

 private:
  void tick();

  QTimer timer_;
  QElapsedTimer clock_;
  double longest_ms_ = 0;
};

}  // namespace dplab::ui
