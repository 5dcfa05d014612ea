#include "shell/stall_meter.h"

namespace dplab::ui {

StallMeter::StallMeter(QObject* parent, int period_ms) : QObject(parent) {
  timer_.setTimerType(Qt::PreciseTimer);
  timer_.setInterval(period_ms);
  connect(&timer_, &QTimer::timeout, this, &StallMeter::tick);
  clock_.start();
  timer_.start();
}

void StallMeter::reset() {
  longest_ms_ = 0;
  clock_.restart();
  emit longestGapChanged(0);
}

void StallMeter::tick() {
  const double gap = clock_.nsecsElapsed() / 1e6;
  clock_.restart();
  if (gap > longest_ms_) {
    longest_ms_ = gap;
    emit longestGapChanged(gap);
  }
}

}  // namespace dplab::ui
