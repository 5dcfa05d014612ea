// StepSizeTab: DPAdam's effective step size over iterations (CurvePoint::step_size, reported by
// the engine optimizer: mean over coordinates of α/(√v̂ + ξ)) for each DPAdam candidate of the
// shown run, against its Theorem 3 limit ESS* = α/(σC/L + ξ) (dashed, same colour). σ and L come
// from the run's privacy config; α, C and ξ from the candidate.
#pragma once

#include <QWidget>

namespace dplab::ui {

class ChartView;
class RunData;

class StepSizeTab : public QWidget {
  Q_OBJECT
 public:
  StepSizeTab(RunData* data, QWidget* parent = nullptr);
  ChartView* chart() const { return chart_; }

 public slots:
  void refresh(bool structural);

 signals:
  void message(const QString& text, bool is_error);

 private:
  RunData* data_;
  ChartView* chart_;
};

}  // namespace dplab::ui
