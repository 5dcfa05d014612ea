// RunData: the search results the charts and the table show — either a live run (the plan posted
// by the RunController, then the learning-curve points drained from the engine RunMonitor on
// every GUI tick) or a finished/reloaded run (engine SearchResults from the Runner or the SQLite
// store). It caches the engine aggregates (tuning::aggregate_all: max/median curves, α–C grid,
// times best) once per change, so every tab reads the same numbers.
// Live view: a job that has reported points counts as finished for the aggregates, with its
// partial curve, so the max/median curves grow while jobs run.
#pragma once

#include <QObject>
#include <optional>

#include "tuning/aggregates.h"
#include "tuning/results.h"
#include "tuning/run_monitor.h"

namespace dplab::ui {

class RunData : public QObject {
  Q_OBJECT
 public:
  explicit RunData(QObject* parent = nullptr);

  bool hasRun() const { return has_run_; }
  bool live() const { return live_; }
  const tuning::SearchResults& results() const { return results_; }
  // The engine aggregates over the current view (computed lazily once per change).
  const std::vector<tuning::OptimizerAggregates>& aggregates() const;
  // Results where jobs with points count as finished (what aggregates() uses while live).
  const tuning::SearchResults& viewResults() const;
  int changeCount() const { return changes_; }
  QString title() const { return title_; }

 public slots:
  void beginLive(const tuning::SearchResults& plan);
  void apply(const tuning::MonitorUpdate& update);
  void setResults(const tuning::SearchResults& results, const QString& title = QString());
  void clear();

 signals:
  // structural = a new run/plan (charts rebuild their graphs), else new points only.
  void changed(bool structural);

 private:
  void touch(bool structural);

  tuning::SearchResults results_;
  mutable std::optional<tuning::SearchResults> view_;
  mutable std::optional<std::vector<tuning::OptimizerAggregates>> aggregates_;
  bool has_run_ = false;
  bool live_ = false;
  int changes_ = 0;
  QString title_;
};

}  // namespace dplab::ui
