// HeatmapTab: the α–C grid of one optimizer (paper Figure 2 and appendix G Figure 7), from the
// engine aggregates (tuning::AlphaClipGrid): colour = the final training loss (log colour scale),
// the final validation accuracy, or "times best" (how often each (α, C) was the best candidate
// over all evaluation points). Both axes are logarithmic with the true α and C values: each cell
// is a rectangle around its grid value (edges at the geometric midpoints), so the α ∝ 1/C line of
// Theorem 2 is straight; the line is fitted to the best cells by the engine
// (tuning::fit_inverse_clip_line). Hovering shows a cell's α, C and value; the CSV holds the true
// α and C (engine store::write_alpha_clip_grid_csv). The colour map (viridis) never ends in the
// background colour; cells without a finished candidate are hatched. The cell of the Results
// tab's winner (engine tuning/winners.h, the one rule every view uses: best mean final
// validation accuracy) is framed inside the plot and labelled so; ticks sit at the grid values.
#pragma once

#include <QWidget>

#include "tuning/aggregates.h"

class QComboBox;
class QCheckBox;
class QCPColorScale;
class QCPItemRect;
class QMouseEvent;

namespace dplab::ui {

class ChartView;
class RunData;

class HeatmapTab : public QWidget {
  Q_OBJECT
 public:
  HeatmapTab(RunData* data, QWidget* parent = nullptr);
  ChartView* chart() const { return chart_; }
  QComboBox* metricBox() const { return metric_; }
  // What is drawn: the number of cells and the fitted α·C of the overlay (0 = none).
  int cellCount() const { return cells_; }
  double overlayProduct() const { return overlay_product_; }
  // The frame around the Results winner's cell (null when there is none) and its label.
  QCPItemRect* winnerFrame() const { return winner_frame_; }
  QString winnerText() const { return winner_text_; }
  // The tooltip text for a point in plot coordinates (C, α); empty outside the grid.
  QString hoverText(double clip, double learning_rate) const;

 public slots:
  void refresh(bool structural);

 signals:
  void message(const QString& text, bool is_error);

 private:
  void draw();
  void onMouseMove(QMouseEvent* event);
  const tuning::OptimizerAggregates* shownAggregates() const;

  RunData* data_;
  ChartView* chart_;
  QComboBox* optimizer_;
  QComboBox* metric_;
  QCheckBox* overlay_;
  QCPColorScale* scale_;
  int cells_ = 0;
  double overlay_product_ = 0;
  QCPItemRect* winner_frame_ = nullptr;
  QString winner_text_;
};

}  // namespace dplab::ui
