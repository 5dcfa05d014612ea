// OneRunAuditView, "How private is it really?": per target epsilon in a list the user edits, the
// accountant's UPPER bound on the run's epsilon (PLD, with the band up to RDP) and the one-run
// audit's LOWER bound (Steinke, Nasr & Jagielski 2023; shaded down to 0: what the audit proves)
// on one chart, with the audit's ceiling (what m canaries could show at most), a Gaussian-fit
// ESTIMATE (Andrew et al. 2024; drawn as points and labelled "estimate, not a bound") and the
// same run without privacy audited beside them (its bound: the attack's power on this data); the
// f-DP bound on the same guesses (Mahloujifar et al. 2025: a lower bound under the Gaussian
// trade-off shape) and, per row, the last-iterate prediction for the final-model audit (Steinke
// et al. 2025: a heuristic, not a bound).
// Every number is the engine's (audit/privacy_gap_sweep.h, run_privacy_gap_sweep); the sweep
// trains one run per target plus the non-private one, so it runs on the panel's BackgroundTask
// with progress and Cancel. The chart exports as PNG/PDF/SVG and its numbers as CSV.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit/privacy_gap_sweep.h"
#include "charts/chart_export.h"
#include "views/figure_run_panel.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace dplab::ui {

class ChartView;

class OneRunAuditView : public FigureView {
  Q_OBJECT
 public:
  struct Settings {
    // "synthetic-wide" (n 400, d 1,000: seconds per run), "adult" or "fashion-mnist".
    std::string dataset = "synthetic-wide";
    audit::PrivacyGapSweepConfig sweep;
  };
  // The view's starting settings: logistic DP-SGD on synthetic-wide, eps in {1, 2, 4, 8},
  // white-box, m = 1,000, 95 %.
  static Settings defaultSettings();
  // The data a sweep trains on (what the worker loads; tests use it to recompute the sweep).
  static data::TrainValidationSplit loadData(const std::string& dataset);

  explicit OneRunAuditView(QWidget* parent = nullptr);
  ~OneRunAuditView() override;

  void setSettings(const Settings& settings);  // fills the fields
  // The fields as settings; nullopt (and a message naming the field) when one is invalid.
  std::optional<Settings> settingsFromFields(QString* error) const;

  ChartView* chart() const { return chart_; }
  QTableWidget* table() const { return table_; }
  QLabel* summary() const { return summary_; }
  const std::optional<std::vector<audit::PrivacyGapRow>>& rows() const { return rows_; }
  bool run() override;  // false when busy or the settings are invalid

 private:
  void runEnded(bool ok) override;
  void fillTable();
  void draw();
  QString summaryText() const;
  CsvTable csvTable() const;

  QComboBox* dataset_;
  QComboBox* model_;
  QLineEdit* epsilons_;
  QLineEdit* delta_;
  QSpinBox* steps_;
  QSpinBox* lot_size_;
  QDoubleSpinBox* learning_rate_;
  QDoubleSpinBox* clip_;
  QComboBox* mode_;
  QSpinBox* canaries_;
  QDoubleSpinBox* confidence_;
  QSpinBox* seed_;
  QLabel* summary_;
  QTableWidget* table_;
  ChartView* chart_;
  std::shared_ptr<std::vector<audit::PrivacyGapRow>> pending_;  // written by the worker
  std::optional<std::vector<audit::PrivacyGapRow>> rows_;
  Settings shown_;  // the settings of rows_
};

}  // namespace dplab::ui
