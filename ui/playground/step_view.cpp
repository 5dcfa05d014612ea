#include "playground/step_view.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace dplab::ui {

StepView::StepView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("playgroundStep"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  setToolTip(
      tr("The last DP-SGD step in two parameters: grey = per-example gradients, dashed circle = "
         "C, blue = clipped, green = their sum / L, red disc = noise σC / L, red cross = the "
         "noisy gradient, purple = −update / α."));
}

void StepView::setPicture(const playground::StepPicture& picture, double learning_rate,
                          const QString& name_a, const QString& name_b, bool same_run) {
  picture_ = picture;
  learning_rate_ = learning_rate;
  name_a_ = name_a;
  name_b_ = name_b;
  // The view: the circle with room, the clipped points and the mean with its noise disc.
  const double lot = std::max(picture.expected_lot, 1.0);
  double r = std::isfinite(picture.clip) ? 1.25 * picture.clip : 0.0;
  for (const auto& c : picture.clipped) r = std::max(r, 1.1 * std::hypot(c.x, c.y));
  const double mean = std::hypot(picture.clipped_sum.x, picture.clipped_sum.y) / lot;
  r = std::max(r, 1.1 * (mean + 2 * picture.noise_std / lot));
  if (!(r > 0) || !std::isfinite(r)) r = 1;
  if (!same_run) {
    radius_ = first_radius_ = r;
  } else if (r < radius_ / 10) {
    radius_ = r;  // a zoom jump: the picture had shrunk to a dot
  } else {
    radius_ = std::max(radius_, r);
    first_radius_ = std::max(first_radius_, radius_);
  }
  update();
}

void StepView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.fillRect(rect(), Qt::white);
  const double side = std::min(width(), height()) - 24.0;
  const QPointF centre(width() / 2.0, height() / 2.0);
  const double scale = side / (2 * radius_);
  const auto at = [&](double x, double y) { return centre + QPointF(x * scale, -y * scale); };
  const auto arrow = [&](QPointF from, QPointF to, const QColor& colour, double width) {
    painter.setPen(QPen(colour, width));
    painter.drawLine(from, to);
    const QPointF d = to - from;
    const double length = std::hypot(d.x(), d.y());
    if (length < 4) return;
    const QPointF u = d / length, n(-u.y(), u.x());
    const double head = std::min(10.0, length / 2);
    QPainterPath path;
    path.moveTo(to);
    path.lineTo(to - head * u + 0.5 * head * n);
    path.lineTo(to - head * u - 0.5 * head * n);
    path.closeSubpath();
    painter.fillPath(path, colour);
  };
  // Axes.
  painter.setPen(QPen(QColor(200, 200, 200), 1));
  painter.drawLine(QPointF(centre.x() - side / 2, centre.y()),
                   QPointF(centre.x() + side / 2, centre.y()));
  painter.drawLine(QPointF(centre.x(), centre.y() - side / 2),
                   QPointF(centre.x(), centre.y() + side / 2));
  painter.setPen(QColor(90, 90, 90));
  // Rows as tall as the font's line (16 px cut the descenders: "w_y" read "w v" in the projector
  // font).
  const double line = painter.fontMetrics().height() + 2;
  painter.drawText(QRectF(centre.x() + side / 2 - 220, centre.y() + 2, 220, line), Qt::AlignRight,
                   name_a_);
  painter.drawText(QRectF(centre.x() + 4, centre.y() - side / 2 - 2, 220, line), Qt::AlignLeft,
                   name_b_);
  if (zoom() > 1.5) {
    painter.setPen(QColor(90, 90, 90));
    painter.drawText(QRectF(4, height() - line - 2, width() - 8, line), Qt::AlignLeft,
                     tr("zoomed ×%1 since the run began").arg(zoom(), 0, 'g', 3));
  }
  const auto& p = picture_;
  drawn_clipped_.clear();
  if (p.step == 0) {
    painter.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                     tr("Press Step or Play to see a DP-SGD step."));
    return;
  }
  // Clipping circle.
  if (std::isfinite(p.clip)) {
    painter.setPen(QPen(QColor(60, 60, 60), 1.5, Qt::DashLine));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(centre, p.clip * scale, p.clip * scale);
    painter.drawText(at(p.clip * 0.71, p.clip * 0.71) + QPointF(4, -4), QStringLiteral("C"));
  }
  // Per-example gradients (grey), faint lines to their clipped versions, clipped (blue).
  const double dot = std::max(2.0, side / 160);
  for (std::size_t i = 0; i < p.gradients.size(); ++i) {
    const auto& g = p.gradients[i];
    const double n = std::hypot(g.x, g.y);
    const bool outside = n > radius_;
    const double f = outside ? radius_ / n : 1.0;
    const QPointF raw = at(g.x * f, g.y * f);
    const QPointF clipped = at(p.clipped[i].x, p.clipped[i].y);
    if (raw != clipped) {
      painter.setPen(QPen(QColor(180, 180, 180, 120), 1));
      painter.drawLine(raw, clipped);
    }
    painter.setPen(QPen(QColor(130, 130, 130), 1));
    painter.setBrush(outside ? Qt::NoBrush : QBrush(QColor(170, 170, 170)));
    painter.drawEllipse(raw, dot, dot);
  }
  painter.setPen(Qt::NoPen);
  painter.setBrush(QColor(8, 119, 189, 200));
  for (const auto& c : p.clipped) {
    painter.drawEllipse(at(c.x, c.y), dot, dot);
    drawn_clipped_.push_back({c.x, c.y});
  }
  if (p.outlier_in_lot >= 0) {
    const auto i = static_cast<std::size_t>(p.outlier_in_lot);
    painter.setPen(QPen(QColor(200, 0, 0), 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(at(p.clipped[i].x, p.clipped[i].y), 3 * dot, 3 * dot);
  }
  // Sum / L, the noise disc around it, the noisy gradient and the update.
  const double lot = std::max(p.expected_lot, 1.0);
  const QPointF mean = at(p.clipped_sum.x / lot, p.clipped_sum.y / lot);
  if (p.noise_std > 0) {
    const double disc = p.noise_std / lot * scale;
    painter.setPen(QPen(QColor(214, 39, 40, 160), 1));
    painter.setBrush(QColor(214, 39, 40, 50));
    painter.drawEllipse(mean, disc, disc);
  }
  arrow(centre, mean, QColor(44, 160, 44), 2.5);
  const QPointF noisy =
      at((p.clipped_sum.x + p.noise.x) / lot, (p.clipped_sum.y + p.noise.y) / lot);
  if (p.noise_std > 0) {
    painter.setPen(QPen(QColor(214, 39, 40), 2.5));
    painter.drawLine(noisy + QPointF(-6, -6), noisy + QPointF(6, 6));
    painter.drawLine(noisy + QPointF(-6, 6), noisy + QPointF(6, -6));
  }
  if (learning_rate_ > 0) {
    arrow(centre, at(-p.update.x / learning_rate_, -p.update.y / learning_rate_),
          QColor(148, 103, 189), 1.5);
  }
}

}  // namespace dplab::ui
