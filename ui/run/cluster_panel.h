// ClusterPanel: the main window attached to a plan folder (File → Open cluster run…, issue #28).
// The shards run elsewhere (a Slurm array, other machines, `dplab-cli run-jobs` in a shell); the
// window only reads the folder. Every kPollMs the engine's ClusterWatcher (cluster/cluster_watch.h)
// reads the shard stores READ-ONLY on a worker thread (LatestOnlyTask: the GUI thread never
// waits on SQLite or the file system) and the result feeds RunData as a local run feeds it:
// beginLive with the plan's jobs, then apply() of the jobs stored since the last poll, and
// setResults when every job is stored (a private release: its winners only, as the merge selects
// them). If the charts are taken over (a local run, a run opened from the history), the panel
// keeps polling and "Show in charts" brings the cluster run back.
// The panel, above the chart tabs: a line of what is watched, a strip with one cell per shard
// (jobs done / jobs; a shard without a store yet, stale or in error shows so, its tooltip says
// why), and Merge — enabled when every shard is complete — which runs `history merge`'s engine
// steps (merge_shards, store_merged_run) on a worker thread into the window's run history and
// then shows the merged run as the history opens it. Errors (not a plan folder, a foreign or
// unreadable store) go to message(), naming the file. Privacy: the folder and these counts are
// the curator's (a private plan's job counts reveal K): the panel says so; nothing here exports.
#pragma once

#include <QWidget>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "async/latest_only_task.h"
#include "cluster/cluster_watch.h"

class QLabel;
class QPushButton;
class QTimer;

namespace dplab::ui {

class BackgroundTask;
class HistoryPanel;
class RunController;
class RunData;

// One painted cell per shard: the done part filled, failed in red, a stale shard amber, a shard
// in error red, a shard without a store hatched; "I: done/jobs" inside when it fits.
class ShardStrip : public QWidget {
  Q_OBJECT
 public:
  explicit ShardStrip(QWidget* parent = nullptr);
  void setStates(const std::vector<cluster::ShardState>& states);
  const std::vector<cluster::ShardState>& states() const { return states_; }
  QString cellText(int shard) const;  // what cell `shard` says (its tooltip's first line)
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;  // per-cell tooltips

 private:
  int cellAt(int x) const;
  std::vector<cluster::ShardState> states_;
};

class ClusterPanel : public QWidget {
  Q_OBJECT
 public:
  ClusterPanel(RunData* data, RunController* controller, HistoryPanel* history,
               QWidget* parent = nullptr);
  ~ClusterPanel() override;

  // Starts watching `dir` (the plan is read on the worker: a bad folder comes back as an error
  // message naming the file, and the panel hides again). Replaces a folder watched before.
  void attach(const QString& dir);
  void detach();
  bool attached() const { return !dir_.isEmpty(); }
  QString directory() const { return dir_; }
  bool merge();  // false when Merge is not enabled

  void setPollInterval(int ms);
  ShardStrip* strip() const { return strip_; }
  QPushButton* mergeButton() const { return merge_button_; }
  QPushButton* showButton() const { return show_button_; }
  QLabel* summaryLabel() const { return summary_; }
  // The last poll delivered (null before the first).
  std::shared_ptr<const cluster::ClusterPoll> lastPoll() const { return last_; }
  int polls() const { return polls_; }
  bool feedingCharts() const { return feeding_; }
  qint64 mergedRun() const { return merged_run_; }

 signals:
  void message(const QString& text, bool is_error);
  void attachedChanged(bool attached);
  void merged(qint64 run_id);

 private:
  struct Watch;  // the worker's state for one folder
  struct Delivery {
    int generation = 0;
    std::shared_ptr<const cluster::SearchPlan> plan;  // on the first poll of a folder
    std::shared_ptr<const cluster::ClusterPoll> poll;
  };
  void tick();
  void onDelivery(const Delivery& d);
  void onFailure(const QString& error);
  void showInCharts();
  void feed(const cluster::ClusterPoll& poll);
  void updateView();
  void report(const QString& text, bool is_error);
  QString runTitle() const;

  RunData* data_;
  RunController* controller_;
  HistoryPanel* history_;
  QLabel* summary_;
  QLabel* curator_note_;
  ShardStrip* strip_;
  QPushButton* show_button_;
  QPushButton* merge_button_;
  QPushButton* detach_button_;
  QTimer* timer_;
  BackgroundTask* merge_task_;

  QString dir_;
  int generation_ = 0;
  std::shared_ptr<Watch> watch_;
  std::shared_ptr<const cluster::SearchPlan> plan_;
  std::shared_ptr<const cluster::ClusterPoll> last_;
  bool feeding_ = false;
  bool finalized_ = false;  // the charts show the complete search
  qint64 merged_run_ = -1;
  int polls_ = 0;
  std::set<QString> reported_;  // errors said once per attach
  LatestOnlyTask<std::shared_ptr<Watch>, Delivery> polls_task_;
};

}  // namespace dplab::ui
