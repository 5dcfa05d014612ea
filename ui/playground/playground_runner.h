// PlaygroundRunner: the Playground's training off the GUI thread (issue #27). One worker (a
// LatestOnlyTask, async/latest_only_task.h) owns the private PlaygroundSession and its non-private
// shadow; the GUI asks for "these settings, trained to step N" and gets a snapshot back. A query
// names a TARGET step, not a number of steps to add, so a query replaced by a newer one (latest
// wins) loses nothing: step N of a setting is the same parameters however it was reached
// (PlaygroundSession is deterministic), and a target below the current step rebuilds the run.
// Different settings (anything but delta, which changes no run) rebuild both sessions.
#pragma once

#include <QObject>
#include <QString>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "async/latest_only_task.h"
#include "playground/decision_boundary.h"
#include "playground/playground_session.h"

namespace dplab::ui {

struct PlaygroundQuery {
  playground::PlaygroundSettings settings;
  std::int64_t target_steps = 0;
  int projection_a = 0, projection_b = 1;
  int field_resolution = 100;
};

struct PlaygroundSnapshot {
  playground::PlaygroundSettings settings;
  std::shared_ptr<const playground::PlaygroundData> data;
  std::int64_t steps = 0;
  bool finished = false;
  Vector parameters;
  std::vector<std::string> parameter_names;
  std::vector<playground::HistoryPoint> history, shadow_history;
  playground::StepPicture picture;
  playground::DecisionField field;
  // The p = 1/2 boundary of this run's field, and of its non-private shadow's when the run is
  // private (empty otherwise: the shadow is the same run), computed here on the worker.
  std::vector<playground::BoundarySegment> boundary, shadow_boundary;
  // RDP epsilon of the steps taken (the step label's "ε spent so far"), computed here on the
  // worker: the accountant never runs on the GUI thread. Empty when not private or at step 0.
  std::optional<double> epsilon_spent;
  double compute_ms = 0;  // the worker's time for the steps and the field of this snapshot
  std::int64_t steps_computed = 0;
};

class PlaygroundRunner : public QObject {
  Q_OBJECT
 public:
  explicit PlaygroundRunner(QObject* parent = nullptr);
  ~PlaygroundRunner() override;

  int submit(const PlaygroundQuery& query);
  bool busy() const;

 signals:
  void snapshotReady(int sequence, const std::shared_ptr<const dplab::ui::PlaygroundSnapshot>& s);
  void failed(const QString& error);

 private:
  struct Sessions;
  std::shared_ptr<const PlaygroundSnapshot> compute(const PlaygroundQuery& query);

  std::unique_ptr<Sessions> sessions_;  // touched by the worker thread only
  std::unique_ptr<LatestOnlyTask<PlaygroundQuery, std::shared_ptr<const PlaygroundSnapshot>>> task_;
};

}  // namespace dplab::ui
