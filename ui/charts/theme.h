// The window's colours: the desktop's own palette (the default), Qt Fusion's light palette, or a
// dark one, chosen under View → Theme and kept in QSettings ("view/theme"). Charts follow the
// palette on screen (ChartView restyles on QEvent::PaletteChange); exported figures are always
// drawn light, as a page is. Labels that carry a tone (a note, a warning) get a colour that reads
// on the current palette and keep it across a theme switch.
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

class QCustomPlot;
class QWidget;

namespace dplab::ui {

enum class Theme { kSystem, kLight, kDark };

QString themeName(Theme theme);  // "system", "light", "dark"
// Parses a name as themeName writes it; false (theme untouched) for anything else.
bool parseTheme(const QString& name, Theme* theme);
Theme savedTheme();
void saveTheme(Theme theme);
Theme currentTheme();

// Fusion with the theme's palette for the whole application; every toned widget is recoloured.
// kSystem restores the palette the platform gave at the first call.
void applyTheme(Theme theme);
QPalette lightPalette();
QPalette darkPalette();
bool isDark(const QPalette& palette);
// (1 − t)·a + t·b per RGB channel: a tint of b over a.
QColor mix(const QColor& a, const QColor& b,
           double t);  // the window colour is darker than mid-grey

// kPlain: the palette's own text colour (a label whose tone comes and goes).
enum class Tone { kPlain, kNote, kWarning, kError };
QColor toneColor(Tone tone, const QPalette& palette);
// The tone's colour on the application's current palette as "#rrggbb", for rich text.
QString toneHex(Tone tone);
// Colours `label`'s text by `tone` now and after every theme change.
void setTone(QWidget* label, Tone tone);

// A chart's colours from `palette`: background, axes, ticks, grid, legend, title. Pens and texts
// drawn in the previous palette's ink (its text colour) take the new ink.
void applyChartColors(QCustomPlot* plot, const QPalette& palette);
// The colour of a chart's "ink" lines (reference lines, markers drawn in black on paper).
QColor chartInk(const QCustomPlot* plot);

}  // namespace dplab::ui
