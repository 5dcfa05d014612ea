// The Playground's study views (issue #27), tabs beside the DP-step view:
//   AlphaClipView  the alpha-C coupling lesson's 5 x 5 heatmap (playground_studies.h
//                  alpha_clip_grid): final test accuracy per (alpha, C) cell, the current setting
//                  outlined, accuracy written in each cell;
//   ObjPertView    objective perturbation at the DP-SGD setting's (epsilon, delta): its decision
//                  field on a small plane with the same points, and its numbers beside DP-SGD's;
//   ClipSweepView  the clipping norm's trade-off (playground_studies.h clip_sweep): final test
//                  accuracy against C on a log axis, the DP runs (red) beside the same runs
//                  clipped without noise (grey), the current C a red line with the live run's
//                  accuracy on it.
// All are thin views: the window computes on a worker and hands them results.
#pragma once

#include <QWidget>
#include <optional>

#include "playground/playground_studies.h"

class QLabel;
class QPushButton;

namespace dplab::ui {

class PlaneView;

// The heatmap itself (paints the grid; empty until a grid arrives).
class AlphaClipHeatmap : public QWidget {
  Q_OBJECT
 public:
  explicit AlphaClipHeatmap(QWidget* parent = nullptr);
  void setGrid(const std::optional<playground::AlphaClipGrid>& grid);
  const std::optional<playground::AlphaClipGrid>& grid() const { return grid_; }
  QSize minimumSizeHint() const override { return {200, 180}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::optional<playground::AlphaClipGrid> grid_;
};

class AlphaClipView : public QWidget {
  Q_OBJECT
 public:
  explicit AlphaClipView(QWidget* parent = nullptr);
  AlphaClipHeatmap* heatmap() const { return heatmap_; }
  QPushButton* computeButton() const { return compute_; }
  void setStatus(const QString& text);

 signals:
  void computeRequested();

 private:
  AlphaClipHeatmap* heatmap_;
  QPushButton* compute_;
  QLabel* status_;
};

// The C sweep's curve (paints the sweep; a placeholder text until one arrives).
class ClipSweepPlot : public QWidget {
  Q_OBJECT
 public:
  explicit ClipSweepPlot(QWidget* parent = nullptr);
  void setSweep(const std::optional<playground::ClipSweep>& sweep);
  const std::optional<playground::ClipSweep>& sweep() const { return sweep_; }
  // The current C (the red line) and the live run's test accuracy there (NaN: none yet).
  void setCurrent(double clip, double accuracy);
  double currentClip() const { return clip_; }
  double currentAccuracy() const { return accuracy_; }
  void setPlaceholder(const QString& text);
  // Where a clip and an accuracy are drawn (widget coordinates; log scale in C).
  double xOf(double clip) const;
  double yOf(double accuracy) const;
  QSize minimumSizeHint() const override { return {200, 160}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QRectF area() const;
  std::optional<playground::ClipSweep> sweep_;
  double clip_ = 1, accuracy_ = 0;
  QString placeholder_;
};

class ClipSweepView : public QWidget {
  Q_OBJECT
 public:
  explicit ClipSweepView(QWidget* parent = nullptr);
  ClipSweepPlot* plot() const { return plot_; }
  void setStatus(const QString& text);
  QString status() const;

 private:
  ClipSweepPlot* plot_;
  QLabel* status_;
};

class ObjPertView : public QWidget {
  Q_OBJECT
 public:
  explicit ObjPertView(QWidget* parent = nullptr);
  PlaneView* plane() const { return plane_; }
  QPushButton* computeButton() const { return compute_; }
  void setStatus(const QString& text);
  QString status() const;

 signals:
  void computeRequested();

 private:
  PlaneView* plane_;
  QPushButton* compute_;
  QLabel* status_;
};

}  // namespace dplab::ui
