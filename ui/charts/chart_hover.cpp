#include "charts/chart_hover.h"

#include <qcustomplot.h>
#include <QToolTip>
#include <cmath>
#include <limits>
#include <vector>

namespace dplab::ui {

namespace {
QString exact(double v) {
  return QString::number(v, 'g', 6);
}
}  // namespace

ChartHover::ChartHover(QCustomPlot* plot) : QObject(plot), plot_(plot) {
  plot_->setMouseTracking(true);
  connect(plot_, &QCustomPlot::mouseMove, this, &ChartHover::onMouseMove);
}

QString ChartHover::textAt(const QPoint& pos) const {
  // Per plottable its point nearest to the pointer; then every plottable whose nearest point is
  // as near as the nearest overall (within 1.5 px): coinciding points are all listed, topmost
  // (drawn last) first.
  struct Hit {
    QCPAbstractPlottable* plottable = nullptr;
    int index = -1;
    double key = 0, value = 0, d2 = 0;
  };
  std::vector<Hit> hits;
  for (int i = plot_->plottableCount() - 1; i >= 0; --i) {
    QCPAbstractPlottable* p = plot_->plottable(i);
    if (!p->visible() || !p->realVisibility()) continue;
    Hit hit;
    hit.d2 = kRadiusPx * kRadiusPx;
    auto consider = [&](int index, double key, double value) {
      if (!std::isfinite(key) || !std::isfinite(value)) return;
      const double dx = p->keyAxis()->coordToPixel(key) - pos.x();
      const double dy = p->valueAxis()->coordToPixel(value) - pos.y();
      const double d2 = dx * dx + dy * dy;
      if (d2 <= hit.d2) hit = {p, index, key, value, d2};
    };
    if (auto* graph = qobject_cast<QCPGraph*>(p)) {
      int index = 0;
      for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it, ++index)
        consider(index, it->key, it->value);
    } else if (auto* curve = qobject_cast<QCPCurve*>(p)) {
      int index = 0;
      for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it, ++index)
        consider(index, it->key, it->value);
    }
    if (hit.plottable) hits.push_back(hit);
  }
  if (hits.empty()) return {};
  double nearest = hits.front().d2;
  for (const Hit& h : hits) nearest = std::min(nearest, h.d2);
  const double limit = std::pow(std::sqrt(nearest) + 1.5, 2);
  QStringList texts;
  for (const Hit& h : hits) {
    if (h.d2 > limit) continue;
    if (texts.size() == kMaxListed) {
      texts << tr("… more at this point");
      break;
    }
    QString text;
    if (formatter_) text = formatter_(h.plottable, h.index, h.key, h.value);
    if (text.isNull()) {
      const QString x_label = h.plottable->keyAxis()->label();
      const QString y_label = h.plottable->valueAxis()->label();
      text = QStringLiteral("%1\n%2 = %3\n%4 = %5")
                 .arg(h.plottable->name().isEmpty() ? tr("series") : h.plottable->name(),
                      x_label.isEmpty() ? QStringLiteral("x") : x_label, exact(h.key),
                      y_label.isEmpty() ? QStringLiteral("y") : y_label, exact(h.value));
    }
    if (!texts.contains(text)) texts << text;
  }
  return texts.join(QStringLiteral("\n\n"));
}

void ChartHover::onMouseMove(QMouseEvent* event) {
  if (event->buttons() != Qt::NoButton) return;  // dragging pans; no tooltips then
  last_text_ = textAt(event->position().toPoint());
  if (last_text_.isEmpty()) {
    QToolTip::hideText();
  } else {
    QToolTip::showText(plot_->mapToGlobal(event->position().toPoint()), last_text_, plot_);
  }
}

}  // namespace dplab::ui
