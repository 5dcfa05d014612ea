// AccuracyTab: the paper's Figures 4/5 live. Top chart: per optimizer the max (solid) and median
// (dashed) validation accuracy over its candidates versus iteration — engine
// tuning::aggregate_all on RunData (each candidate = mean over its repeats); optionally every job's
// curve, faint. Bottom chart: section 5.2's protocol — mean accuracy of the best of k random
// candidates with its 95% CI band, per optimizer, from the engine's selection report
// (tuning::honest_selection_per_optimizer: the same seed and numbers as `dplab-cli tune`), over
// the finished jobs. For regression both show the training loss (lower is better) on a log axis.
// Beside them, for runs with OSO-DPSGD or FixedQuantile, the live clipping threshold C_t (and
// OSO-DPSGD's rho_t) per candidate (views/clip_chart.h).
// The top chart's x axis counts noisy-gradient queries (the privacy cost, dplab's T) or, as a
// display option, optimizer steps (updates): ADADP makes 2 queries per update, so its curve then
// ends at T/2 (engine optim::updates_for_queries does the mapping).
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;

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
  QComboBox* xUnitBox() const { return x_unit_; }

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
  QComboBox* x_unit_;  // 0 = noisy-gradient queries, 1 = optimizer steps (updates)
  int protocol_finished_ = -1;
  bool structural_ = false;  // a new run: axes return to their default scale  // finished jobs when
                             // the protocol was last drawn
};

}  // namespace dplab::ui
