// HistoryPanel: the run history from the SQLite store, one row per run with its name, data set,
// status, jobs, the ε of what it released and its best score (engine store::list_history, read
// on a worker thread), and the user's notes. Actions on the selected run:
//   Open (double-click)  show it in the charts and the table (store::Store::load_results); the
//                        form is left as it is (the window says "the form holds another
//                        experiment" when they differ);
//   Use its config       put the run's experiment into the form (asks before discarding edits:
//                        the main window's DiscardGuard answers configRequested);
//   Compare              overlay the best curve per optimizer of the selected runs;
//   Rename… / Notes…     stored in the history file; Delete… asks first;
//   Resume               for an interrupted or cancelled run: runs only its missing jobs
//                        (RunController::resumeRun, the engine path of `dplab-cli tune --resume`);
//                        selecting such a run says so above the buttons.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "async/latest_only_task.h"
#include "experiment/experiment_config.h"
#include "store/run_history.h"

class QGridLayout;
class QLabel;
class QPushButton;
class QTableWidget;

namespace dplab::ui {

class RunController;
class RunData;

class HistoryPanel : public QWidget {
  Q_OBJECT
 public:
  enum Column {
    kId,
    kStarted,
    kName,
    kDataset,
    kStatus,
    kJobs,
    kRelease,
    kSigma,
    kSteps,
    kEpsilon,
    kBest,
    kNotes,
    kColumns
  };

  HistoryPanel(RunController* controller, RunData* data, QWidget* parent = nullptr);
  int count() const;
  // Shows run `id` of the history in the charts and the table; false if it cannot be loaded.
  bool openRun(qint64 id);
  // The ids listed, newest first.
  QList<qint64> ids() const;
  const std::vector<store::HistoryEntry>& entries() const { return entries_; }
  QTableWidget* table() const { return table_; }
  bool selectRun(qint64 id);
  qint64 selectedRun() const;  // -1: none

  bool renameRun(qint64 id, const QString& name);
  bool setNotes(qint64 id, const QString& notes);
  bool deleteRun(qint64 id);  // no question asked (the Delete… button asks)
  bool resumeRun(qint64 id);
  bool requestConfig(qint64 id);  // emits configRequested with the run's experiment

  QPushButton* resumeButton() const { return resume_; }
  QPushButton* deleteButton() const { return delete_; }
  QPushButton* compareButton() const { return compare_; }
  QPushButton* useConfigButton() const { return use_config_; }
  QString resumeHint() const;
  // The Delete… button's question for run `id` (a private LT / PS run's names no job count).
  QString deleteQuestion(qint64 id) const;
  int reloads() const { return reloads_.computations(); }

 public slots:
  void reload();

 signals:
  void message(const QString& text, bool is_error);
  void opened();
  void configRequested(const dplab::experiment::ExperimentConfig& config);
  void reloaded();

 private:
  void fill(const std::vector<store::HistoryEntry>& entries);
  void updateButtons();
  void openSelected();
  void compareSelected();
  void askRename();
  void askNotes();
  void askDelete();
  const store::HistoryEntry* entry(qint64 id) const;
  void reflowButtons(int columns);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  RunController* controller_;
  RunData* data_;
  QTableWidget* table_;
  QLabel* hint_;
  QPushButton* open_;
  QPushButton* use_config_;
  QPushButton* compare_;
  QPushButton* rename_;
  QPushButton* notes_;
  QPushButton* delete_;
  QPushButton* resume_;
  std::vector<QPushButton*> buttons_;
  QGridLayout* button_grid_;
  int button_width_ = 0;
  int button_columns_ = 0;
  std::vector<store::HistoryEntry> entries_;
  int latest_ = 0;  // sequence number of the newest reload
  // The listing (engine store::list_history) off the GUI thread; the shared store stays alive
  // while it is read even if the history path changes meanwhile.
  LatestOnlyTask<std::shared_ptr<store::Store>, std::vector<store::HistoryEntry>> reloads_;
};

}  // namespace dplab::ui
