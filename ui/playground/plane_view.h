// PlaneView: the Playground's plane (issue #27): the model's p(class 1) over
// [-kPlaneExtent, kPlaneExtent]^2 as a colour field (blue = class 0, orange = class 1, pale near
// 0.5, TF Playground's palette), the training points (filled) and test points (hollow) on top,
// the examples of the last lot ringed, and the outlier as a large ringed point.
// Over the field: the model's p = 1/2 boundary (solid), its non-private shadow's (white dashes),
// and a pinned setting's (purple dots), with a key in the corner naming the ones drawn.
// Clicking places the outlier (left button: class 1, right button: class 0); outlierPlaced().
#pragma once

#include <QImage>
#include <QWidget>
#include <memory>

#include "playground/decision_boundary.h"
#include "playground/playground_data.h"
#include "playground/playground_session.h"

namespace dplab::ui {

class PlaneView : public QWidget {
  Q_OBJECT
 public:
  explicit PlaneView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const playground::PlaygroundData> data);
  void setField(const playground::DecisionField& field);
  void setLot(const std::vector<Index>& lot) { lot_ = lot; }
  void setShowTest(bool show) {
    show_test_ = show;
    points_layer_ = QImage();
    update();
  }
  const QImage& fieldImage() const { return field_image_; }
  using Boundary = std::vector<playground::BoundarySegment>;
  void setBoundaries(Boundary run, Boundary shadow) {
    boundary_ = std::move(run);
    shadow_boundary_ = std::move(shadow);
  }
  // The pinned setting's boundary, named `name` in the key ("pinned" when empty).
  void setPinnedBoundary(Boundary pinned, QString name = QString()) {
    pinned_boundary_ = std::move(pinned);
    pinned_name_ = std::move(name);
    update();
  }
  QString pinnedName() const;
  const Boundary& boundary() const { return boundary_; }
  const Boundary& shadowBoundary() const { return shadow_boundary_; }
  const Boundary& pinnedBoundary() const { return pinned_boundary_; }
  // A small control kept in the plane's top-right corner (the Pin button): it takes no room
  // from the layout, which must fit a 1024-pixel screen.
  void setCornerWidget(QWidget* widget);
  // Plane coordinates of a widget position and back.
  QPointF toPlane(const QPointF& widget) const;
  QPointF toWidget(double x, double y) const;

  QSize sizeHint() const override { return {420, 420}; }
  QSize minimumSizeHint() const override { return {220, 220}; }
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int w) const override { return w; }

  // Colour of p(class 1) (also for the legend).
  static QColor probabilityColor(float p);
  static QColor classColor(int label);

 signals:
  void outlierPlaced(double x, double y, int label);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  QRectF square() const;
  double pointRadius() const;
  // The train / test points drawn once per data set and size into a transparent layer: a frame
  // only redraws the field under it and the lot's rings over it (1,000 antialiased dots cost more
  // than the rest of a frame).
  void drawPointsLayer();
  void drawBoundaries(QPainter& painter);

  void placeCornerWidget();

  Boundary boundary_, shadow_boundary_, pinned_boundary_;
  QString pinned_name_;
  QWidget* corner_ = nullptr;

  std::shared_ptr<const playground::PlaygroundData> data_;
  QImage field_image_;
  QImage points_layer_;
  std::vector<Index> lot_;
  bool show_test_ = true;
};

}  // namespace dplab::ui
