#include "charts/theme.h"

#include <qcustomplot.h>
#include <QApplication>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>
#include <vector>

namespace dplab::ui {

namespace {

const char* kToneProperty = "dplabTone";
const char* kInkProperty = "dplabInk";

Theme& current() {
  static Theme theme = Theme::kSystem;
  return theme;
}

// The palette the platform gave before dplab changed anything (the desktop's colours).
const QPalette& platformPalette() {
  static const QPalette palette = QApplication::palette();
  return palette;
}

void applyTone(QWidget* w) {
  const QVariant tone = w->property(kToneProperty);
  if (!tone.isValid()) return;
  QPalette p = w->palette();
  const QColor c = toneColor(static_cast<Tone>(tone.toInt()), QApplication::palette());
  p.setColor(QPalette::WindowText, c);
  p.setColor(QPalette::Text, c);
  w->setPalette(p);
}

// Whether `c` is ink: the previous palette's text colour, or QCustomPlot's default black (a
// title or item made after the last restyle), never meant to vanish on a dark background.
bool isInk(const QColor& c, const QColor& from) {
  return c == from || c == QColor(Qt::black);
}

// Swaps the previous ink for the new one on a pen.
QPen reinked(QPen pen, const QColor& from, const QColor& to) {
  if (isInk(pen.color(), from)) pen.setColor(to);
  return pen;
}

void colourAxis(QCPAxis* axis, const QColor& ink, const QColor& grid) {
  axis->setBasePen(QPen(ink, 1));
  axis->setTickPen(QPen(ink, 1));
  axis->setSubTickPen(QPen(ink, 1));
  axis->setTickLabelColor(ink);
  axis->setLabelColor(ink);
  axis->setSelectedTickLabelColor(ink);
  QPen grid_pen = axis->grid()->pen();
  grid_pen.setColor(grid);
  axis->grid()->setPen(grid_pen);
  QPen zero = axis->grid()->zeroLinePen();
  if (zero.style() != Qt::NoPen) {
    zero.setColor(grid);
    axis->grid()->setZeroLinePen(zero);
  }
}

}  // namespace

QString themeName(Theme theme) {
  switch (theme) {
    case Theme::kLight:
      return QStringLiteral("light");
    case Theme::kDark:
      return QStringLiteral("dark");
    case Theme::kSystem:
      break;
  }
  return QStringLiteral("system");
}

bool parseTheme(const QString& name, Theme* theme) {
  for (Theme t : {Theme::kSystem, Theme::kLight, Theme::kDark}) {
    if (name == themeName(t)) {
      *theme = t;
      return true;
    }
  }
  return false;
}

Theme savedTheme() {
  Theme t = Theme::kSystem;
  parseTheme(QSettings().value(QStringLiteral("view/theme")).toString(), &t);
  return t;
}

void saveTheme(Theme theme) {
  QSettings().setValue(QStringLiteral("view/theme"), themeName(theme));
}

Theme currentTheme() {
  return current();
}

QPalette lightPalette() {
  QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
  const QPalette p = fusion ? fusion->standardPalette() : QPalette(QColor(239, 239, 239));
  delete fusion;
  return p;
}

// Fusion's usual dark colours: grey-blue surfaces, light text, a blue highlight; disabled text
// dimmed so a greyed-out knob still looks greyed out.
QPalette darkPalette() {
  QPalette p;
  const QColor window(45, 45, 48), base(30, 30, 32), text(230, 230, 230), dim(128, 128, 128);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, QColor(40, 40, 43));
  p.setColor(QPalette::ToolTipBase, QColor(60, 60, 64));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, dim);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, QColor(55, 55, 58));
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, QColor(255, 90, 90));
  p.setColor(QPalette::Light, QColor(75, 75, 78));
  p.setColor(QPalette::Midlight, QColor(62, 62, 65));
  p.setColor(QPalette::Mid, QColor(40, 40, 42));
  p.setColor(QPalette::Dark, QColor(25, 25, 26));
  p.setColor(QPalette::Shadow, QColor(10, 10, 10));
  p.setColor(QPalette::Highlight, QColor(42, 130, 218));
  p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
  p.setColor(QPalette::Link, QColor(110, 170, 255));
  p.setColor(QPalette::LinkVisited, QColor(180, 140, 255));
  for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
    p.setColor(QPalette::Disabled, role, dim);
  }
  p.setColor(QPalette::Disabled, QPalette::Base, window);
  return p;
}

QColor mix(const QColor& a, const QColor& b, double t) {
  return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
                          static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
                          static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}

bool isDark(const QPalette& palette) {
  return palette.color(QPalette::Window).lightness() < 128;
}

