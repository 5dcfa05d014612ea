// HeatmapTab: the α–C grid of one optimizer (paper Figure 2 and appendix G Figure 7), from the
// engine aggregates (tuning::AlphaClipGrid): colour = log10 of the final training loss, the final
// validation accuracy, or "times best" (how often each (α, C) was the best candidate over all
// evaluation points). Axes are the grid's α and C values in ascending order (log-spaced grids
// give log axes); the best cell is outlined, and the line α ∝ 1/C through it (Theorem 2) can be
// overlaid.
#pragma once

#include <QWidget>

class QComboBox;
class QCheckBox;
class QCPColorMap;
class QCPColorScale;

namespace dplab::ui {

class ChartView;
class RunData;

class HeatmapTab : public QWidget {
  Q_OBJECT
 public:
  HeatmapTab(RunData* data, QWidget* parent = nullptr);
  ChartView* chart() const { return chart_; }
  QCPColorMap* colorMap() const { return map_; }

 public slots:
  void refresh(bool structural);

 signals:
  void message(const QString& text, bool is_error);

 private:
  void draw();

  RunData* data_;
  ChartView* chart_;
  QComboBox* optimizer_;
  QComboBox* metric_;
  QCheckBox* overlay_;
  QCPColorMap* map_;
  QCPColorScale* scale_;
};

}  // namespace dplab::ui
