// Chart and table export: PNG / PDF / SVG images of a QCustomPlot at a chosen size and DPI, and
// CSV files of the numbers behind a chart or a table. Files are written atomically (QSaveFile or
// write-then-rename) so a failed export never leaves a half-written file behind.
#pragma once

#include <QList>
#include <QPicture>
#include <QString>
#include <QStringList>
#include <optional>

class QCustomPlot;
class QAbstractItemModel;

namespace dplab::csv {
struct CsvTable;
}

namespace dplab::ui {

// One column with the same value on every row (e.g. epsilon_label: the ε label of the search the
// numbers come from), written after the table's own columns: the header stays on line 1.
struct CsvConstantColumn {
  QString name;
  QString value;
};

// The numbers behind a chart or a table: a header row and data rows (already formatted), then
// the constant columns.
struct CsvTable {
  QStringList header;
  QList<QStringList> rows;
  QList<CsvConstantColumn> constantColumns;
};

// Physical size of an exported figure. Charts are laid out at 96 logical pixels per inch (the
// screen's scale, so a 9 pt font is 9 pt on paper); PNG renders dpi/96 device pixels per logical
// pixel and stores the DPI, PDF pages and SVG width/height are the physical size.
struct ImageExportOptions {
  double width_in = 7.0;
  double height_in = 3.5;
  int dpi = 300;
  bool title = true;  // draw the chart's title inside the figure (papers put it in the caption)

  static constexpr double kLogicalDpi = 96.0;
  int logicalWidth() const { return static_cast<int>(width_in * kLogicalDpi + 0.5); }
  int logicalHeight() const { return static_cast<int>(height_in * kLogicalDpi + 0.5); }
};

// Size presets for papers: one column (3.5 in) and two columns (7 in) of a two-column layout.
struct ImageSizePreset {
  const char* name;
  double width_in;
  double height_in;
};
inline constexpr ImageSizePreset kImageSizePresets[] = {
    {"single column (3.5 × 2.6 in)", 3.5, 2.6},
    {"double column (7 × 3.5 in)", 7.0, 3.5},
    {"slide (10 × 5.6 in)", 10.0, 5.6},
};

enum class ImageFormat { kPng, kPdf, kSvg };

// An export in two halves, so that only the first runs on the GUI thread: recordPlot lays the
// plot out at the export's logical size (96 px/in) and records its drawing (no rasterising,
// milliseconds); writePicture replays the recording onto the PNG image / PDF page / SVG and
// writes the file — thread-safe (QImage, QPdfWriter, QSvgGenerator), for a worker thread.
QPicture recordPlot(QCustomPlot* plot, ImageFormat format, const ImageExportOptions& options);
bool writePicture(const QPicture& picture, const QString& path, ImageFormat format,
                  const ImageExportOptions& options, QString* error);
std::optional<ImageFormat> formatForSuffix(const QString& path);

// Both halves at once; on failure returns false and sets *error.
bool exportPlot(QCustomPlot* plot, const QString& path, ImageFormat format,
                const ImageExportOptions& options, QString* error);
// Picks the format from the file suffix (png, pdf, svg); false for an unknown suffix.
bool exportPlotBySuffix(QCustomPlot* plot, const QString& path, const ImageExportOptions& options,
                        QString* error);

// CSV through the engine's one writer (store/csv_table.h: RFC 4180, written atomically).
bool writeCsv(const CsvTable& table, const QString& path, QString* error);
QString toCsvText(const CsvTable& table);
dplab::csv::CsvTable toEngineTable(const CsvTable& table);
CsvTable fromEngineTable(const dplab::csv::CsvTable& table);

// Every graph (series, x, y), colour map (x, y, value) and curve of a plot, in long format.
CsvTable plotDataTable(QCustomPlot* plot);
// Header from the horizontal header data, one row per model row (display role).
CsvTable modelTable(const QAbstractItemModel* model);

// Number formatting used in CSV: shortest round-trip representation.
QString formatNumber(double value);
// Number formatting for what people read on a chart: `digits` significant digits, and powers of
// ten as 2.5·10⁻⁵ / 10³ (never 1e+03).
QString formatReadable(double value, int digits = 3);
// Always in powers of ten, `digits` significant digits: 10⁰, 1.6·10⁰, 3·10⁻¹ (log-axis ticks).
QString formatPowerOfTen(double value, int digits = 2);
// Every chart's tick label (linear and log axes, and the ticks a view places itself): plain
// decimals while the power of ten is within ±4 ("0.75", "1.3", "0.0001", "25000"), a power of ten
// beyond ("2.5·10⁵", "10⁻⁵"); in the fewest significant digits (at most 6) that give the tick
// back, so that 1.25 is not "1.3" and 0.1 + 0.2 is "0.3".
QString formatTick(double value);

}  // namespace dplab::ui
