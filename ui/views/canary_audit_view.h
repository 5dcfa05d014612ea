// CanaryAuditView: Figure 2 and Table 2 of Zhang, Mironov & Hejazinia (the secret-sharer canary
// audit): m random three-word canaries inserted n_c times into the word2vec training text, the
// model trained non-privately, with DP-SGD and with sparse DP (exponential mechanism), each
// canary's rank among all |V|^2 alternatives, the rank histogram against the uniform one, and
// Pearson's chi-square distance and p-value per (n_c, method); never-inserted phrases are the
// null. Numbers from experiment::run_table2 (audit/canary.h), computed on a BackgroundTask with
// progress and Cancel. The chart (histograms of one n_c, uniform expectation dashed) exports as
// PNG/PDF/SVG; its CSV holds every histogram with its chi-square row (Table 2).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "charts/chart_export.h"
#include "reproduction/sparse_reproduction.h"
#include "views/figure_run_panel.h"

class QCPBarsGroup;
class QComboBox;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace dplab::ui {

class ChartView;
class SparsePresetFields;

class CanaryAuditView : public FigureView {
  Q_OBJECT
 public:
  explicit CanaryAuditView(QWidget* parent = nullptr);
  ~CanaryAuditView() override;

  SparsePresetFields* fields() const { return fields_; }
  void setCanaries(int count, const std::vector<int>& repeats);

  ChartView* chart() const { return chart_; }
  QTableWidget* table() const { return table_; }
  QComboBox* shownRepeats() const { return shown_; }  // which n_c the chart shows
  const std::optional<std::vector<experiment::Table2Row>>& rows() const { return rows_; }
  bool run() override;  // false when busy or the settings are invalid

 private:
  void runEnded(bool ok) override;
  void fillTable();
  void drawHistograms();
  CsvTable histogramTable() const;

  SparsePresetFields* fields_;
  QSpinBox* canaries_;
  QLineEdit* repeats_;
  QComboBox* shown_;
  QTableWidget* table_;
  ChartView* chart_;
  QCPBarsGroup* bars_group_ = nullptr;  // owned by the plot
  std::shared_ptr<std::vector<experiment::Table2Row>> pending_;
  std::optional<std::vector<experiment::Table2Row>> rows_;
};

}  // namespace dplab::ui
