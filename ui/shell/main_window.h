// MainWindow: wires the small parts together and owns nothing clever. Left: the experiment form;
// top of the centre: Run/Cancel, progress (jobs, steps/s, ETA); centre: tabs of charts (accuracy
// curves, α–C heatmap, privacy of tuning, DPAdam step size, results table); bottom: messages and
// run history. Menus: File (open/save experiment JSON, built-in presets, recent files, export
// report), Run, and
// shortcuts Ctrl+R, Esc / Ctrl+., Ctrl+S, Ctrl+E. Settings persist in QSettings. A StallMeter
// measures the GUI thread's longest stall (status bar; longestStallMs()).
#pragma once

#include <QMainWindow>

#include "experiment/experiment_config.h"

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QMenu;

namespace dplab::ui {

class AccuracyTab;
class ChartView;
class DiscardGuard;
class ParallelCoordinatesTab;
class PrivacyUtilityTab;
class WelcomePanel;
class ExperimentForm;
class HeatmapTab;
class HistoryPanel;
class PrivacyTab;
class ResultsTab;
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

  // The experiment shown on start: Fashion-MNIST when installed, else synthetic data.
  static experiment::ExperimentConfig defaultExperiment();

  // `path` may be a resource (":/presets/…"): then it is neither remembered as the save path nor
  // added to the recent files.
  bool openExperiment(const QString& path, QString* error);
  // The built-in presets (resources/presets/*.json embedded under :/presets), sorted by name.
  static QStringList presetPaths();
  QMenu* presetMenu() const { return preset_menu_; }
  bool saveExperiment(const QString& path, QString* error);
  // Writes the shown run's report into `dir`: its own experiment.json, summary.json and
  // README.md (best candidate per optimizer, ε, parameters), every chart (PNG, PDF, SVG, CSV),
  // results.csv and the engine CSVs. Changes neither the current file nor the recent files.
  bool exportReport(const QString& dir, QString* error);
  // "Showing: <run> · form modified since this run" (what the charts show).
  QString shownRunText() const;
  bool formModifiedSinceShownRun() const;
  QString currentPath() const { return current_path_; }
  bool startRun();  // false if the form is invalid or a run is going on

  double longestStallMs() const;
  ExperimentForm* form() const { return form_; }
  RunController* runController() const { return controller_; }
  RunData* runData() const { return data_; }
  QTabWidget* tabs() const { return tabs_; }
  AccuracyTab* accuracyTab() const { return accuracy_; }
  HeatmapTab* heatmapTab() const { return heatmap_; }
  PrivacyTab* privacyTab() const { return privacy_; }
  StepSizeTab* stepSizeTab() const { return step_size_; }
  ResultsTab* resultsTab() const { return results_; }
  PrivacyUtilityTab* privacyUtilityTab() const { return privacy_utility_; }
  ParallelCoordinatesTab* parallelCoordinatesTab() const { return parallel_; }
  WelcomePanel* welcomePanel() const { return welcome_; }
  DiscardGuard* discardGuard() const { return discard_guard_; }
  QAction* newAction() const { return new_action_; }
  QAction* aboutAction() const { return about_action_; }
  // File → New: the default experiment, after asking whether to discard edits.
  bool newExperiment();
  StatusPanel* statusPanel() const { return status_; }
  HistoryPanel* historyPanel() const { return history_; }
  StallMeter* stallMeter() const { return stall_; }
  QAction* runAction() const { return run_action_; }
  QAction* cancelAction() const { return cancel_action_; }
  QList<ChartView*> charts() const;

 signals:
  void runFinished(bool ok, bool cancelled);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  QWidget* buildRunBar();
  void updateActions();
  void onProgress();
  void onRunFinished(bool ok, bool cancelled);
  void openDialog();
  void saveDialog(bool save_as);
  void exportReportDialog();
  void addRecent(const QString& path);
  void rebuildRecentMenu();
  void syncPrivacyTab();
  void updateShownRun();

  ExperimentForm* form_;
  RunData* data_;
  RunController* controller_;
  StatusPanel* status_;
  HistoryPanel* history_;
  StallMeter* stall_;
  QTabWidget* tabs_;
  AccuracyTab* accuracy_;
  HeatmapTab* heatmap_;
  PrivacyTab* privacy_;
  StepSizeTab* step_size_;
  ResultsTab* results_;
  PrivacyUtilityTab* privacy_utility_;
  ParallelCoordinatesTab* parallel_;
  WelcomePanel* welcome_;
  DiscardGuard* discard_guard_;
  QAction* new_action_;
  QAction* about_action_;
  QPushButton* run_button_;
  QPushButton* cancel_button_;
  QProgressBar* progress_;
  QLabel* progress_text_;
  QLabel* status_text_;
  QLabel* shown_run_;
  QLabel* stall_text_;
  QAction* run_action_;
  QAction* cancel_action_;
  QMenu* recent_menu_;
  QMenu* preset_menu_;
  QString current_path_;
};

}  // namespace dplab::ui
