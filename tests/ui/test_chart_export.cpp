// Issue #9 items 3 and 4: exported figures. The SVG, rendered back with QSvgRenderer, looks like
// the PNG of the same chart (the SVG used to scale fonts by dpi/72 while the layout assumed 96:
// clipped labels, overflowing legends); sizes are physical (3.5 in / 7 in presets: PDF page and
// SVG size in inches, PNG pixels = inches × dpi); the title is optional; powers of ten are drawn
// as 10³, not 1e+03; no label has a literal "ε_".
#include <qcustomplot.h>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/chart_export.h"
#include "charts/chart_view.h"
#include "charts/export_dialog.h"
#include "shell/main_window.h"
#include "support/test_registry.h"
#include "views/privacy_tab.h"

using namespace dplab::ui;

namespace {
QImage grayScaled(const QImage& image, int width) {
  return image.convertToFormat(QImage::Format_Grayscale8)
      .scaledToWidth(width, Qt::SmoothTransformation);
}

// Mean absolute grey-level difference (0..255) of two images after smoothing them to `width`.
double meanDifference(const QImage& a, const QImage& b, int width) {
  const QImage x = grayScaled(a, width), y = grayScaled(b, width);
  if (x.size() != y.size()) return 255;
  double sum = 0;
  for (int r = 0; r < x.height(); ++r) {
    const uchar* p = x.constScanLine(r);
    const uchar* q = y.constScanLine(r);
    for (int c = 0; c < x.width(); ++c) sum += std::abs(int(p[c]) - int(q[c]));
  }
  return sum / (x.width() * x.height());
}

QString readText(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}
}  // namespace

