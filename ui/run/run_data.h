// RunData: the search results the charts and the table show — either a live run (the plan posted
// by the RunController, then the learning-curve points drained from the engine RunMonitor on
// every GUI tick) or a finished/reloaded run (engine SearchResults from the Runner or the SQLite
// store). It caches the engine aggregates (tuning::aggregate_all: max/median curves, α–C grid,
// times best) once per change, so every tab reads the same numbers.
// Live view: a job that has reported points counts as finished for the aggregates, with its
// partial curve, so the max/median curves grow while jobs run.
// Private release modes (engine tuning/private_release_view.h): runs() holds every run trained
// (job i = global run i), but results() — what every chart, table and export reads — holds only
// the released winner(s), laid out as an explore grid; every run only after setRevealAll(true),
// the explicit "not private: for teaching only" switch (reset to off by every new run).
#pragma once

#include <QObject>
#include <optional>

#include "store/spent_budget.h"
#include "tuning/aggregates.h"
#include "tuning/private_search.h"
#include "tuning/release_cost.h"
#include "tuning/results.h"
#include "tuning/run_monitor.h"

namespace dplab::ui {

class RunData : public QObject {
  Q_OBJECT
 public:
  explicit RunData(QObject* parent = nullptr);

  bool hasRun() const { return has_run_; }
  bool live() const { return live_; }
  // What the views may show (see above): in explore every run, in private modes the winner(s).
  const tuning::SearchResults& results() const;
  // Every run as trained (private modes: job i = global run i). Not for display.
  const tuning::SearchResults& runs() const { return results_; }
  // The engine aggregates over the current view (computed lazily once per change).
  const std::vector<tuning::OptimizerAggregates>& aggregates() const;
  // Results where running or cancelled jobs with points count as finished (what aggregates()
  // uses while live, and after a cancel: the curves drawn live stay drawn).
  const tuning::SearchResults& viewResults() const;
  // A shown job was cut short with points (running, or cancelled): its curve is partial.
  bool hasPartialCurves() const;
  // The last iteration that every job of optimizer `optimizer_index` has reached: while live,
  // jobs still pending or running bound it by their last point (-1 if one has none); after a
  // cancel, the cancelled jobs with points. Other ended jobs do not (a diverged job's curve
  // stops there in a finished run's aggregate too). Beyond it the max/median over candidates is
  // over a subset only: provisional. INT64_MAX when nothing bounds it (a finished run).
  std::int64_t settledIteration(int optimizer_index) const;
  // The engine's cost (tuning::release_cost) of what is shown. While an explore run goes on, its
  // released points so far: a running job counts up to its last point (the queries that point
  // was computed from), and what the cost covers says "so far". A run from the run history (or
  // one just stored there) states what it SPENT over all its attempts instead
  // (store::with_spent_budget: a resumed, cancelled run's earlier charges stay).
  tuning::ReleaseCost releaseCost() const;
  int changeCount() const { return changes_; }
  QString title() const { return title_; }
  // Whether the shown run was started from the form (a local run, whose title is the default):
  // a run opened from the history or a cluster plan was not, so a form that differs from it was
  // not "modified since" it.
  bool startedFromForm() const { return from_form_; }

  bool isPrivate() const;
  // The winners of a private search (empty while it runs, or when the history has none).
  const std::optional<tuning::PrivateRelease>& privateRelease() const { return release_; }
  bool revealAll() const { return reveal_all_; }
  // The shown run's spent budget in the history (setResults), if it is stored there.
  const std::optional<store::SpentBudget>& spentBudget() const { return spent_; }

 public slots:
  // `title`: what the run is called ("" = "“name”, run started HH:MM:SS").
  void beginLive(const tuning::SearchResults& plan, const QString& title = QString());
  void apply(const tuning::MonitorUpdate& update);
  // `release`: the winners of a private search (one redraw for results and winners).
  // `spent`: the run's spent budget in the history (Store::spent_budget), if it is stored.
  void setResults(const tuning::SearchResults& results, const QString& title = QString(),
                  const std::optional<tuning::PrivateRelease>& release = std::nullopt,
                  const std::optional<store::SpentBudget>& spent = std::nullopt);
  // The "not private: for teaching only" switch: every run of a private search is shown.
  void setRevealAll(bool reveal);
  void clear();

 signals:
  // structural = a new run/plan (charts rebuild their graphs), else new points only.
  void changed(bool structural);
  void revealChanged(bool reveal);

 private:
  void touch(bool structural);
  std::size_t jobIndex(int candidate, int repeat) const;

  tuning::SearchResults results_;
  mutable std::optional<tuning::SearchResults> shown_;  // private modes: the grid of what is shown
  mutable std::optional<tuning::SearchResults> view_;
  mutable std::optional<std::vector<tuning::OptimizerAggregates>> aggregates_;
  std::optional<tuning::PrivateRelease> release_;
  std::optional<store::SpentBudget> spent_;
  bool has_run_ = false;
  bool live_ = false;
  bool reveal_all_ = false;
  int changes_ = 0;
  QString title_;
  bool from_form_ = false;
};

}  // namespace dplab::ui
