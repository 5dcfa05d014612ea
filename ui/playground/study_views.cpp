#include "playground/study_views.h"

#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "playground/plane_view.h"

namespace dplab::ui {

using playground::kGridSize;

AlphaClipHeatmap::AlphaClipHeatmap(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("pgGridHeatmap"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void AlphaClipHeatmap::setGrid(const std::optional<playground::AlphaClipGrid>& grid) {
  grid_ = grid;
  update();
}

void AlphaClipHeatmap::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().window());
  const QFontMetrics fm(font());
  const int left = fm.horizontalAdvance(QStringLiteral("C = 0.000")) + 8;
  const int bottom = 2 * fm.height() + 6;
  const QRect area(left, 4, width() - left - 6, height() - bottom - 4);
  if (area.width() < 20 || area.height() < 20) return;
  const double cw = area.width() / double(kGridSize), ch = area.height() / double(kGridSize);
  if (!grid_ || grid_->test_accuracy.empty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap,
                     tr("Compute the grid: 25 runs of this setting,\nα and C each × 0.1 … 10,\nall "
                        "counted in the ledger"));
    return;
  }
  const auto& g = *grid_;
  for (std::size_t i = 0; i < g.test_accuracy.size(); ++i) {
    const int c = static_cast<int>(i) / kGridSize, a = static_cast<int>(i) % kGridSize;
    // Row 0 at the TOP is the largest C.
    const QRectF cell(area.left() + a * cw, area.top() + (kGridSize - 1 - c) * ch, cw, ch);
    const double acc = g.test_accuracy[i];
    // White (chance, 0.5) -> dark green (1.0).
    const double t = std::clamp((acc - 0.5) / 0.5, 0.0, 1.0);
    const QColor fill = QColor::fromRgbF(1.0 - 0.85 * t, 1.0 - 0.45 * t, 1.0 - 0.8 * t);
    painter.fillRect(cell, fill);
    painter.setPen(t > 0.6 ? Qt::white : Qt::black);
    painter.drawText(cell, Qt::AlignCenter, QString::number(100 * acc, 'f', 0) + QLatin1Char('%'));
  }
  painter.setPen(QPen(QColor(90, 90, 90), 1));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(area);
  // The current setting: the middle cell (the grid is centred on it).
  painter.setPen(QPen(QColor(214, 39, 40), 3));
  painter.drawRect(
      QRectF(area.left() + 2 * cw, area.top() + 2 * ch, cw, ch).adjusted(1, 1, -1, -1));
  painter.setPen(palette().color(QPalette::WindowText));
  for (int k = 0; k < kGridSize; ++k) {
    const QRectF xl(area.left() + k * cw, area.bottom() + 2, cw, fm.height());
    painter.drawText(xl, Qt::AlignCenter,
                     QString::number(g.alphas[static_cast<std::size_t>(k)], 'g', 2));
    const QRectF yl(0, area.top() + (kGridSize - 1 - k) * ch, left - 4, ch);
    painter.drawText(
        yl, Qt::AlignRight | Qt::AlignVCenter,
        QStringLiteral("C = ") + QString::number(g.clips[static_cast<std::size_t>(k)], 'g', 2));
  }
  painter.drawText(QRectF(area.left(), area.bottom() + 2 + fm.height(), area.width(), fm.height()),
                   Qt::AlignCenter, tr("learning rate α →"));
}

AlphaClipView::AlphaClipView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("pgGridView"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  heatmap_ = new AlphaClipHeatmap(this);
  // Short enough for the narrow column of a 1024-pixel screen; the cost is in the tooltip and
  // in the empty grid's text.
  compute_ = new QPushButton(tr("Compute the 5 × 5 grid"), this);
  compute_->setToolTip(tr("25 runs of this setting, every one counted in the ledger"));
  compute_->setObjectName(QStringLiteral("pgGridCompute"));
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("pgGridStatus"));
  status_->setWordWrap(true);
  layout->addWidget(heatmap_, 1);
  layout->addWidget(status_);
  layout->addWidget(compute_);
  connect(compute_, &QPushButton::clicked, this, &AlphaClipView::computeRequested);
}

void AlphaClipView::setStatus(const QString& text) {
  status_->setText(text);
}

ObjPertView::ObjPertView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("pgObjPertView"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  plane_ = new PlaneView(this);
  plane_->setObjectName(QStringLiteral("pgObjPertPlane"));
  plane_->setAttribute(
      Qt::WA_TransparentForMouseEvents);  // the outlier is placed on the main plane
  // The picture tabs' least height is their tallest page's: this page, with its button and
  // status under the plane, set it 40 px above the step page's and kept the projector font's
  // window over 720 px. It shrinks like the step view (the main plane keeps 220).
  plane_->setMinimumSize(180, 180);
  compute_ = new QPushButton(tr("Train objective perturbation at this ε"), this);
  compute_->setObjectName(QStringLiteral("pgObjPertCompute"));
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("pgObjPertStatus"));
  status_->setWordWrap(true);
  status_->setTextFormat(Qt::RichText);
  layout->addWidget(plane_, 1);
  layout->addWidget(status_);
  layout->addWidget(compute_);
  connect(compute_, &QPushButton::clicked, this, &ObjPertView::computeRequested);
}

void ObjPertView::setStatus(const QString& text) {
  status_->setText(text);
}

QString ObjPertView::status() const {
  return status_->text();
}

}  // namespace dplab::ui
