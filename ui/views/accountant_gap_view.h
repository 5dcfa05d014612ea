// AccountantGapView: "accountants disagree" — epsilon of the same DP-SGD run under RDP and under
// PLD on one chart, versus the number of steps T (one run) and versus the number of candidates K
// (the MA release, K runs composed), the gap between the curves shaded. The numbers come from
// the engine (privacy/accounting/accountant_comparison.h); a PLD point costs 5-100 ms, so the
// series are computed on a worker thread (LatestOnlyTask) and only drawn here: the GUI thread never
// waits for them. A change while a computation runs is computed right after (latest wins).
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "privacy/accounting/accountant_comparison.h"
#include "views/dp_run_fields.h"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;
class QPushButton;
class QTimer;

namespace dplab::ui {

class ChartView;
template <class Query, class Result>
class LatestOnlyTask;

class AccountantGapView : public QWidget {
  Q_OBJECT
 public:
  explicit AccountantGapView(QWidget* parent = nullptr);
  ~AccountantGapView() override;

  // sigma, sampling rate q, T of one run, delta, K max; schedules a recomputation.
  void setSettings(double sigma, double sampling_rate, int steps, double delta, int max_candidates);
  // The same, from the user's experiment: the label then says so (it says "example" before).
  void setExperimentSettings(double sigma, double sampling_rate, int steps, double delta,
                             int max_candidates);
  QPushButton* useExperimentButton() const { return use_experiment_; }
  QString sourceText() const;

  ChartView* stepsChart() const { return steps_chart_; }
  ChartView* candidatesChart() const { return candidates_chart_; }
  const std::vector<privacy::AccountantGapPoint>& stepsPoints() const { return steps_points_; }
  const std::vector<privacy::AccountantGapPoint>& candidatesPoints() const {
    return candidates_points_;
  }
  int completedComputations() const { return completed_; }
  // True until the charts show the latest settings (a computation queued, running or arriving).
  bool busy() const;
  QString headline() const;

 public slots:
  void recompute();

 signals:
  void computed();
  void experimentSettingsRequested();  // "Use my experiment's settings"
  void message(const QString& text, bool is_error);

 protected:
  void showEvent(QShowEvent* event) override;  // first show: compute

 private:
  struct Request {
    privacy::SubsampledGaussian run;
    double delta = 1e-5;
    int max_candidates = 1;
  };
  struct Series {
    Request request;
    std::vector<privacy::AccountantGapPoint> vs_steps, vs_candidates;
  };
  Request currentRequest() const;
  void onComputed(int sequence, const Series& series);
  void draw(ChartView* chart, const std::vector<privacy::AccountantGapPoint>& points,
            const QString& x_label, bool log_x, double delta);

  DpRunFields run_fields_;  // σ, q, T, δ
  QSpinBox* kmax_;
  QLabel* headline_;
  QLabel* source_;  // "example settings" or "your experiment's settings"
  QPushButton* use_experiment_;
  QTimer* debounce_;
  ChartView* steps_chart_;
  ChartView* candidates_chart_;
  std::vector<privacy::AccountantGapPoint> steps_points_, candidates_points_;
  std::unique_ptr<LatestOnlyTask<Request, Series>> task_;
  int requested_sequence_ = 0;
  int drawn_sequence_ = 0;
  int completed_ = 0;
};

}  // namespace dplab::ui
