// SparseLossView: Figure 1 of Zhang, Mironov & Hejazinia (wide networks with sparse DP): train
// and test loss of word2vec CBOW trained non-privately, with DP-SGD and with sparse DP
// (exponential mechanism / sparse vector / random selection) at the same total epsilon, plus
// each method's privacy calibration (sigma, the paper's Theorem 3 with its assumption checked,
// dplab's RDP account). All numbers come from reproduction/sparse_reproduction.h (prepare_text,
// calibrate, run_figure1), computed on a BackgroundTask with progress and Cancel; the two charts
// export as PNG/PDF/SVG and CSV (ChartView).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "charts/chart_export.h"
#include "reproduction/sparse_reproduction.h"
#include "views/figure_run_panel.h"

class QCheckBox;
class QLabel;

namespace dplab::ui {

class ChartView;
class SparsePresetFields;

class SparseLossView : public FigureView {
  Q_OBJECT
 public:
  struct Result {
    experiment::SparsePreset preset;
    experiment::Calibration calibration;
    std::vector<experiment::MethodCurve> curves;
    std::int64_t raw_tokens = 0, kept_tokens = 0, vocabulary = 0;
  };

  explicit SparseLossView(QWidget* parent = nullptr);
  ~SparseLossView() override;

  SparsePresetFields* fields() const { return fields_; }
  void setMethods(const std::vector<training::WideMethod>& methods);
  std::vector<training::WideMethod> methods() const;

  ChartView* trainChart() const { return train_chart_; }
  ChartView* testChart() const { return test_chart_; }
  const std::optional<Result>& result() const { return result_; }
  QString calibrationText() const;
  bool run() override;  // false when busy or the settings are invalid

 private:
  void runEnded(bool ok) override;
  void draw();
  void drawLoss(ChartView* chart, bool train);
  CsvTable lossTable(bool train) const;

  SparsePresetFields* fields_;
  std::vector<std::pair<training::WideMethod, QCheckBox*>> method_boxes_;
  QLabel* calibration_;
  ChartView* train_chart_;
  ChartView* test_chart_;
  std::shared_ptr<Result> pending_;
  std::optional<Result> result_;
};

// A fixed colour per wide-training method, the same in every sparse-DP chart.
QColor wideMethodColor(training::WideMethod method);
// "DP-SGD", "sparse, exponential mechanism", ...
QString wideMethodLabel(training::WideMethod method);

}  // namespace dplab::ui
