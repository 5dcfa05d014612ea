// The Playground's study views (issue #27), tabs beside the DP-step view:
//   AlphaClipView  the alpha-C coupling lesson's 5 x 5 heatmap (playground_studies.h
//                  alpha_clip_grid): final test accuracy per (alpha, C) cell, the current setting
//                  outlined, accuracy written in each cell;
//   ObjPertView    objective perturbation at the DP-SGD setting's (epsilon, delta): its decision
//                  field on a small plane with the same points, and its numbers beside DP-SGD's.
// Both are thin views: the window computes on a worker and hands them results.
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
