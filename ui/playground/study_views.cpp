#include "playground/study_views.h"

#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <vector>

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
    // The long text where it fits; in a projector's narrow column the short one (the long one
    // was cut at both sides).
    const int flags = Qt::AlignCenter | Qt::TextWordWrap;
    const QString full =
        tr("Compute the grid: 25 runs of this setting, α and C each × 0.1 … 10, all counted in the "
           "ledger");
    const bool fits = fm.boundingRect(area, flags, full).height() <= area.height() &&
                      fm.boundingRect(area, flags, full).width() <= area.width();
    painter.drawText(area, flags, fits ? full : tr("25 runs, all in the ledger"));
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
  compute_ = new QPushButton(tr("Compute grid"), this);
  compute_->setToolTip(
      tr("The 5 × 5 grid: 25 runs of this setting, every one counted in the "
         "ledger"));
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

namespace {

// The C axis: a decade's margin fraction either side of the sweep's 0.01 ... 10.
constexpr double kLogClipMin = -2.15, kLogClipMax = 1.15;
const QColor kDpColour(214, 39, 40), kNoiseFreeColour(110, 110, 110);

}  // namespace

ClipSweepPlot::ClipSweepPlot(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("pgSweepPlot"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  placeholder_ = tr("The C sweep: this setting trained at ten C from 0.01 to 10");
}

void ClipSweepPlot::setSweep(const std::optional<playground::ClipSweep>& sweep) {
  sweep_ = sweep;
  update();
}

void ClipSweepPlot::setCurrent(double clip, double accuracy) {
  // NaN != NaN: compared as "both NaN" so an untrained run does not repaint every frame.
  const bool same_accuracy =
      accuracy == accuracy_ || (std::isnan(accuracy) && std::isnan(accuracy_));
  if (clip == clip_ && same_accuracy) return;
  clip_ = clip;
  accuracy_ = accuracy;
  update();
}

void ClipSweepPlot::setPlaceholder(const QString& text) {
  placeholder_ = text;
  update();
}

QRectF ClipSweepPlot::area() const {
  const QFontMetrics fm(font());
  const double left = fm.horizontalAdvance(QStringLiteral("100%")) + 8;
  const double top = fm.height() + 6;         // the key's row
  const double bottom = 2 * fm.height() + 6;  // the C labels and the axis title
  return QRectF(left, top, width() - left - 8, height() - top - bottom);
}

double ClipSweepPlot::xOf(double clip) const {
  const QRectF a = area();
  const double t = (std::log10(clip) - kLogClipMin) / (kLogClipMax - kLogClipMin);
  return a.left() + std::clamp(t, 0.0, 1.0) * a.width();
}

double ClipSweepPlot::yOf(double accuracy) const {
  const QRectF a = area();
  return a.bottom() - std::clamp(accuracy, 0.0, 1.0) * a.height();
}

void ClipSweepPlot::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), palette().base());
  const QFontMetrics fm(font());
  const QRectF a = area();
  if (a.width() < 40 || a.height() < 30) return;
  const QColor text = palette().color(QPalette::Text);
  // Accuracy 0, 50 % (chance) and 100 %.
  for (double acc : {0.0, 0.5, 1.0}) {
    const double y = yOf(acc);
    painter.setPen(QPen(QColor(200, 200, 200), 1, acc == 0.5 ? Qt::DashLine : Qt::SolidLine));
    painter.drawLine(QPointF(a.left(), y), QPointF(a.right(), y));
    painter.setPen(text);
    painter.drawText(QRectF(0, y - fm.height() / 2.0, a.left() - 4, fm.height()),
                     Qt::AlignRight | Qt::AlignVCenter,
                     QString::number(100 * acc, 'f', 0) + QLatin1Char('%'));
  }
  // C: a tick at each decade, labelled, and the axis title.
  for (double c : {0.01, 0.1, 1.0, 10.0}) {
    const double x = xOf(c);
    painter.setPen(QColor(200, 200, 200));
    painter.drawLine(QPointF(x, a.top()), QPointF(x, a.bottom()));
    painter.setPen(text);
    painter.drawText(QRectF(x - 40, a.bottom() + 2, 80, fm.height()), Qt::AlignCenter,
                     QString::number(c, 'g', 2));
  }
  // The axis title, shorter where the tab is narrow (the projector font at 1024 px: ~220 px).
  QString title = tr("clip norm C (log scale) →");
  if (fm.horizontalAdvance(title) > a.width()) title = tr("C (log scale) →");
  painter.drawText(QRectF(a.left(), a.bottom() + 2 + fm.height(), a.width(), fm.height()),
                   Qt::AlignCenter, title);
  // The key, in its own row above the curves (never over them), from the left edge. Where the
  // tab is narrow (the projector font at 1024 px: ~210 px) the grey runs' name is shortened, and
  // then the key's font.
  const QString dp_name = tr("DP");
  QString free_name = tr("clipped, no noise");
  constexpr double kSwatch = 20, kGap = 4, kSpace = 10;
  const auto key_width = [&](const QFontMetrics& m, const QString& free) {
    return 2 * (kSwatch + kGap) + kSpace + m.horizontalAdvance(dp_name) + m.horizontalAdvance(free);
  };
  QFont key_font = font();
  if (key_width(fm, free_name) > width() - 4) free_name = tr("no noise");
  while (key_width(QFontMetrics(key_font), free_name) > width() - 4 && key_font.pointSizeF() > 6) {
    key_font.setPointSizeF(key_font.pointSizeF() * 0.9);
  }
  painter.setFont(key_font);
  const QFontMetrics km(key_font);
  const double key_y = fm.height() / 2.0 + 2;
  double kx = 2;
  const auto key = [&](const QPen& pen, bool filled, const QString& name) {
    painter.setPen(pen);
    painter.drawLine(QPointF(kx, key_y), QPointF(kx + kSwatch, key_y));
    painter.setBrush(filled ? QBrush(pen.color()) : QBrush(palette().base()));
    painter.setPen(QPen(pen.color(), 1.5));
    painter.drawEllipse(QPointF(kx + kSwatch / 2, key_y), 3.5, 3.5);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(text);
    painter.drawText(QPointF(kx + kSwatch + kGap, key_y + km.ascent() / 2.0 - 1), name);
    kx += kSwatch + kGap + km.horizontalAdvance(name) + kSpace;
  };
  key(QPen(kDpColour, 2.5), true, dp_name);
  key(QPen(kNoiseFreeColour, 2, Qt::DashLine), false, free_name);
  painter.setFont(font());
  if (!sweep_ || sweep_->test_accuracy.empty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(a.adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, placeholder_);
  } else {
    const auto& w = *sweep_;
    const auto curve = [&](const std::vector<double>& acc, const QPen& pen, bool filled) {
      QPolygonF line;
      for (std::size_t i = 0; i < acc.size(); ++i) line << QPointF(xOf(w.clips[i]), yOf(acc[i]));
      painter.setPen(pen);
      painter.setBrush(Qt::NoBrush);
      painter.drawPolyline(line);
      painter.setPen(QPen(pen.color(), 1.5));
      painter.setBrush(filled ? QBrush(pen.color()) : QBrush(palette().base()));
      for (const QPointF& p : line) painter.drawEllipse(p, filled ? 4.0 : 3.5, filled ? 4.0 : 3.5);
    };
    curve(w.noise_free_accuracy, QPen(kNoiseFreeColour, 2, Qt::DashLine), false);
    curve(w.test_accuracy, QPen(kDpColour, 2.5), true);
    // The DP accuracy written at both ends and at the best C: the trade-off in three numbers.
    const std::size_t best = w.best_index();
    // The best first; an end's label that would overlap one already written is left out.
    painter.setPen(kDpColour.darker(130));
    std::vector<QRectF> written;
    for (std::size_t i : {best, std::size_t{0}, w.test_accuracy.size() - 1}) {
      const QPointF p(xOf(w.clips[i]), yOf(w.test_accuracy[i]));
      const QString label = QString::number(100 * w.test_accuracy[i], 'f', 0) + QLatin1Char('%');
      const double tw = fm.horizontalAdvance(label);
      const double x = std::clamp(p.x() - tw / 2, a.left() + 1, a.right() - tw - 1);
      // Above the point, or below it when the point is near the top.
      const double y = p.y() - 8 - fm.height() < a.top() ? p.y() + 8 : p.y() - 8 - fm.height();
      const QRectF box(x, y, tw + 2, fm.height());
      if (std::any_of(written.begin(), written.end(),
                      [&](const QRectF& r) { return r.intersects(box.adjusted(-3, 0, 3, 0)); }))
        continue;
      written.push_back(box);
      painter.drawText(box, Qt::AlignCenter, label);
    }
  }
  // The current C and the live run's accuracy on it.
  const double x = xOf(clip_);
  painter.setPen(QPen(kDpColour, 1.5, Qt::DashLine));
  painter.drawLine(QPointF(x, a.top()), QPointF(x, a.bottom()));
  if (std::isfinite(accuracy_)) {
    painter.setPen(QPen(kDpColour, 2.5));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(QPointF(x, yOf(accuracy_)), 7.5, 7.5);
  }
  const QString now = tr("C = %1").arg(clip_, 0, 'g', 3);
  const double tw = fm.horizontalAdvance(now);
  const double tx = x + 4 + tw <= a.right() ? x + 4 : x - 4 - tw;
  painter.setPen(kDpColour.darker(130));
  painter.drawText(QRectF(tx, a.bottom() - fm.height() - 2, tw + 2, fm.height()), Qt::AlignCenter,
                   now);
  painter.setPen(QPen(QColor(90, 90, 90), 1));
  painter.drawRect(a);
}

ClipSweepView::ClipSweepView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("pgSweepView"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  plot_ = new ClipSweepPlot(this);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("pgSweepStatus"));
  status_->setWordWrap(true);
  layout->addWidget(plot_, 1);
  layout->addWidget(status_);
}

void ClipSweepView::setStatus(const QString& text) {
  status_->setText(text);
}

QString ClipSweepView::status() const {
  return status_->text();
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
  // Short for the projector's narrow column (the long label was cut at both sides).
  compute_ = new QPushButton(tr("Train at this ε"), this);
  compute_->setToolTip(tr("Train objective perturbation at this setting's ε"));
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
