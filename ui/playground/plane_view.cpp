#include "playground/plane_view.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <array>

namespace dplab::ui {

using playground::kPlaneExtent;

PlaneView::PlaneView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("playgroundPlane"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  setToolTip(
      tr("The decision field p(orange) under the points (filled: training, hollow: test).\n"
         "Click to place the outlier: left button = orange, right button = blue."));
}

QColor PlaneView::classColor(int label) {
  return label == 1 ? QColor(245, 147, 34) : QColor(8, 119, 189);
}

QColor PlaneView::probabilityColor(float p) {
  // Blue (p = 0) -> near white (0.5) -> orange (p = 1).
  const QColor lo(8, 119, 189), mid(232, 234, 235), hi(245, 147, 34);
  const float t = std::clamp(p, 0.f, 1.f);
  const QColor& a = t < 0.5f ? lo : mid;
  const QColor& b = t < 0.5f ? mid : hi;
  const float u = t < 0.5f ? t * 2 : (t - 0.5f) * 2;
  // Paler than the points so they stand out.
  const auto mix = [&](int x, int y) { return static_cast<int>(x + (y - x) * u); };
  QColor c(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
  return QColor::fromRgbF(0.35f * 1.f + 0.65f * c.redF(), 0.35f + 0.65f * c.greenF(),
                          0.35f + 0.65f * c.blueF());
}

void PlaneView::setData(std::shared_ptr<const playground::PlaygroundData> data) {
  data_ = std::move(data);
  points_layer_ = QImage();
  update();
}

void PlaneView::setField(const playground::DecisionField& field) {
  const int r = field.resolution;
  if (r <= 0) {
    field_image_ = QImage();
    update();
    return;
  }
  // probabilityColor at 1,024 levels of p (finer than the colours a screen shows), computed once.
  static constexpr int kLevels = 1024;
  static const std::array<QRgb, kLevels + 1> palette = [] {
    std::array<QRgb, kLevels + 1> table{};
    for (int i = 0; i <= kLevels; ++i) table[i] = probabilityColor(float(i) / kLevels).rgb();
    return table;
  }();
  if (field_image_.width() != r) field_image_ = QImage(r, r, QImage::Format_RGB32);
  for (int y = 0; y < r; ++y) {
    auto* line = reinterpret_cast<QRgb*>(field_image_.scanLine(y));
    for (int x = 0; x < r; ++x) {
      const float p = std::clamp(field.probability[static_cast<std::size_t>(y * r + x)], 0.f, 1.f);
      line[x] = palette[static_cast<std::size_t>(p * kLevels + 0.5f)];
    }
  }
  update();
}

void PlaneView::resizeEvent(QResizeEvent* event) {
  points_layer_ = QImage();
  QWidget::resizeEvent(event);
  placeCornerWidget();
}

void PlaneView::setCornerWidget(QWidget* widget) {
  corner_ = widget;
  corner_->setParent(this);
  placeCornerWidget();
  corner_->show();
}

void PlaneView::placeCornerWidget() {
  if (!corner_) return;
  corner_->adjustSize();
  const QRectF s = square();
  corner_->move(static_cast<int>(s.right()) - corner_->width() - 4, static_cast<int>(s.top()) + 4);
  corner_->raise();
}

double PlaneView::pointRadius() const {
  return std::max(2.0, square().width() / 140.0);
}

void PlaneView::drawPointsLayer() {
  const qreal dpr = devicePixelRatioF();
  points_layer_ = QImage(size() * dpr, QImage::Format_ARGB32_Premultiplied);
  points_layer_.setDevicePixelRatio(dpr);
  points_layer_.fill(Qt::transparent);
  QPainter painter(&points_layer_);
  painter.setRenderHint(QPainter::Antialiasing, true);
  const double radius = pointRadius();
  const auto draw_set = [&](const playground::PointSet& set, bool filled) {
    for (Index i = 0; i < set.size(); ++i) {
      const int label = set.labels[i] > 0.5f ? 1 : 0;
      const QPointF p = toWidget(set.xy(i, 0), set.xy(i, 1));
      painter.setPen(QPen(filled ? QColor(255, 255, 255) : classColor(label), filled ? 1 : 1.5));
      painter.setBrush(filled ? QBrush(classColor(label)) : Qt::NoBrush);
      painter.drawEllipse(p, radius, radius);
    }
  };
  if (show_test_) draw_set(data_->test, false);
  draw_set(data_->train, true);
}

QRectF PlaneView::square() const {
  const double side = std::min(width(), height()) - 2.0;
  return {(width() - side) / 2, (height() - side) / 2, side, side};
}

QPointF PlaneView::toPlane(const QPointF& w) const {
  const QRectF s = square();
  return {-kPlaneExtent + 2 * kPlaneExtent * (w.x() - s.left()) / s.width(),
          kPlaneExtent - 2 * kPlaneExtent * (w.y() - s.top()) / s.height()};
}

QPointF PlaneView::toWidget(double x, double y) const {
  const QRectF s = square();
  return {s.left() + (x + kPlaneExtent) / (2 * kPlaneExtent) * s.width(),
          s.top() + (kPlaneExtent - y) / (2 * kPlaneExtent) * s.height()};
}

void PlaneView::paintEvent(QPaintEvent*) {
  // The points layer is drawn before this widget's painter begins (one painter at a time).
  if (data_ && points_layer_.isNull() && width() > 0 && height() > 0) drawPointsLayer();
  QPainter painter(this);
  const QRectF s = square();
  if (!field_image_.isNull()) {
    painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
    painter.drawImage(s, field_image_);
  } else {
    painter.fillRect(s, QColor(232, 234, 235));
  }
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setPen(QPen(QColor(120, 120, 120), 1));
  painter.drawRect(s);
  if (!data_) return;
  const double radius = pointRadius();
  if (!points_layer_.isNull()) painter.drawImage(QPointF(0, 0), points_layer_);
  drawBoundaries(painter);
  // The last lot: thin dark rings.
  painter.setBrush(Qt::NoBrush);
  painter.setPen(QPen(QColor(40, 40, 40, 150), 1));
  for (Index row : lot_) {
    if (row < 0 || row >= data_->train.size()) continue;
    painter.drawEllipse(toWidget(data_->train.xy(row, 0), data_->train.xy(row, 1)), radius + 2,
                        radius + 2);
  }
  if (data_->outlier_index >= 0) {
    const Index o = data_->outlier_index;
    const QPointF p = toWidget(data_->train.xy(o, 0), data_->train.xy(o, 1));
    painter.setPen(QPen(Qt::black, 2));
    painter.setBrush(classColor(data_->train.labels[o] > 0.5f ? 1 : 0));
    painter.drawEllipse(p, 3 * radius, 3 * radius);
    painter.setPen(QPen(QColor(200, 0, 0), 2, Qt::DashLine));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(p, 5 * radius, 5 * radius);
  }
}

void PlaneView::drawBoundaries(QPainter& painter) {
  const auto draw = [&](const Boundary& b, const QPen& pen) {
    painter.setPen(pen);
    for (const auto& s : b) painter.drawLine(toWidget(s.x0, s.y0), toWidget(s.x1, s.y1));
  };
  // One short segment per grid square (a dash pattern restarts at each): the shadow is a white
  // line with thin dark dashes over it and the pin a wide purple line, both readable on the blue
  // and on the orange side; the model's own boundary, solid black, is drawn last, on top.
  const QColor pin(148, 103, 189);
  draw(pinned_boundary_, QPen(pin, 3.0, Qt::SolidLine, Qt::RoundCap));
  draw(shadow_boundary_, QPen(QColor(255, 255, 255), 3.0, Qt::SolidLine, Qt::RoundCap));
  draw(shadow_boundary_, QPen(QColor(60, 60, 60), 1.0, Qt::DashLine, Qt::RoundCap));
  draw(boundary_, QPen(QColor(20, 20, 20), 2.2, Qt::SolidLine, Qt::RoundCap));
  // The key, bottom left inside the plane: one line per boundary drawn.
  struct Entry {
    const Boundary* b;
    QString name;
  };
  const Entry entries[] = {{&boundary_, tr("model's boundary")},
                           {&shadow_boundary_, tr("non-private")},
                           {&pinned_boundary_, pinnedName()}};
  const QFontMetrics fm(font());
  const int line_h = fm.height(), swatch = 18;
  int rows = 0, text_w = 0;
  for (const Entry& e : entries) {
    if (e.b->empty()) continue;
    ++rows;
    text_w = std::max(text_w, fm.horizontalAdvance(e.name));
  }
  if (rows == 0) return;
  const QRectF s = square();
  const QRectF box(s.left() + 4, s.bottom() - 4 - rows * line_h - 4, swatch + text_w + 14,
                   rows * line_h + 4);
  painter.setPen(Qt::NoPen);
  painter.setBrush(QColor(255, 255, 255, 200));
  painter.drawRoundedRect(box, 3, 3);
  painter.setBrush(Qt::NoBrush);
  double y = box.top() + 2 + line_h / 2.0;
  for (const Entry& e : entries) {
    if (e.b->empty()) continue;
    const QPointF a(box.left() + 4, y), b(box.left() + 4 + swatch, y);
    if (e.b == &boundary_) {
      painter.setPen(QPen(QColor(20, 20, 20), 2.2));
      painter.drawLine(a, b);
    } else if (e.b == &shadow_boundary_) {
      painter.setPen(QPen(QColor(60, 60, 60), 1.0, Qt::DashLine));
      painter.drawLine(a, b);
    } else {
      painter.setPen(QPen(pin, 3.0));
      painter.drawLine(a, b);
    }
    painter.setPen(QColor(20, 20, 20));
    painter.drawText(QRectF(b.x() + 6, y - line_h / 2.0, text_w + 4, line_h),
                     Qt::AlignVCenter | Qt::AlignLeft, e.name);
    y += line_h;
  }
}

QString PlaneView::pinnedName() const {
  return pinned_name_.isEmpty() ? tr("pinned") : pinned_name_;
}

void PlaneView::mousePressEvent(QMouseEvent* event) {
  const QPointF p = toPlane(event->position());
  if (std::abs(p.x()) > kPlaneExtent || std::abs(p.y()) > kPlaneExtent) return;
  emit outlierPlaced(p.x(), p.y(), event->button() == Qt::RightButton ? 0 : 1);
}

}  // namespace dplab::ui
