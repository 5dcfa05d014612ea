// OsoProtocolView: the OSO paper's tuning protocol (Galli et al., Figure 4 and Table 3) in the
// GUI, the same computation as `dplab-cli oso-protocol`. The user picks a shipped preset
// (resources/presets/oso-fashion-mnist-*.json, compiled in as ":/oso-presets") or opens a preset
// file, may scale it down (seeds, steps T, the first N training rows: the CLI's --seeds, --steps
// and --train-subset; each preset load resets them to the preset's values), sees what it will run
// (strategies and each grid's K runs per k, the epsilon list, delta, seeds, T, L and the work in
// example gradients: tuning::plan_oso_protocol) and runs it on a BackgroundTask with a runs-done
// progress bar and Cancel. Results, all tuning::OsoGridResult: the chart (Figure 4) draws each
// strategy's best score (validation MSE for the autoencoder, accuracy otherwise; mean +- sd over
// seeds) against epsilon for one granularity k; the table (Table 3) lists every grid's best
// hyperparameters, its calibrated sigma and K. The epsilon is labelled as the engine labels it
// (tuning::oso_epsilon_note): a per-grid PLAN, seeds not charged. The chart's CSV export holds the
// table's rows.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "charts/chart_export.h"
#include "tuning/oso_protocol.h"
#include "views/figure_run_panel.h"

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace dplab::ui {

class ChartView;

class OsoProtocolView : public FigureView {
  Q_OBJECT
 public:
  struct Result {
    tuning::OsoProtocolConfig config;
    std::vector<tuning::OsoGridResult> grids;
    std::int64_t train_rows = 0, validation_rows = 0;
    double wall_seconds = 0;
  };

  explicit OsoProtocolView(QWidget* parent = nullptr);
  ~OsoProtocolView() override;

  // Reads and parses a preset (":/oso-presets/…" or a file) and makes it the one Run uses; on
  // failure false, the shown preset unchanged and the engine's error (naming the key) reported.
  bool loadPreset(const QString& path);
  const std::optional<tuning::OsoProtocolConfig>& preset() const { return preset_; }
  QString planText() const;
  // The preset with the run-size overrides applied: what Run runs and the plan describes.
  tuning::OsoProtocolConfig effectiveConfig() const;
  QSpinBox* seedsBox() const { return seeds_; }
  QSpinBox* stepsBox() const { return steps_; }
  QSpinBox* trainRowsBox() const { return train_rows_; }  // its minimum shows "all"

  QComboBox* presetBox() const { return presets_; }
  QComboBox* shownGranularity() const { return shown_; }  // which k the chart shows
  ChartView* chart() const { return chart_; }
  QTableWidget* table() const { return table_; }
  const std::optional<Result>& result() const { return result_; }
  bool run() override;  // false when busy or the settings are invalid

 private:
  void runEnded(bool ok) override;
  void openDialog();
  void showPlan();
  void fillTable();
  void draw();
  CsvTable gridTable() const;
  QString scoreName() const;

  QComboBox* presets_;
  QSpinBox* seeds_;
  QSpinBox* steps_;
  QSpinBox* train_rows_;
  QLabel* plan_;
  QLabel* epsilon_note_;
  QLabel* summary_;
  QComboBox* shown_;
  ChartView* chart_;
  QTableWidget* table_;
  std::optional<tuning::OsoProtocolConfig> preset_;
  std::shared_ptr<Result> pending_;  // written by the worker
  std::optional<Result> result_;
};

}  // namespace dplab::ui
