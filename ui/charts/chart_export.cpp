#include "charts/chart_export.h"

#include <qcustomplot.h>
#include <QAbstractItemModel>
#include <QBuffer>
#include <QFileInfo>
#include <QLocale>
#include <QPageLayout>
#include <QPdfWriter>
#include <QPicture>
#include <QSaveFile>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

#include "core/csv_table.h"

namespace dplab::ui {

namespace {

constexpr double kScreenDpi = ImageExportOptions::kLogicalDpi;  // QCustomPlot's layout scale

bool commit(QSaveFile& file, const QByteArray& bytes, QString* error) {
  if (file.write(bytes) != bytes.size() || !file.commit()) {
    if (error)
      *error = QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString());
    return false;
  }
  return true;
}

bool openForWrite(QSaveFile& file, QString* error) {
  if (!file.open(QIODevice::WriteOnly)) {
    if (error)
      *error = QStringLiteral("cannot open %1: %2").arg(file.fileName(), file.errorString());
    return false;
  }
  return true;
}

// Replays a recorded chart onto a painter that was set up for the output device.
void drawRecorded(QPainter* painter, const QPicture& picture) {
  painter->drawPicture(0, 0, picture);
}

bool writePng(const QPicture& picture, const QString& path, const ImageExportOptions& o,
              QString* error) {
  // Exactly round(inches × dpi) pixels: the layout (at 96 px/in) is scaled onto them.
  const QSize pixels(static_cast<int>(std::lround(o.width_in * o.dpi)),
                     static_cast<int>(std::lround(o.height_in * o.dpi)));
  QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  {
    QPainter painter;
    if (!painter.begin(&image)) {
      if (error) *error = QStringLiteral("PNG painter failed for %1").arg(path);
      return false;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.scale(pixels.width() / static_cast<double>(o.logicalWidth()),
                  pixels.height() / static_cast<double>(o.logicalHeight()));
    drawRecorded(&painter, picture);
    painter.end();
  }
  const int dots_per_metre = static_cast<int>(std::lround(o.dpi / 0.0254));
  image.setDotsPerMeterX(dots_per_metre);
  image.setDotsPerMeterY(dots_per_metre);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, "PNG")) {
    if (error) *error = QStringLiteral("PNG encoding failed for %1").arg(path);
    return false;
  }
  QSaveFile file(path);
  return openForWrite(file, error) && commit(file, bytes, error);
}

bool writePdf(const QPicture& picture, const QString& path, const ImageExportOptions& o,
              QString* error) {
  // A page of exactly the figure's physical size; the painter works in 1/96 in, the layout scale,
  // so that fonts keep their point size (QCustomPlot::savePdf would make 1 px = 1 pt).
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QPdfWriter pdf(&buffer);
    pdf.setCreator(QStringLiteral("dplab"));
    pdf.setTitle(QFileInfo(path).completeBaseName());
    pdf.setResolution(static_cast<int>(kScreenDpi));
    pdf.setPageLayout(QPageLayout(QPageSize(QSizeF(o.width_in, o.height_in), QPageSize::Inch,
                                            QString(), QPageSize::ExactMatch),
                                  QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
    QPainter painter;
    if (!painter.begin(&pdf)) {
      if (error) *error = QStringLiteral("PDF painter failed for %1").arg(path);
      return false;
    }
    drawRecorded(&painter, picture);
    painter.end();
  }
  QSaveFile file(path);
  return openForWrite(file, error) && commit(file, bytes, error);
}

bool writeSvg(const QPicture& picture, const QString& path, const ImageExportOptions& o,
              QString* error) {
  // The generator's resolution must be the layout's 96 px/in: QCustomPlot measures text at the
  // screen scale, so a generator at the export DPI drew fonts dpi/96 too large (clipped labels,
  // overflowing legends). The SVG's width/height carry the physical size.
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(QSize(o.logicalWidth(), o.logicalHeight()));
  generator.setViewBox(QRect(0, 0, o.logicalWidth(), o.logicalHeight()));
  generator.setResolution(static_cast<int>(kScreenDpi));
  generator.setTitle(QFileInfo(path).completeBaseName());
  generator.setDescription(QStringLiteral("dplab chart"));
  QPainter painter;
  if (!painter.begin(&generator)) {
    if (error) *error = QStringLiteral("SVG painter failed for %1").arg(path);
    return false;
  }
  drawRecorded(&painter, picture);
  painter.end();
  QSaveFile file(path);
  return openForWrite(file, error) && commit(file, bytes, error);
}

bool validOptions(const ImageExportOptions& options) {
  return options.width_in > 0 && options.height_in > 0 && options.dpi > 0 &&
         options.width_in <= 100 && options.height_in <= 100;
}

}  // namespace

