// Chart and table export: PNG / PDF / SVG images of a QCustomPlot at a chosen size and DPI, and
// CSV files of the numbers behind a chart or a table. Files are written atomically (QSaveFile or
// write-then-rename) so a failed export never leaves a half-written file behind.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class QCustomPlot;
class QAbstractItemModel;

namespace dplab::ui {

// The numbers behind a chart or a table: a header row and data rows (already formatted).
struct CsvTable {
  QStringList header;
  QList<QStringList> rows;
};

// Image size in logical pixels and the resolution stored in / used for the file. A DPI above
// 96 renders proportionally more device pixels for PNG (scale = dpi / 96).
struct ImageExportOptions {
  int width = 1200;
  int height = 800;
  int dpi = 150;
};

enum class ImageFormat { kPng, kPdf, kSvg };

// Writes the plot in the format given by `format`; on failure returns false and sets *error.
bool exportPlot(QCustomPlot* plot, const QString& path, ImageFormat format,
                const ImageExportOptions& options, QString* error);
// Picks the format from the file suffix (png, pdf, svg); false for an unknown suffix.
bool exportPlotBySuffix(QCustomPlot* plot, const QString& path, const ImageExportOptions& options,
                        QString* error);

// RFC 4180 CSV with '.' decimal separator; fields containing , " or newlines are quoted.
bool writeCsv(const CsvTable& table, const QString& path, QString* error);
QString toCsvText(const CsvTable& table);

// Every graph (series, x, y), colour map (x, y, value) and curve of a plot, in long format.
CsvTable plotDataTable(QCustomPlot* plot);
// Header from the horizontal header data, one row per model row (display role).
CsvTable modelTable(const QAbstractItemModel* model);

// Number formatting used in CSV and labels: shortest round-trip representation.
QString formatNumber(double value);

}  // namespace dplab::ui
