#include "charts/chart_export.h"

#include <qcustomplot.h>
#include <QAbstractItemModel>
#include <QBuffer>
#include <QFileInfo>
#include <QPageLayout>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <cmath>

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

bool exportPng(QCustomPlot* plot, const QString& path, const ImageExportOptions& o,
               QString* error) {
  // Exactly round(inches × dpi) pixels: the layout (at 96 px/in) is scaled onto them.
  const QSize pixels(static_cast<int>(std::lround(o.width_in * o.dpi)),
                     static_cast<int>(std::lround(o.height_in * o.dpi)));
  QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  {
    QCPPainter painter;
    if (!painter.begin(&image)) {
      if (error) *error = QStringLiteral("PNG painter failed for %1").arg(path);
      return false;
    }
    painter.setMode(QCPPainter::pmNonCosmetic, o.dpi > kScreenDpi);
    painter.scale(pixels.width() / static_cast<double>(o.logicalWidth()),
                  pixels.height() / static_cast<double>(o.logicalHeight()));
    plot->toPainter(&painter, o.logicalWidth(), o.logicalHeight());
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

bool exportPdf(QCustomPlot* plot, const QString& path, const ImageExportOptions& o,
               QString* error) {
  // A page of exactly the figure's physical size; the painter works in 1/96 in, the layout scale,
  // so that fonts keep their point size (QCustomPlot::savePdf would make 1 px = 1 pt).
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QPdfWriter pdf(&buffer);
    pdf.setCreator(QStringLiteral("dplab"));
    pdf.setTitle(plot->objectName());
    pdf.setResolution(static_cast<int>(kScreenDpi));
    pdf.setPageLayout(QPageLayout(QPageSize(QSizeF(o.width_in, o.height_in), QPageSize::Inch,
                                            QString(), QPageSize::ExactMatch),
                                  QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
    QCPPainter painter;
    if (!painter.begin(&pdf)) {
      if (error) *error = QStringLiteral("PDF painter failed for %1").arg(path);
      return false;
    }
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNonCosmetic);
    plot->toPainter(&painter, o.logicalWidth(), o.logicalHeight());
    painter.end();
  }
  QSaveFile file(path);
  return openForWrite(file, error) && commit(file, bytes, error);
}

bool exportSvg(QCustomPlot* plot, const QString& path, const ImageExportOptions& o,
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
  generator.setTitle(plot->objectName());
  generator.setDescription(QStringLiteral("dplab chart"));
  QCPPainter painter;
  if (!painter.begin(&generator)) {
    if (error) *error = QStringLiteral("SVG painter failed for %1").arg(path);
    return false;
  }
  painter.setMode(QCPPainter::pmVectorized);
  plot->toPainter(&painter, o.logicalWidth(), o.logicalHeight());
  painter.end();
  QSaveFile file(path);
  return openForWrite(file, error) && commit(file, bytes, error);
}

QString csvField(const QString& field) {
  if (field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"')) ||
      field.contains(QLatin1Char('\n'))) {
    QString quoted = field;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
  }
  return field;
}

}  // namespace

QString formatNumber(double value) {
  if (std::isnan(value)) return QStringLiteral("nan");
  if (std::isinf(value)) return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  return QString::number(value, 'g', 10);
}

QString formatReadable(double value, int digits) {
  if (!std::isfinite(value)) return formatNumber(value);
  const QString plain = QString::number(value, 'g', digits);
  if (!plain.contains(QLatin1Char('e'))) return plain;
  // mantissa e exponent -> mantissa·10^exponent with superscript digits.
  const QStringList parts = plain.split(QLatin1Char('e'));
  const int exponent = parts.value(1).toInt();
  static const QString superscripts = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
  QString exp_text = exponent < 0 ? QStringLiteral("⁻") : QString();
  for (QChar c : QString::number(std::abs(exponent))) exp_text += superscripts.at(c.digitValue());
  const QString mantissa = parts.value(0);
  const QString ten = QStringLiteral("10") + exp_text;
  if (mantissa == QLatin1String("1")) return ten;
  if (mantissa == QLatin1String("-1")) return QLatin1Char('-') + ten;
  return mantissa + QStringLiteral("·") + ten;
}

bool exportPlot(QCustomPlot* plot, const QString& path, ImageFormat format,
                const ImageExportOptions& options, QString* error) {
  if (!plot || !(options.width_in > 0) || !(options.height_in > 0) || options.dpi <= 0 ||
      options.width_in > 100 || options.height_in > 100) {
    if (error) *error = QStringLiteral("invalid export size for %1").arg(path);
    return false;
  }
  switch (format) {
    case ImageFormat::kPng:
      return exportPng(plot, path, options, error);
    case ImageFormat::kPdf:
      return exportPdf(plot, path, options, error);
    case ImageFormat::kSvg:
      return exportSvg(plot, path, options, error);
  }
  return false;
}

bool exportPlotBySuffix(QCustomPlot* plot, const QString& path, const ImageExportOptions& options,
                        QString* error) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png"))
    return exportPlot(plot, path, ImageFormat::kPng, options, error);
  if (suffix == QLatin1String("pdf"))
    return exportPlot(plot, path, ImageFormat::kPdf, options, error);
  if (suffix == QLatin1String("svg"))
    return exportPlot(plot, path, ImageFormat::kSvg, options, error);
  if (error)
    *error = QStringLiteral("unknown image format '%1' (use .png, .pdf or .svg)").arg(suffix);
  return false;
}

QString toCsvText(const CsvTable& table) {
  QString text;
  auto append_row = [&text](const QStringList& row) {
    QStringList fields;
    fields.reserve(row.size());
    for (const QString& f : row) fields << csvField(f);
    text += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
  };
  for (const QString& comment : table.comments) text += comment + QLatin1Char('\n');
  append_row(table.header);
  for (const QStringList& row : table.rows) append_row(row);
  return text;
}

bool writeCsv(const CsvTable& table, const QString& path, QString* error) {
  QSaveFile file(path);
  return openForWrite(file, error) && commit(file, toCsvText(table).toUtf8(), error);
}

CsvTable plotDataTable(QCustomPlot* plot) {
  CsvTable table;
  table.header = {QStringLiteral("series"), QStringLiteral("x"), QStringLiteral("y"),
                  QStringLiteral("value")};
  if (!plot) return table;
  for (int i = 0; i < plot->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot->plottable(i);
    const QString name = p->name().isEmpty() ? QStringLiteral("series %1").arg(i) : p->name();
    if (auto* graph = qobject_cast<QCPGraph*>(p)) {
      for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
        table.rows << QStringList{name, formatNumber(it->key), formatNumber(it->value), QString()};
      }
    } else if (auto* curve = qobject_cast<QCPCurve*>(p)) {
      for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it) {
        table.rows << QStringList{name, formatNumber(it->key), formatNumber(it->value), QString()};
      }
    } else if (auto* bars = qobject_cast<QCPBars*>(p)) {
      for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
        table.rows << QStringList{name, formatNumber(it->key), formatNumber(it->value), QString()};
      }
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