QString formatNumber(double value) {
  if (std::isnan(value)) return QStringLiteral("nan");
  if (std::isinf(value)) return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  // The shortest text that reads back as the same double ("0.1"; 10 digits lost precision).
  return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

namespace {
// "mantissa e exponent" (QString::number 'g' or 'e' text) -> mantissa·10^exponent, superscript.
QString powerOfTenText(const QString& number) {
  const QStringList parts = number.split(QLatin1Char('e'));
  const int exponent = parts.value(1).toInt();
  static const QString superscripts = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
  QString exp_text = exponent < 0 ? QStringLiteral("⁻") : QString();
  for (QChar c : QString::number(std::abs(exponent))) exp_text += superscripts.at(c.digitValue());
  QString mantissa = parts.value(0);
  if (mantissa.contains(QLatin1Char('.'))) {  // "1.0" -> "1", "2.50" -> "2.5"
    while (mantissa.endsWith(QLatin1Char('0'))) mantissa.chop(1);
    if (mantissa.endsWith(QLatin1Char('.'))) mantissa.chop(1);
  }
  const QString ten = QStringLiteral("10") + exp_text;
  if (mantissa == QLatin1String("1")) return ten;
  if (mantissa == QLatin1String("-1")) return QLatin1Char('-') + ten;
  return mantissa + QStringLiteral("·") + ten;
}
}  // namespace

QString formatReadable(double value, int digits) {
  if (!std::isfinite(value)) return formatNumber(value);
  const QString plain = QString::number(value, 'g', digits);
  if (!plain.contains(QLatin1Char('e'))) return plain;
  return powerOfTenText(plain);
}

QString formatPowerOfTen(double value, int digits) {
  if (!std::isfinite(value) || value == 0) return formatNumber(value);
  return powerOfTenText(QString::number(value, 'e', std::max(0, digits - 1)));
}

QString formatTick(double value) {
  if (!std::isfinite(value)) return formatNumber(value);
  if (value == 0) return QStringLiteral("0");
  int digits = 1;
  QString scientific;  // "2.5e+05"
  for (;; ++digits) {
    scientific = QString::number(value, 'e', digits - 1);
    if (digits == 6 || std::abs(scientific.toDouble() - value) <= 1e-9 * std::abs(value)) break;
  }
  // Plain where short: "1.3·10⁰" and "7.5·10⁻¹" read as a puzzle on a slide (issue #44).
  const int exponent = scientific.section(QLatin1Char('e'), 1).toInt();
  if (exponent >= -4 && exponent <= 4)
    return QString::number(value, 'f', std::max(0, digits - 1 - exponent));
  return powerOfTenText(scientific);
}

QPicture recordPlot(QCustomPlot* plot, ImageFormat format, const ImageExportOptions& o) {
  // The painter modes of each output: vector outputs (PDF, SVG) draw vectorised; PDF and a PNG
  // above screen resolution make cosmetic (1-device-pixel) pens real widths so lines scale.
  QPicture picture;
  QCPPainter painter;
  if (!painter.begin(&picture)) return picture;
  switch (format) {
    case ImageFormat::kPng:
      painter.setMode(QCPPainter::pmNonCosmetic, o.dpi > kScreenDpi);
      break;
    case ImageFormat::kPdf:
      painter.setMode(QCPPainter::pmVectorized);
      painter.setMode(QCPPainter::pmNonCosmetic);
      break;
    case ImageFormat::kSvg:
      painter.setMode(QCPPainter::pmVectorized);
      break;
  }
  plot->toPainter(&painter, o.logicalWidth(), o.logicalHeight());
  painter.end();
  return picture;
}

bool writePicture(const QPicture& picture, const QString& path, ImageFormat format,
                  const ImageExportOptions& options, QString* error) {
  if (!validOptions(options)) {
    if (error) *error = QStringLiteral("invalid export size for %1").arg(path);
    return false;
  }
  switch (format) {
    case ImageFormat::kPng:
      return writePng(picture, path, options, error);
    case ImageFormat::kPdf:
      return writePdf(picture, path, options, error);
    case ImageFormat::kSvg:
      return writeSvg(picture, path, options, error);
  }
  return false;
}

bool exportPlot(QCustomPlot* plot, const QString& path, ImageFormat format,
                const ImageExportOptions& options, QString* error) {
  if (!plot || !validOptions(options)) {
    if (error) *error = QStringLiteral("invalid export size for %1").arg(path);
    return false;
  }
  return writePicture(recordPlot(plot, format, options), path, format, options, error);
}

std::optional<ImageFormat> formatForSuffix(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) return ImageFormat::kPng;
  if (suffix == QLatin1String("pdf")) return ImageFormat::kPdf;
  if (suffix == QLatin1String("svg")) return ImageFormat::kSvg;
  return std::nullopt;
}

