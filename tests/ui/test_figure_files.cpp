// The engine's figure files as a reader sees them (engine/figures, issue 26 item 6): the SVG,
// rendered by Qt's own SVG renderer (an SVG Tiny reader, the strictest one the project has), is
// the same picture as the PNG: at 7 in and at 3.5 in wide, at least 98.5% of the pixels agree
// within 64 grey levels after halving both images (anti-aliasing differs between the two
// rasterisers), and the text, Greek letters included, is drawn in both (dark pixels in the
// title band and under the y label). With DPLAB_TEST_SCREENSHOTS set, both renderings are saved.
#include <QByteArray>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QtTest>

#include "figures/plot.h"
#include "support/test_registry.h"

using namespace dplab::figures;

namespace {

Plot greek_curves(double width, double height) {
  Plot plot;
  plot.title = "σ = 4: accuracy vs ε";
  plot.subtitle = "δ = 1e-05, α = 0.1";
  plot.x_label = "total ε";
  plot.y_label = "accuracy (α)";
  plot.width = width;
  plot.height = height;
  Series a;
  a.label = "DP-SGD";
  a.x = {0.5, 1, 2, 4};
  a.y = {0.6, 0.7, 0.76, 0.8};
  a.marker = 3;
  Series b = a;
  b.label = "DPAdam";
  b.y = {0.62, 0.72, 0.79, 0.82};
  b.color = palette(1);
  b.dash = 4;
  plot.series = {a, b};
  return plot;
}

QImage grey_half(const QImage& image) {
  return image.convertToFormat(QImage::Format_Grayscale8)
      .scaled(image.width() / 2, image.height() / 2, Qt::IgnoreAspectRatio,
              Qt::SmoothTransformation);
}

// Pixels darker than 128 inside a rectangle given in points (2 pixels per point).
int dark_in(const QImage& grey_full, double x0, double y0, double x1, double y1) {
  int n = 0;
  for (int y = static_cast<int>(2 * y0); y < static_cast<int>(2 * y1); ++y)
    for (int x = static_cast<int>(2 * x0); x < static_cast<int>(2 * x1); ++x)
      n += qGray(grey_full.pixel(x, y)) < 128;
  return n;
}

}  // namespace

class TestFigureFiles : public QObject {
  Q_OBJECT

 private slots:
  void svg_renders_as_the_png_data() {
    QTest::addColumn<double>("width");
    QTest::addColumn<double>("height");
    QTest::newRow("7 in") << 504.0 << 324.0;
    QTest::newRow("3.5 in") << 252.0 << 216.0;
  }
  void svg_renders_as_the_png() {
    QFETCH(double, width);
    QFETCH(double, height);
    const Plot plot = greek_curves(width, height);
    const QImage png = QImage::fromData(QByteArray::fromStdString(to_png(plot)), "PNG")
                           .convertToFormat(QImage::Format_RGB32);
    QCOMPARE(png.width(), static_cast<int>(2 * width));
    QCOMPARE(png.height(), static_cast<int>(2 * height));

    QSvgRenderer renderer(QByteArray::fromStdString(to_svg(plot)));
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.defaultSize(), QSize(static_cast<int>(width), static_cast<int>(height)));
    QImage svg(png.size(), QImage::Format_RGB32);
    svg.fill(Qt::white);
    {
      QPainter painter(&svg);
      painter.setRenderHint(QPainter::Antialiasing);
      renderer.render(&painter);
    }
    if (const QByteArray dir = qgetenv("DPLAB_TEST_SCREENSHOTS"); !dir.isEmpty()) {
      const QString stem = QString("%1/figure-%2pt").arg(QString::fromLocal8Bit(dir)).arg(width);
      png.save(stem + "-png.png");
      svg.save(stem + "-svg-qt.png");
    }

    const QImage a = grey_half(png), b = grey_half(svg);
    qsizetype differ = 0;
    for (int y = 0; y < a.height(); ++y) {
      const uchar* ra = a.constScanLine(y);
      const uchar* rb = b.constScanLine(y);
      for (int x = 0; x < a.width(); ++x) differ += std::abs(int(ra[x]) - int(rb[x])) > 64;
    }
    const double share = static_cast<double>(differ) / (a.width() * a.height());
    QVERIFY2(share < 0.015, qPrintable(QString("%1% of the pixels differ").arg(100 * share)));

    // The text is there in both: the title band (its first line, from x = 62 pt) and the
    // rotated y label (left of the tick labels), as the PNG draws them.
    const QImage png_grey = png.convertToFormat(QImage::Format_Grayscale8);
    const QImage svg_grey = svg.convertToFormat(QImage::Format_Grayscale8);
    const int title_png = dark_in(png_grey, 62, 5, width, 18);
    const int title_svg = dark_in(svg_grey, 62, 5, width, 18);
    QVERIFY2(title_png > 100 && title_svg > 0.8 * title_png,
             qPrintable(QString("title: %1 dark pixels in the PNG, %2 in the SVG")
                            .arg(title_png)
                            .arg(title_svg)));
    const int label_png = dark_in(png_grey, 0, 40, 20, height - 46);
    const int label_svg = dark_in(svg_grey, 0, 40, 20, height - 46);
    QVERIFY2(label_png > 50 && label_svg > 0.8 * label_png,
             qPrintable(QString("y label: %1 / %2").arg(label_png).arg(label_svg)));
  }
};

DPLAB_TEST_MAIN(TestFigureFiles)
#include "test_figure_files.moc"