class TestChartExport : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    window_ = new MainWindow;
    window_->resize(1280, 720);
    window_->show();
    window_->privacyTab()->redrawNow();
  }
  void cleanupTestCase() { delete window_; }

  // The long-format data of a chart: series, x, y for curves; a "value" column only when a
  // colour map's cells have one (issue #44: the accuracy CSV's value column was always empty).
  void plotDataHasAValueColumnOnlyForColourMaps() {
    QCustomPlot plot;
    QCPGraph* graph = plot.addGraph();
    graph->setName(QStringLiteral("curve"));
    graph->addData(1, 0.5);
    graph->addData(2, 0.75);
    CsvTable table = plotDataTable(&plot);
    QCOMPARE(table.header, (QStringList{"series", "x", "y"}));
    QCOMPARE(table.rows.size(), 2);
    QCOMPARE(table.rows[1], (QStringList{"curve", "2", "0.75"}));
    auto* map = new QCPColorMap(plot.xAxis, plot.yAxis);
    map->setName(QStringLiteral("grid"));
    map->data()->setSize(2, 1);
    map->data()->setRange(QCPRange(0, 1), QCPRange(0, 0));
    map->data()->setCell(0, 0, 0.25);
    map->data()->setCell(1, 0, 0.5);
    table = plotDataTable(&plot);
    QCOMPARE(table.header, (QStringList{"series", "x", "y", "value"}));
    QCOMPARE(table.rows.size(), 4);
    QCOMPARE(table.rows[0], (QStringList{"curve", "1", "0.5", QString()}));
    QCOMPARE(table.rows[3].at(3), QStringLiteral("0.5"));
  }

  void svgRendersLikeThePng_data() {
    QTest::addColumn<int>("chart");
    QTest::addColumn<int>("dpi");
    QTest::addColumn<int>("preset");
    QTest::newRow("Figure 6, 300 dpi, one column") << 0 << 300 << 0;
    QTest::newRow("Figure 6, 300 dpi, two columns") << 0 << 300 << 1;
    QTest::newRow("Figure 1b (log axes), 600 dpi, one column") << 2 << 600 << 0;
    QTest::newRow("Figure 1a, 150 dpi, two columns") << 1 << 150 << 1;
  }
  void svgRendersLikeThePng() {
    QFETCH(int, chart);
    QFETCH(int, dpi);
    QFETCH(int, preset);
    ChartView* view = window_->privacyTab()->charts().at(chart);
    ImageExportOptions o;
    o.width_in = kImageSizePresets[preset].width_in;
    o.height_in = kImageSizePresets[preset].height_in;
    o.dpi = dpi;
    QString error;
    const QString png = dir_.filePath(QStringLiteral("c.png")),
                  svg = dir_.filePath(QStringLiteral("c.svg"));
    QVERIFY2(view->exportImage(png, o, &error), qPrintable(error));
    QVERIFY2(view->exportImage(svg, o, &error), qPrintable(error));
    const QImage raster(png);
    QCOMPARE(raster.width(), static_cast<int>(std::lround(o.width_in * dpi)));
    QCOMPARE(raster.height(), static_cast<int>(std::lround(o.height_in * dpi)));
    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QImage rendered(raster.size(), QImage::Format_ARGB32);
    rendered.fill(Qt::white);
    QPainter painter(&rendered);
    renderer.render(&painter);
    painter.end();
    const double diff = meanDifference(raster, rendered, 160);
    qInfo("mean grey difference SVG vs PNG: %.2f / 255", diff);
    QVERIFY2(diff < 6.0, qPrintable(QString::number(diff)));
  }

  void sizesArePhysical() {
    ChartView* view = window_->privacyTab()->figure6Chart();
    ImageExportOptions o;
    o.width_in = kImageSizePresets[0].width_in;  // 3.5 in
    o.height_in = kImageSizePresets[0].height_in;
    o.dpi = 300;
    QString error;
    const QString pdf = dir_.filePath(QStringLiteral("p.pdf")),
                  svg = dir_.filePath(QStringLiteral("p.svg")),
                  png = dir_.filePath(QStringLiteral("p.png"));
    QVERIFY2(view->exportImage(pdf, o, &error), qPrintable(error));
    QVERIFY2(view->exportImage(svg, o, &error), qPrintable(error));
    QVERIFY2(view->exportImage(png, o, &error), qPrintable(error));
    // PDF page: 3.5 in = 252 pt wide.
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromLatin1(f.readAll());
    const auto box =
        QRegularExpression(QStringLiteral("/MediaBox \\[\\s*0 0 ([0-9.]+) ([0-9.]+)")).match(text);
    QVERIFY(box.hasMatch());
    QVERIFY2(std::abs(box.captured(1).toDouble() - 252.0) < 1.0, qPrintable(box.captured(0)));
    QVERIFY2(std::abs(box.captured(2).toDouble() - 2.6 * 72) < 1.0, qPrintable(box.captured(0)));
    // SVG: width in mm = 3.5 × 25.4.
    const auto width =
        QRegularExpression(QStringLiteral("width=\"([0-9.]+)mm\"")).match(readText(svg));
    QVERIFY(width.hasMatch());
    QVERIFY(std::abs(width.captured(1).toDouble() - 88.9) < 0.5);
    // PNG: 1050 pixels and 300 dpi stored.
    const QImage image(png);
    QCOMPARE(image.width(), 1050);
    QVERIFY(std::abs(image.dotsPerMeterX() * 0.0254 - 300) < 1);
    // Fonts read at that size: at 96 layout px per inch a point is a point on paper.
    QCustomPlot* plot = view->plot();
    QVERIFY(plot->xAxis->tickLabelFont().pointSizeF() >= 7.0);
    QVERIFY(plot->xAxis->labelFont().pointSizeF() >= 8.0);
  }

  void presetsSetTheDialog() {
    ExportImageDialog dialog;
    dialog.selectPreset(1);
    QCOMPARE(dialog.options().width_in, 7.0);
    dialog.selectPreset(0);
    QCOMPARE(dialog.options().width_in, 3.5);
  }

  void titleIsOptional() {
    ChartView* view = window_->privacyTab()->figure6Chart();
    ImageExportOptions o;
    o.width_in = 7;
    o.height_in = 3.5;
    QString error;
    const int rows = view->plot()->plotLayout()->rowCount();
    const QString with = dir_.filePath(QStringLiteral("t1.svg")),
                  without = dir_.filePath(QStringLiteral("t0.svg"));
    o.title = true;
    QVERIFY(view->exportImage(with, o, &error));
    o.title = false;
    QVERIFY(view->exportImage(without, o, &error));
    const QString word = QStringLiteral("Figure 6");
    QVERIFY(view->title().contains(word));
    QVERIFY(readText(with).contains(word));
    QVERIFY(!readText(without).contains(word));
    QVERIFY(view->title().contains(word));                   // the on-screen chart keeps its title
    QCOMPARE(view->plot()->plotLayout()->rowCount(), rows);  // the layout is restored
  }

  void singleColumnFigureDrawsInsideItsPage() {
    // A 3.5 in column is 336 logical px: the long titles, axis labels and the legend used to be
    // drawn past the page's edges (clipped in the file). Now everything recorded lies inside,
    // and the on-screen chart is restored afterwards.
    ImageExportOptions o;
    o.width_in = 3.5;
    o.height_in = 2.6;
    o.title = true;
    for (ChartView* view : window_->privacyTab()->charts()) {
      const QString title = view->title();
      const QString y_label = view->plot()->yAxis->label();
      const QPicture picture = view->recordImage(ImageFormat::kSvg, o);
      const QRect page(0, 0, o.logicalWidth(), o.logicalHeight());
      QVERIFY2(page.adjusted(-1, -1, 1, 1).contains(picture.boundingRect()),
               qPrintable(QStringLiteral("%1: drawn %2,%3 %4x%5 on a %6x%7 page")
                              .arg(view->fileStem())
                              .arg(picture.boundingRect().x())
                              .arg(picture.boundingRect().y())
                              .arg(picture.boundingRect().width())
                              .arg(picture.boundingRect().height())
                              .arg(page.width())
                              .arg(page.height())));
      QCOMPARE(view->title(), title);
      QCOMPARE(view->plot()->yAxis->label(), y_label);
    }
  }

  void powersOfTenAndSymbols() {
    ImageExportOptions o;
    QString error;
    for (ChartView* view : window_->privacyTab()->charts()) {
      const QString svg = dir_.filePath(view->fileStem() + QStringLiteral(".svg"));
      QVERIFY(view->exportImage(svg, o, &error));
      const QString text = readText(svg);
      QVERIFY2(!text.contains(QStringLiteral("e+0")) && !text.contains(QStringLiteral("e-0")),
               qPrintable(view->fileStem()));
      QCustomPlot* plot = view->plot();
      QStringList labels{view->title(), plot->xAxis->label(), plot->yAxis->label()};
      for (int i = 0; i < plot->graphCount(); ++i) labels << plot->graph(i)->name();
      for (const QString& l : labels) QVERIFY2(!l.contains(QStringLiteral("ε_")), qPrintable(l));
    }
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestChartExport)
#include "test_chart_export.moc"