bool exportPlotBySuffix(QCustomPlot* plot, const QString& path, const ImageExportOptions& options,
                        QString* error) {
  if (const auto format = formatForSuffix(path)) {
    return exportPlot(plot, path, *format, options, error);
  }
  if (error)
    *error = QStringLiteral("unknown image format '%1' (use .png, .pdf or .svg)")
                 .arg(QFileInfo(path).suffix().toLower());
  return false;
}

dplab::csv::CsvTable toEngineTable(const CsvTable& table) {
  dplab::csv::CsvTable out;
  for (const CsvConstantColumn& c : table.constantColumns)
    out.constant_columns.push_back({c.name.toStdString(), c.value.toStdString()});
  for (const QString& h : table.header) out.header.push_back(h.toStdString());
  out.rows.reserve(static_cast<std::size_t>(table.rows.size()));
  for (const QStringList& row : table.rows) {
    std::vector<std::string> fields;
    fields.reserve(static_cast<std::size_t>(row.size()));
    for (const QString& f : row) fields.push_back(f.toStdString());
    out.rows.push_back(std::move(fields));
  }
  return out;
}

CsvTable fromEngineTable(const dplab::csv::CsvTable& table) {
  CsvTable out;
  for (const auto& c : table.constant_columns)
    out.constantColumns.push_back(
        {QString::fromStdString(c.name), QString::fromStdString(c.value)});
  for (const std::string& h : table.header) out.header << QString::fromStdString(h);
  for (const auto& row : table.rows) {
    QStringList fields;
    for (const std::string& f : row) fields << QString::fromStdString(f);
    out.rows << fields;
  }
  return out;
}

QString toCsvText(const CsvTable& table) {
  return QString::fromStdString(dplab::csv::csv_text(toEngineTable(table)));
}

bool writeCsv(const CsvTable& table, const QString& path, QString* error) {
  try {
    dplab::csv::write_csv_file(path.toStdString(), toEngineTable(table));
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

CsvTable plotDataTable(QCustomPlot* plot) {
  CsvTable table;
  table.header = {QStringLiteral("series"), QStringLiteral("x"), QStringLiteral("y")};
  if (!plot) return table;
  // A cell's value column only where a colour map has cells: a curve's rows had it empty.
  bool has_map = false;
  for (int i = 0; i < plot->plottableCount(); ++i)
    has_map = has_map || qobject_cast<QCPColorMap*>(plot->plottable(i)) != nullptr;
  if (has_map) table.header << QStringLiteral("value");
  const auto point = [&](const QString& name, double x, double y) {
    QStringList row{name, formatNumber(x), formatNumber(y)};
    if (has_map) row << QString();
    table.rows << row;
  };
  for (int i = 0; i < plot->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot->plottable(i);
    const QString name = p->name().isEmpty() ? QStringLiteral("series %1").arg(i) : p->name();
    if (auto* graph = qobject_cast<QCPGraph*>(p)) {
      for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        point(name, it->key, it->value);
    } else if (auto* curve = qobject_cast<QCPCurve*>(p)) {
      for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
        point(name, it->key, it->value);
    } else if (auto* bars = qobject_cast<QCPBars*>(p)) {
      for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        point(name, it->key, it->value);
    } else if (auto* map = qobject_cast<QCPColorMap*>(p)) {
      QCPColorMapData* data = map->data();
      for (int x = 0; x < data->keySize(); ++x) {
        for (int y = 0; y < data->valueSize(); ++y) {
          double kx = 0, vy = 0;
          data->cellToCoord(x, y, &kx, &vy);
          table.rows << QStringList{name, formatNumber(kx), formatNumber(vy),
                                    formatNumber(data->cell(x, y))};
        }
      }
    }
  }
  return table;
}

CsvTable modelTable(const QAbstractItemModel* model) {
  CsvTable table;
  if (!model) return table;
  for (int c = 0; c < model->columnCount(); ++c) {
    table.header << model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
  }
  for (int r = 0; r < model->rowCount(); ++r) {
    QStringList row;
    for (int c = 0; c < model->columnCount(); ++c) {
      // Qt::UserRole carries the unrounded number where a model provides one.
      const QVariant raw = model->data(model->index(r, c), Qt::UserRole);
      row << (raw.isValid() ? raw.toString()
                            : model->data(model->index(r, c), Qt::DisplayRole).toString());
    }
    table.rows << row;
  }
  return table;
}

}  // namespace dplab::ui
