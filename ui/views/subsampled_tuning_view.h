// SubsampledTuningView: "Tuning on a subsample" — epsilon of the WHOLE tuning procedure versus
// the tuning fraction q (0.05 .. 1) for Koskela & Kulkarni 2023 (private-subsampled: the
// Papernot-Steinke search on a Poisson-q subsample, then the final run; both variants) beside
// Papernot-Steinke and Liu-Talwar on the full data, at the user's sigma, rate L/n, T, candidate
// law and delta; a second chart shows the expected compute (in full-data runs). The user's
// current q is marked on both. Every number comes from one engine call
// (privacy::epsilon_vs_tuning_fraction) on a worker thread (LatestOnlyTask); this view only
// draws. CSV/PNG/SVG/PDF export through ChartView.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "privacy/selection/tuning_cost_series.h"
#include "views/dp_run_fields.h"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;
class QTimer;

namespace dplab::ui {

class ChartView;
template <class Query, class Result>
class LatestOnlyTask;

class SubsampledTuningView : public QWidget {
  Q_OBJECT
 public:
  explicit SubsampledTuningView(QWidget* parent = nullptr);
  ~SubsampledTuningView() override;

  // sigma, lot sampling rate L/n, T, delta, Poisson mean mu of the number of candidate runs, the
  // current tuning fraction q; schedules a recomputation.
  void setSettings(double sigma, double sampling_rate, int steps, double delta, double mu,
                   double tuning_fraction);

  ChartView* epsilonChart() const { return epsilon_chart_; }
  ChartView* computeChart() const { return compute_chart_; }
  const std::vector<privacy::TuningFractionPoint>& points() const { return points_; }
  double currentFraction() const;
  int completedComputations() const { return completed_; }
  bool busy() const;
  QString headline() const;
  QString sourceText() const;

 public slots:
  void recompute();

 signals:
  void computed();
  void message(const QString& text, bool is_error);

 protected:
  void showEvent(QShowEvent* event) override;  // first show: compute

 private:
  struct Request {
    privacy::SubsampledGaussian run;
    double delta = 1e-5;
    double mu = 10.0;
  };
  struct Series {
    Request request;
    std::vector<privacy::TuningFractionPoint> points;
  };
  Request currentRequest() const;
  void onComputed(int sequence, const Series& series);
  void draw();

  DpRunFields run_fields_;  // σ, q, T, δ
  QDoubleSpinBox* mu_;
  QDoubleSpinBox* fraction_;
  QLabel* headline_;
  QLabel* source_;  // whose settings the fields hold: an example, or the experiment's
  QTimer* debounce_;
  ChartView* epsilon_chart_;
  ChartView* compute_chart_;
  Request drawn_request_;
  std::vector<privacy::TuningFractionPoint> points_;
  std::unique_ptr<LatestOnlyTask<Request, Series>> task_;
  int requested_sequence_ = 0;
  int drawn_sequence_ = 0;
  int completed_ = 0;
};

}  // namespace dplab::ui
