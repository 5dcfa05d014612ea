// RunMonitor: a thread-safe RunListener that accumulates everything a run reports (points per
// job, finished jobs, progress, errors) so that a GUI can poll it on a timer (~100 ms) and
// replot once per tick — the PlotJuggler pattern: workers append under a short lock and never
// touch widgets; the GUI thread drains what is new.
//
// Thread-safety: every member function may be called from any thread at any time.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "tuning/runner.h"

namespace dplab::tuning {

struct MonitorUpdate {
  std::vector<PointEvent> new_points;   // in arrival order since the previous take_new()
  std::vector<JobResult> new_finished;  // jobs finished since then (curve included)
  std::vector<std::string> new_errors;  // "candidate 3, repeat 0: message"
  Progress progress;
  bool started = false;
  bool finished = false;
  bool cancelled = false;
};

struct MonitorSnapshot {
  // Every point so far, per (candidate, repeat).
  std::map<std::pair<int, int>, std::vector<training::CurvePoint>> curves;
  std::vector<JobResult> finished;  // in finishing order
  std::vector<std::string> errors;
  Progress progress;
  bool started = false;
  bool finished_run = false;
  bool cancelled = false;
};

class RunMonitor : public RunListener {
 public:
  // Drains what arrived since the previous call (cheap: swaps buffers).
  MonitorUpdate take_new();
  // A full copy of everything so far (for a redraw from scratch).
  MonitorSnapshot snapshot() const;
  Progress progress() const;
  bool finished() const;

  void on_start(const SearchResults& plan) override;
  void on_point(const PointEvent& event) override;
  void on_job_finished(const JobResult& job) override;
  void on_progress(const Progress& progress) override;
  void on_finished(const SearchResults& results, bool cancelled) override;

 private:
  mutable std::mutex mutex_;
  MonitorSnapshot all_;
  MonitorUpdate pending_;
};

}  // namespace dplab::tuning
