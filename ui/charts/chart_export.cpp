#include "charts/chart_export.h"

#include <QAbstractItemModel>
#include <QBuffer>
#include <QFileInfo>
#include <QSaveFile>
#include <QSvgGenerator>
#include <cmath>
#include <qcustomplot.h>

namespace dplab::ui {

namespace {

constexpr double kScreenDpi = 96.0;  // logical pixels per inch that QCustomPlot assumes

bool commit(QSaveFile& file, const QByteArray& bytes, QString* error) {
  if (file.write(bytes) != bytes.size() || !file.commit()) {
    if (error) *error = QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString());
    return false;
  }
  return true;
}

bool openForWrite(QSaveFile& file, QString* error) {
  if (!file.open(QIODevice::WriteOnly)) {
    if (error) *error = QStringLiteral("cannot open %1: %2").arg(file.fileName(), file.errorString());
    return false;
  }
  return true;
}

bool exportPng(QCustomPlot* plot, const QString& path, const ImageExportOptions& o, QString* error) {
  const double scale = std::max(0.25, o.dpi / kScreenDpi);
  const QPixmap pixmap = plot->toPixmap(o.width, o.height, scale);
  QImage image = pixmap.toImage();
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

bool exportPdf(QCustomPlot* plot, const QString& path, const ImageExportOptions& o, QString* error) {
  // QCustomPlot writes the file itself; write to a temporary name and rename for atomicity.
  const QString temp = path + QStringLiteral(".part");
  if (!plot->savePdf(temp, o.width, o.height, QCP::epNoCosmetic, QStringLiteral("dplab"),
                     plot->objectName())) {
    QFile::remove(temp);
    if (error) *error = QStringLiteral("PDF export failed for %1").arg(path);
    return false;
  }
  QFile::remove(path);
  if (!QFile::rename(temp, path)) {
    QFile::remove(temp);
    if (error) *error = QStringLiteral("cannot move PDF into place at %1").arg(path);
    return false;
  }
  return true;
}

bool exportSvg(QCustomPlot* plot, const QString& path, const ImageExportOptions& o, QString* error) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(QSize(o.width, o.height));
  generator.setViewBox(QRect(0, 0, o.width, o.height));
  generator.setResolution(o.dpi);
  generator.setTitle(QStringLiteral("dplab chart"));
  QCPPainter painter;
  if (!painter.begin(&generator)) {
    if (error) *error = QStringLiteral("SVG painter failed for %1").arg(path);
    return false;
  }
  plot->toPainter(&painter, o.width, o.height);
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

bool exportPlot(QCustomPlot* plot, const QString& path, ImageFormat format,
                const ImageExportOptions& options, QString* error) {
  if (!plot || options.width <= 0 || options.height <= 0 || options.dpi <= 0) {
    if (error) *error = QStringLiteral("invalid export size for %1").arg(path);
    return false;
  }
  switch (format) {
    case ImageFormat::kPng: return exportPng(plot, path, options, error);
    case ImageFormat::kPdf: return exportPdf(plot, path, options, error);
    case ImageFormat::kSvg: return exportSvg(plot, path, options, error);
  }
  return false;
}

bool exportPlotBySuffix(QCustomPlot* plot, const QString& path, const ImageExportOptions& options,
                        QString* error) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) return exportPlot(plot, path, ImageFormat::kPng, options, error);
  if (suffix == QLatin1String("pdf")) return exportPlot(plot, path, ImageFormat::kPdf, options, error);
  if (suffix == QLatin1String("svg")) return exportPlot(plot, path, ImageFormat::kSvg, options, error);
  if (error) *error = QStringLiteral("unknown image format '%1' (use .png, .pdf or .svg)").arg(suffix);
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
