// MainWindow: wires the small parts together and owns nothing clever. Left: the experiment form;
// top of the centre: the RunBar (Run/Cancel, progress); centre: tabs of charts (accuracy
// curves, α–C heatmap, privacy of tuning, DPAdam step size, results table); bottom: messages,
// run history and diagnostics (StallMeter: the GUI thread's longest stall). Menus: File
// (ExperimentFiles: open/save, built-in presets, recent files; ReportExporter: export report;
// Open cluster run…: ClusterPanel watches a plan folder's shard stores above the tabs), Run, Help;
// shortcuts Ctrl+R, Esc / Ctrl+., F8 (pause / resume), Ctrl+S, Ctrl+E. The starting experiment is a
// preset file (presets.h). Settings persist in QSettings.
#pragma once

#include <QMainWindow>

#include "charts/chart_export.h"
#include "experiment/experiment_config.h"
#include "shell/result_tabs.h"

class QAction;
class QDockWidget;
class QLabel;
class QTabWidget;
class QMenu;

namespace dplab::ui {

class AccountantGapView;
class PlaygroundWindow;

class AccuracyTab;
class ChartView;
class ClusterPanel;
class DiscardGuard;
class ParallelCoordinatesTab;
class PrivacyUtilityTab;
class WelcomePanel;
class ExperimentFiles;
class ExperimentForm;
class HeatmapTab;
class HistoryPanel;
class PrivacyTab;
class ReleasedWinnerTab;
class ReportExporter;
class ResultsTab;
class RunBar;
class ShownRunLabel;
class RunController;
class RunData;
class StallMeter;
class StatusPanel;
class StepSizeTab;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // `path` may be a resource (":/presets/…"): then it is neither remembered as the save path nor
  // added to the recent files.
  bool openExperiment(const QString& path, QString* error);
  QMenu* presetMenu() const { return preset_menu_; }
  bool saveExperiment(const QString& path, QString* error);
  // Starts writing the shown run's report into `dir` (ReportExporter: its own experiment.json,
  // summary.json and README.md, every chart as PNG, PDF, SVG and CSV, results.csv and the engine
  // CSVs) and returns at once; reportExported() tells when it is written. False (and *error)
  // when no run is shown or it cannot start. Changes neither the current file nor the recent
  // files.
  bool exportReport(const QString& dir, QString* error);
  ReportExporter* reportExporter() const { return exporter_; }
  // "Showing: <run> · form modified since this run" (what the charts show).
  QString shownRunText() const;
  bool formModifiedSinceShownRun() const;
  QString currentPath() const;
  bool startRun();  // false if the form is invalid or a run is going on

  double longestStallMs() const;
  ExperimentForm* form() const { return form_; }
  RunController* runController() const { return controller_; }
  RunData* runData() const { return data_; }
  QTabWidget* tabs() const { return tabs_; }
  ResultTabs* resultTabs() const { return tabs_; }
  AccuracyTab* accuracyTab() const { return tabs_->accuracy(); }
  HeatmapTab* heatmapTab() const { return tabs_->heatmap(); }
  PrivacyTab* privacyTab() const { return tabs_->privacy(); }
  StepSizeTab* stepSizeTab() const { return tabs_->stepSize(); }
  ResultsTab* resultsTab() const { return tabs_->results(); }
  ReleasedWinnerTab* releasedWinnerTab() const { return tabs_->winner(); }
  // "not private: for teaching only": visible while a private run's every run is shown.
  QLabel* privateBanner() const { return private_banner_; }
  StatusPanel* statusPanel() const { return status_; }
  HistoryPanel* historyPanel() const { return history_; }
  StallMeter* stallMeter() const { return stall_; }
  QAction* runAction() const { return run_action_; }
  QAction* cancelAction() const { return cancel_action_; }
  QAction* pauseAction() const { return pause_action_; }  // F8: pause / resume the run
  RunBar* runBar() const { return run_bar_; }
  PrivacyUtilityTab* privacyUtilityTab() const { return tabs_->privacyUtility(); }
  AccountantGapView* accountantGapView() const { return tabs_->accountantGap(); }
  ParallelCoordinatesTab* parallelCoordinatesTab() const { return tabs_->parallelCoordinates(); }
  WelcomePanel* welcomePanel() const { return welcome_; }
  DiscardGuard* discardGuard() const { return discard_guard_; }
  QAction* newAction() const { return new_action_; }  // asks before discarding edits
  QAction* aboutAction() const { return about_action_; }
  // dplab's version (the project's, from CMake), as Help → About shows it.
  static QString version();
  // The Playground (issue #27), a window of its own, made on first use (Help → Playground, the
  // welcome panel's button).
  PlaygroundWindow* openPlayground();
  // File → Open cluster run…: watches the plan folder `dir` (dplab-cli tune --plan / slurm) live;
  // errors go to the messages. The panel above the tabs shows the shards and Merge.
  void openClusterRun(const QString& dir);
  ClusterPanel* clusterPanel() const { return cluster_; }
  QAction* openClusterAction() const { return open_cluster_action_; }
  QList<ChartView*> charts() const;

 signals:
  void runFinished(bool ok, bool cancelled);
  void reportExported(bool ok, const QString& dir, const QString& error);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void buildMenus();
  void arrangeDocks();
  void stepTab(int direction);  // +1: next visible result tab, -1: previous (wraps around)
  QWidget* buildBottomPanel();
  void updateActions();
  void onRunStarted();
  void onRunFinished(bool ok, bool cancelled);
  void newExperiment();
  void openDialog();
  void saveDialog(bool save_as);
  void exportReportDialog();
  void openClusterDialog();
  void rebuildRecentMenu();
  void syncPrivacyTab();
  void syncPrivateView();
  QList<CsvConstantColumn> searchCsvColumns() const;

  // Below kShortHeight px the bottom dock becomes a tab beside the form; back at kTallHeight.
  static constexpr int kShortHeight = 820;
  static constexpr int kTallHeight = 880;
  static constexpr int kBottomDockHeight = 140;
  bool compact_docks_ = false;
  QDockWidget* form_dock_;
  QDockWidget* bottom_dock_;
  ExperimentForm* form_;
  ExperimentFiles* files_;
  RunData* data_;
  RunController* controller_;
  ReportExporter* exporter_;
  StatusPanel* status_;
  HistoryPanel* history_;
  StallMeter* stall_;
  ResultTabs* tabs_;
  WelcomePanel* welcome_;
  DiscardGuard* discard_guard_ = nullptr;
  QAction* new_action_;
  QAction* about_action_;
  PlaygroundWindow* playground_ = nullptr;
  ClusterPanel* cluster_;
  QAction* open_cluster_action_;
  RunBar* run_bar_;
  QLabel* private_banner_;
  QLabel* status_text_;
  ShownRunLabel* shown_run_;
  QAction* run_action_;
  QAction* cancel_action_;
  QAction* pause_action_;
  QAction* next_tab_action_;
  QMenu* recent_menu_;
  QMenu* preset_menu_;
};

}  // namespace dplab::ui
