// AccuracyTab: the paper's Figures 4/5 live. Top chart: per optimizer the max (solid) and median
// (dashed) validation accuracy over its candidates versus iteration — engine
// tuning::aggregate_all on RunData (each candidate = mean over its repeats); optionally every job's
// curve, faint. Bottom chart: section 5.2's protocol — mean accuracy of the best of k random
// candidates with its 95% CI band, per optimizer, from the engine's selection report
// (tuning::honest_selection_per_optimizer: the same seed and numbers as `dplab-cli tune`), over
// the finished jobs. For regression both show the training loss (lower is better) on a log axis.
// Beside them, for runs with OSO-DPSGD or FixedQuantile, the live clipping threshold C_t (and
// OSO-DPSGD's rho_t) per candidate (views/clip_chart.h).
#pragma once

#include <QWidget>

class QCheckBox;

namespace dplab::ui {

class ChartView;
class RunData;

class AccuracyTab : public QWidget {
  Q_OBJECT
 public:
  AccuracyTab(RunData* data, QWidget* parent = nullptr);
  QList<ChartView*> charts() const;
  ChartView* curvesChart() const { return curves_; }
  ChartView* protocolChart() const { return protocol_; }
  // C_t / rho_t of the adaptive-clipping candidates (views/clip_chart.h); hidden without them.
  ChartView* clipChart() const { return clip_; }

 public slots:
  void refresh(bool structural);

 signals:
  void message(const QString& text, bool is_error);

 private:
  void drawCurves();
  void drawProtocol();

  RunData* data_;
  ChartView* curves_;
  ChartView* protocol_;
  ChartView* clip_;
  QCheckBox* show_candidates_;
  int protocol_finished_ = -1;
  bool structural_ = false;  // a new run: axes return to their default scale  // finished jobs when
                             // the protocol was last drawn
};

}  // namespace dplab::ui
