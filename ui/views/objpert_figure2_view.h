// ObjpertFigure2View: Figure 2 of Redberg, Koskela & Wang (objective perturbation for linear
// learners): test accuracy vs epsilon at delta = 1e-5 for dishonest DP-SGD (best of s learning
// rates, one run's epsilon), honest DP-SGD (Papernot-Steinke, the whole search within epsilon)
// and Algorithm 1, mean of the trials with 1.96 SE bars. Every number is the engine's
// (objective_perturbation/honest_comparison.h, run_comparison); this view only draws it.
// The comparison trains hundreds of DP-SGD runs, so it runs on a BackgroundTask with progress
// and Cancel; the chart exports as PNG/PDF/SVG and its numbers as CSV (ChartView).
// The settings default to the paper's (9 epsilons, 10 trials, s = 10, 60 epochs on Adult) and
// can be scaled down (trials, epochs, data set) to run in minutes on a laptop.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "objective_perturbation/honest_comparison.h"
#include "views/figure_run_panel.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace dplab::ui {

class ChartView;

class ObjpertFigure2View : public FigureView {
  Q_OBJECT
 public:
  struct Settings {
    std::string dataset = "adult";  // adult | synthetic-l | synthetic-h
    objpert::ComparisonConfig config;
  };
  // The paper's Figure 2 settings: epsilon in {0.025, ..., 8}, delta 1e-5, 10 trials.
  static Settings paperSettings();

  explicit ObjpertFigure2View(QWidget* parent = nullptr);
  ~ObjpertFigure2View() override;

  void setSettings(const Settings& settings);  // fills the fields
  // The fields as settings; nullopt (and a message naming the field) when one is invalid.
  std::optional<Settings> settingsFromFields(QString* error) const;

  ChartView* chart() const { return chart_; }
  const std::optional<objpert::ComparisonResult>& result() const { return result_; }
  bool run() override;  // false when busy or the settings are invalid

 private:
  void runEnded(bool ok) override;
  void draw();

  QComboBox* dataset_;
  QLineEdit* epsilons_;
  QLineEdit* delta_;
  QSpinBox* trials_;
  QDoubleSpinBox* epochs_;
  QSpinBox* grid_size_;
  QLabel* summary_;
  ChartView* chart_;
  std::shared_ptr<objpert::ComparisonResult> pending_;  // written by the worker
  std::optional<objpert::ComparisonResult> result_;
  double shown_delta_ = 1e-5;
};

}  // namespace dplab::ui