void applyTheme(Theme theme) {
  const QPalette& platform = platformPalette();  // captured before the first change
  current() = theme;
  QApplication::setStyle(QStringLiteral("Fusion"));
  switch (theme) {
    case Theme::kSystem:
      QApplication::setPalette(platform);
      break;
    case Theme::kLight:
      QApplication::setPalette(lightPalette());
      break;
    case Theme::kDark:
      QApplication::setPalette(darkPalette());
      break;
  }
  for (QWidget* w : QApplication::allWidgets()) applyTone(w);
}

QColor toneColor(Tone tone, const QPalette& palette) {
  const bool dark = isDark(palette);
  switch (tone) {
    case Tone::kNote:
      return mix(palette.color(QPalette::WindowText), palette.color(QPalette::Window), 0.35);
    case Tone::kWarning:
      return dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0x8a, 0x4b, 0x00);
    case Tone::kError:
      return dark ? QColor(0xff, 0x6b, 0x7f) : QColor(0xb0, 0x00, 0x20);
    case Tone::kPlain:
      break;
  }
  return palette.color(QPalette::WindowText);
}

QString toneHex(Tone tone) {
  return toneColor(tone, QApplication::palette()).name();
}

void setTone(QWidget* label, Tone tone) {
  label->setProperty(kToneProperty, static_cast<int>(tone));
  applyTone(label);
}

QColor chartInk(const QCustomPlot* plot) {
  const QVariant ink = plot->property(kInkProperty);
  return ink.isValid() ? ink.value<QColor>() : QColor(Qt::black);
}

void applyChartColors(QCustomPlot* plot, const QPalette& palette) {
  const QColor from = chartInk(plot);
  const QColor ink = palette.color(QPalette::Text);
  const QColor base = palette.color(QPalette::Base);
  const QColor grid = mix(base, ink, isDark(palette) ? 0.22 : 0.14);
  plot->setBackground(base);
  for (QCPAxisRect* rect : plot->axisRects()) {
    for (QCPAxis* axis : rect->axes()) colourAxis(axis, ink, grid);
  }
  for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
    if (auto* text = qobject_cast<QCPTextElement*>(e)) {
      if (isInk(text->textColor(), from)) text->setTextColor(ink);
    } else if (auto* scale = qobject_cast<QCPColorScale*>(e)) {
      colourAxis(scale->axis(), ink, grid);
    }
  }
  QColor legend_fill = base;
  legend_fill.setAlpha(220);
  plot->legend->setBrush(QBrush(legend_fill));
  plot->legend->setBorderPen(QPen(mix(base, ink, 0.35)));
  // QCPLegend::setTextColor recolours every entry: a hidden series' greyed entry keeps its grey.
  std::vector<QColor> entry_colours;
  for (int i = 0; i < plot->legend->itemCount(); ++i) {
    QCPAbstractLegendItem* item = plot->legend->item(i);
    entry_colours.push_back(item ? item->textColor() : QColor());
  }
  plot->legend->setTextColor(ink);
  for (int i = 0; i < plot->legend->itemCount(); ++i) {
    QCPAbstractLegendItem* item = plot->legend->item(i);
    const QColor was = entry_colours[static_cast<std::size_t>(i)];
    if (item && !isInk(was, from)) item->setTextColor(was);
  }
  for (int i = 0; i < plot->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot->plottable(i);
    p->setPen(reinked(p->pen(), from, ink));
    if (auto* g = qobject_cast<QCPGraph*>(p)) {
      QCPScatterStyle s = g->scatterStyle();
      if (!s.isNone()) {
        s.setPen(reinked(s.pen(), from, ink));
        if (isInk(s.brush().color(), from)) s.setBrush(ink);
        g->setScatterStyle(s);
      }
    }
  }
  for (int i = 0; i < plot->itemCount(); ++i) {
    QCPAbstractItem* item = plot->item(i);
    if (auto* line = qobject_cast<QCPItemLine*>(item)) {
      line->setPen(reinked(line->pen(), from, ink));
    } else if (auto* straight = qobject_cast<QCPItemStraightLine*>(item)) {
      straight->setPen(reinked(straight->pen(), from, ink));
    } else if (auto* text = qobject_cast<QCPItemText*>(item)) {
      if (isInk(text->color(), from)) text->setColor(ink);
    } else if (auto* tracer = qobject_cast<QCPItemTracer*>(item)) {
      tracer->setPen(reinked(tracer->pen(), from, ink));
    }
  }
  plot->setProperty(kInkProperty, ink);
}

}  // namespace dplab::ui
