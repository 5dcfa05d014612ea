// The engine's figure writer (engine/figures): the same Plot drawn as SVG is well-formed XML
// with one element per drawn primitive, the PDF's cross-reference offsets point at each object
// and its stream length is exact, text is escaped for both formats, axis ranges cover the data,
// and malformed plots are refused. The PNG (Cairo) decodes to 2x the point size; a filled
// rectangle covers exactly its pixels in its colour, lines, dashes and circles cross the pixels
// they should and no others, text is dark pixels inside its box (anchored and rotated as asked)
// and none outside, and a plot's PNG puts each curve where its SVG says.
#include <QByteArray>
#include <QList>
#include <QPointF>
#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/error.h"
#include "figures/pdf_canvas.h"
#include "figures/plot.h"
#include "figures/png_canvas.h"
#include "figures/svg_canvas.h"
#include "support/expect_error.h"
#include "support/png_image.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::figures;
using dplab::testing::decode_png;
using dplab::testing::error_of;
using dplab::testing::png_header_size;
using dplab::testing::PngImage;

namespace {

Plot two_curves() {
  Plot plot;
  plot.title = "A & B <test>";
  plot.x_label = "iteration";
  plot.y_label = "accuracy (α)";
  Series a;
  a.label = "dpsgd";
  a.x = {0, 100, 200};
  a.y = {0.5, 0.7, 0.8};
  Series b = a;
  b.label = "dpadam";
  b.y = {0.55, 0.75, 0.85};
  b.dash = 4;
  b.marker = 3;
  plot.series = {a, b};
  return plot;
}

// Counts start elements by name.
int count_elements(const QByteArray& svg, const QString& name, bool* ok) {
  QXmlStreamReader xml(svg);
  int n = 0;
  while (!xml.atEnd()) {
    xml.readNext();
    if (xml.isStartElement() && xml.name() == name) ++n;
  }
  *ok = !xml.hasError();
  return n;
}

PngImage decoded(const PngCanvas& canvas) {
  return decode_png(QByteArray::fromStdString(canvas.finish()));
}

// The pixels darker than `threshold` (luminance): how many, and their bounding box in pixels.
struct DarkPixels {
  int count = 0;
  int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
};
DarkPixels dark_pixels(const PngImage& image, double threshold = 160) {
  DarkPixels d;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      if (image.luminance(x, y) >= threshold) continue;
      ++d.count;
      d.x0 = std::min(d.x0, x), d.x1 = std::max(d.x1, x);
      d.y0 = std::min(d.y0, y), d.y1 = std::max(d.y1, y);
    }
  return d;
}

// Each channel within `tolerance` of the expected colour.
bool close_colour(std::uint32_t got, std::uint32_t want, int tolerance = 2) {
  for (int shift : {0, 8, 16}) {
    const int a = static_cast<int>((got >> shift) & 255),
              b = static_cast<int>((want >> shift) & 255);
    if (std::abs(a - b) > tolerance) return false;
  }
  return true;
}

constexpr std::uint32_t kWhite = 0xFFFFFF;

}  // namespace

class TestFigures : public QObject {
  Q_OBJECT

 private slots:
  void svg_is_well_formed_and_escaped() {
    const QByteArray svg = QByteArray::fromStdString(to_svg(two_curves()));
    bool ok = false;
    QCOMPARE(count_elements(svg, "svg", &ok), 1);
    QVERIFY(ok);
    QVERIFY(svg.contains("A &amp; B &lt;test&gt;"));
    QVERIFY(svg.contains("accuracy (α)"));
    // Two data polylines plus two legend swatches, dashed once each for dpadam.
    QCOMPARE(svg.count("stroke-dasharray=\"4.00\""), 2);
    // Three markers on the dpadam curve plus one in its legend entry.
    QCOMPARE(count_elements(svg, "circle", &ok), 4);
  }

  // Every object offset in the xref table points at "N 0 obj"; /Length equals the stream bytes.
  void pdf_structure_is_exact() {
    const QByteArray pdf = QByteArray::fromStdString(to_pdf(two_curves()));
    QVERIFY(pdf.startsWith("%PDF-1.4\n"));
    QVERIFY(pdf.endsWith("%%EOF\n"));
    const int startxref = pdf.lastIndexOf("startxref\n");
    const int xref = pdf.mid(startxref + 10).split('\n').front().toInt();
    QCOMPARE(pdf.mid(xref, 5), QByteArray("xref\n"));
    const QList<QByteArray> lines = pdf.mid(xref).split('\n');
    QCOMPARE(lines[1], QByteArray("0 6"));
    for (int object = 1; object <= 5; ++object) {
      const int offset = lines[2 + object].left(10).toInt();
      QVERIFY2(pdf.mid(offset).startsWith(QByteArray::number(object) + " 0 obj\n"),
               qPrintable(QString::number(object)));
    }
    const QRegularExpression length("/Length (\\d+) >>\\nstream\\n");
    const auto match = length.match(QString::fromLatin1(pdf));
    QVERIFY(match.hasMatch());
    const int begin = match.capturedEnd();
    const int end = pdf.indexOf("endstream", begin);
    QCOMPARE(end - begin, match.captured(1).toInt());
    // Text: parentheses escaped, Greek spelled out, the title's & kept.
    QVERIFY(pdf.contains("(accuracy \\(alpha\\)) Tj"));
    QVERIFY(pdf.contains("(A & B <test>) Tj"));
  }

  void pdf_text_spells_out_what_winansi_lacks() {
    QCOMPARE(pdf_text("σ ≤ 4 (ε)"), std::string("sigma <= 4 \\(eps\\)"));
    QCOMPARE(pdf_text("a\\b"), std::string("a\\\\b"));
    QCOMPARE(pdf_text("\xE4\xB8\xAD"), std::string("?"));  // any other character: one '?'
  }

  // The y axis covers the error bars too: a point far outside the curve is still inside the box.
  void ranges_cover_error_bars() {
    Plot plot;
    Series s;
    s.x = {0, 1};
    s.y = {0.5, 0.6};
    s.y_low = {0.1, 0.55};
    s.y_high = {0.52, 0.9};
    plot.series = {s};
    const std::string svg = to_svg(plot);
    // The plot box spans y in [40, 278] points (height 324 - bottom margin 46).
    const QRegularExpression numbers("points=\"([^\"]*)\"");
    auto it = numbers.globalMatch(QString::fromStdString(svg));
    int checked = 0;
    while (it.hasNext()) {
      const auto m = it.next();
      for (const QString& point : m.captured(1).split(' ', Qt::SkipEmptyParts)) {
        const double y = point.split(',')[1].toDouble();
        QVERIFY2(y >= 40 - 1e-9 && y <= 278 + 1e-9, qPrintable(point));
        ++checked;
      }
    }
    QVERIFY(checked > 6);
  }

  // Values a few 1e-9 apart are one value to the axis: its tick labels all differ (6 significant
  // digits could not tell 1e-9 steps apart). Wide tick labels push the rotated y label left: in
  // the PNG it ends at least 3 pt left of where they begin.
  void axis_labels_stay_readable() {
    Plot flat;
    Series s;
    s.x = {0, 1, 2};
    s.y = {0.757519, 0.757519 + 1e-9, 0.757519 + 2e-9};
    flat.series = {s};
    const QString svg = QString::fromStdString(to_svg(flat));
    QStringList labels;
    const QRegularExpression tick("text-anchor=\"end\"[^>]*>([^<]*)<");
    for (auto it = tick.globalMatch(svg); it.hasNext();) labels << it.next().captured(1);
    QVERIFY(labels.size() >= 3);
    QCOMPARE(labels.removeDuplicates(), 0);

    Plot wide = flat;
    wide.y_label = "accuracy of the released model";
    wide.series[0].y = {0.123451, 0.123455, 0.123459};  // ticks "0.123451" ...: 8 glyphs
    Plot unlabelled = wide;
    unlabelled.y_label.clear();
    const PngImage with = decode_png(QByteArray::fromStdString(to_png(wide)));
    const PngImage without = decode_png(QByteArray::fromStdString(to_png(unlabelled)));
    // Left of the plot box: the tick labels are what is dark without the y label; the y label
    // is what only the labelled image has.
    int ticks_left = 1 << 30, label_left = 1 << 30, label_right = -1;
    for (int y = 0; y < with.height; ++y)
      for (int x = 0; x < 2 * 62 - 2; ++x) {
        const bool tick = without.luminance(x, y) < 200;
        if (tick) ticks_left = std::min(ticks_left, x);
        if (with.luminance(x, y) < 200 && !tick) {
          label_left = std::min(label_left, x);
          label_right = std::max(label_right, x);
        }
      }
    QVERIFY2(label_right >= 0 && ticks_left < 2 * 62, "both drawn");
    QVERIFY2(label_right + 6 <= ticks_left,  // at least 3 pt apart
             qPrintable(QString("label up to %1, ticks from %2").arg(label_right).arg(ticks_left)));
    QVERIFY(label_left >= 1);  // still on the page
  }

  void viridis_and_palette() {
    QCOMPARE(viridis(0), std::string("#440154"));
    QCOMPARE(viridis(1), std::string("#fde725"));
    QCOMPARE(viridis(-3), viridis(0));
    QCOMPARE(viridis(std::numeric_limits<double>::quiet_NaN()), viridis(0));
    QCOMPARE(palette(0), palette(10));
  }

  void heatmap_draws_every_cell() {
    Plot plot;
    Heatmap h;
    h.x_values = {0.1, 1, 10};
    h.y_values = {0.5, 1};
    h.z = {1, 2, 3, 4, std::numeric_limits<double>::quiet_NaN(), 6};
    h.marked_cells = {0};
    plot.heatmap = h;
    const QByteArray svg = QByteArray::fromStdString(to_svg(plot));
    bool ok = false;
    // Background + 6 cells + box + 50 colour-bar steps + colour-bar frame.
    QCOMPARE(count_elements(svg, "rect", &ok), 1 + 6 + 1 + 50 + 1);
    QVERIFY(ok);
    QVERIFY(svg.contains("fill=\"#bdbdbd\""));  // the NaN cell
    QCOMPARE(count_elements(svg, "circle", &ok), 1);
  }

  void malformed_plots_are_refused() {
    Plot plot = two_curves();
    plot.series[0].y.pop_back();
    QVERIFY(error_of<InvalidArgument>([&] { to_svg(plot); }).contains("dpsgd"));
    Plot bars = two_curves();
    bars.series[1].y_low = {0.1};
    QVERIFY(error_of<InvalidArgument>([&] { to_pdf(bars); }).contains("error bars"));
    Plot heat;
    heat.heatmap = Heatmap{};
    heat.heatmap->x_values = {1, 2};
    heat.heatmap->y_values = {1};
    heat.heatmap->z = {1};
    QVERIFY(error_of<InvalidArgument>([&] { to_svg(heat); }).contains("heatmap"));
  }

  // 2 pixels per point: the header and the decoded image agree.
  void png_size_is_twice_the_points() {
    const QByteArray png = QByteArray::fromStdString(to_png(two_curves()));
    const auto header = png_header_size(png);
    QVERIFY(header.has_value());
    QCOMPARE(header->first, 1008);
    QCOMPARE(header->second, 648);
    const PngImage image = decode_png(png);
    QCOMPARE(image.width, 1008);
    QCOMPARE(image.height, 648);
    QCOMPARE(png_header_size(QByteArray::fromStdString(to_png(two_curves(), 1)))->first, 504);
    const PngCanvas odd(100.25, 50);
    QCOMPARE(odd.pixel_width(), 201);
    QCOMPARE(decoded(odd).width, 201);
    QCOMPARE(decoded(odd).height, 100);
  }

  // Every pixel inside the rectangle has the fill colour, every pixel outside stays white.
  void png_rect_fills_exactly_its_pixels() {
    PngCanvas canvas(100, 100);
    canvas.rect(10, 20, 30, 40, "#3366cc");
    const PngImage image = decoded(canvas);
    for (int y = 0; y < image.height; ++y)
      for (int x = 0; x < image.width; ++x) {
        const bool inside = x >= 20 && x < 80 && y >= 40 && y < 120;
        if (image.at(x, y) != (inside ? 0x3366CCu : kWhite))
          QFAIL(
              qPrintable(QString("pixel (%1, %2) is %3").arg(x).arg(y).arg(image.at(x, y), 6, 16)));
      }
    // Stroke only: a 1 pt frame on x = 10 pt covers pixel columns 19 and 20; the inside stays
    // white.
    PngCanvas framed(100, 100);
    framed.rect(10, 10, 50, 50, "", "#000000", 1);
    const PngImage frame = decoded(framed);
    QCOMPARE(frame.at(19, 60), 0u);
    QCOMPARE(frame.at(20, 60), 0u);
    QCOMPARE(frame.at(18, 60), kWhite);
    QCOMPARE(frame.at(60, 60), kWhite);
  }

  // A 2 pt diagonal: pixels on it are black, pixels more than 2 pt away are white.
  void png_polyline_crosses_its_pixels() {
    PngCanvas canvas(100, 100);
    canvas.polyline({{10, 10}, {90, 90}}, "#000000", 2);
    const PngImage image = decoded(canvas);
    for (int t = 22; t < 178; ++t)
      QVERIFY2(image.luminance(t, t) < 40, qPrintable(QString::number(t)));
    int far = 0;
    for (int y = 0; y < image.height; ++y)
      for (int x = 0; x < image.width; ++x) {
        const double px = (x + 0.5) / 2, py = (y + 0.5) / 2;  // pixel centre in points
        const double along = std::clamp((px - 10 + py - 10) / 2, 0.0, 80.0);
        const double distance = std::hypot(px - 10 - along, py - 10 - along);
        if (distance > 2) {
          ++far;
          if (image.at(x, y) != kWhite) QFAIL(qPrintable(QString("(%1, %2) drawn").arg(x).arg(y)));
        }
      }
    QVERIFY(far > 30'000);
    // Dashed (4 pt on, 4 pt off from the start): red on [10, 14] and [18, 22], white between.
    PngCanvas dashed(100, 100);
    dashed.polyline({{10, 50}, {90, 50}}, "#ff0000", 2, 4);
    const PngImage d = decoded(dashed);
    QCOMPARE(d.at(24, 100), 0xFF0000u);
    QCOMPARE(d.at(32, 100), kWhite);
    QCOMPARE(d.at(40, 100), 0xFF0000u);
    QCOMPARE(d.at(48, 100), kWhite);
    QCOMPARE(d.at(24, 110), kWhite);  // 5 pt below the line
  }

  void png_circle_fills_its_disc() {
    PngCanvas canvas(100, 100);
    canvas.circle(50, 50, 10, "#00aa00");
    canvas.circle(20, 20, 5, "", "#000000", 1);
    const PngImage image = decoded(canvas);
    QCOMPARE(image.at(100, 100), 0x00AA00u);
    QCOMPARE(image.at(113, 100), 0x00AA00u);  // 6.75 pt from the centre
    QCOMPARE(image.at(100, 86), 0x00AA00u);
    QCOMPARE(image.at(125, 100), kWhite);    // 12.75 pt
    QCOMPARE(image.at(115, 115), kWhite);    // near the corner of the bounding square
    QCOMPARE(image.at(40, 40), kWhite);      // a ring: its centre is not filled
    QVERIFY(image.luminance(50, 40) < 100);  // on the ring (x = 25 pt)
  }

  // Real glyphs (DejaVu Sans through fontconfig): dark pixels fill the text's box and nothing
  // outside it; End and Middle anchors use the measured advance; vertical text is rotated.
  void png_text_is_dark_inside_its_box_only() {
    PngCanvas canvas(200, 100);
    canvas.text(20, 60, "Accuracy 0.8", 12, Anchor::kStart);
    const DarkPixels d = dark_pixels(decoded(canvas));
    QVERIFY2(d.count > 300, qPrintable(QString::number(d.count)));
    // Box in points: from x = 20 to at most 0.75 em per glyph; cap height above the baseline at
    // y = 60, the descender of 'y' below it.
    QVERIFY2(d.x0 >= 2 * 20 - 1 && d.x1 <= 2 * (20 + 12 * 12 * 0.75),
             qPrintable(QString::number(d.x1)));
    QVERIFY2(d.y0 >= 2 * (60 - 12) && d.y1 <= 2 * (60 + 4), qPrintable(QString::number(d.y1)));
    QVERIFY2(d.x1 - d.x0 > 2 * 50, "the text spans at least 50 pt");
    QVERIFY(d.y0 < 2 * (60 - 7) && d.y1 > 2 * (60 + 1));  // capitals rise, 'y' descends

    PngCanvas ends(200, 100);
    ends.text(180, 60, "Accuracy", 12, Anchor::kEnd);
    const DarkPixels e = dark_pixels(decoded(ends));
    QVERIFY2(e.x1 <= 2 * 180 && e.x1 >= 2 * (180 - 3), qPrintable(QString::number(e.x1)));
    PngCanvas middle(200, 100);
    middle.text(100, 60, "Accuracy", 12, Anchor::kMiddle);
    const DarkPixels m = dark_pixels(decoded(middle));
    QVERIFY2(std::abs((m.x0 + m.x1) / 2.0 - 200) <= 6, qPrintable(QString::number(m.x0)));

    PngCanvas vertical(100, 200);
    vertical.text(30, 100, "Accuracy", 12, Anchor::kMiddle, "#000000", true);
    const DarkPixels v = dark_pixels(decoded(vertical));
    QVERIFY(v.y1 - v.y0 > 2 * (v.x1 - v.x0));
    QVERIFY2(v.x0 >= 2 * (30 - 12) && v.x1 <= 2 * (30 + 4), qPrintable(QString::number(v.x0)));
    QVERIFY(std::abs((v.y0 + v.y1) / 2.0 - 200) <= 6);

    PngCanvas red(200, 100);
    red.text(20, 60, "W", 20, Anchor::kStart, "#cc0000");
    const PngImage r = decoded(red);
    std::uint32_t darkest = kWhite;
    for (std::uint32_t c : r.rgb)
      if ((c & 255) < (darkest & 255)) darkest = c;
    QVERIFY(close_colour(darkest, 0xCC0000, 3));
  }

  // Malformed UTF-8 becomes '?' instead of breaking Cairo's context for everything after it.
  void png_survives_malformed_text() {
    PngCanvas canvas(100, 100);
    canvas.text(10, 20, std::string("bad \xff\xfe \xed\xa0\x80 text"), 10, Anchor::kStart);
    canvas.rect(50, 50, 10, 10, "#000000");
    const PngImage image = decoded(canvas);
    QCOMPARE(image.at(110, 110), 0u);
    QVERIFY(dark_pixels(image).y0 < 2 * 20);  // the text was drawn
  }

  void png_refuses_impossible_sizes() {
    QVERIFY(error_of<InvalidArgument>([] { PngCanvas(0, 10); }).contains("PNG"));
    QVERIFY(error_of<InvalidArgument>([] {
              PngCanvas(std::numeric_limits<double>::quiet_NaN(), 10);
            }).contains("PNG"));
    QVERIFY(error_of<InvalidArgument>([] { PngCanvas(20000, 10); }).contains("32,767"));
  }

  // The PNG is the same layout as the SVG: the middle of the first curve's first segment, read
  // from the SVG, is that curve's colour in the PNG; the title and the rotated y label are dark.
  void png_draws_the_svg_layout() {
    const Plot plot = two_curves();
    const QString svg = QString::fromStdString(to_svg(plot));
    const QRegularExpression curve("stroke=\"#1f77b4\"[^>]*points=\"([^\"]*)\"");
    QPointF mid;
    bool found = false;
    for (auto it = curve.globalMatch(svg); it.hasNext();) {
      const QStringList points = it.next().captured(1).split(' ', Qt::SkipEmptyParts);
      if (points.size() != 3) continue;  // the data polyline, not the legend swatch
      const QStringList a = points[0].split(','), b = points[1].split(',');
      mid = {(a[0].toDouble() + b[0].toDouble()) / 2, (a[1].toDouble() + b[1].toDouble()) / 2};
      found = true;
      break;
    }
    QVERIFY(found);
    const PngImage image = decode_png(QByteArray::fromStdString(to_png(plot)));
    QVERIFY2(close_colour(image.at(static_cast<int>(mid.x() * 2), static_cast<int>(mid.y() * 2)),
                          0x1F77B4),
             qPrintable(QString::number(
                 image.at(static_cast<int>(mid.x() * 2), static_cast<int>(mid.y() * 2)), 16)));
    int title = 0, y_label = 0;
    for (int y = 2 * 5; y < 2 * 18; ++y)
      for (int x = 2 * 62; x < 2 * 160; ++x) title += image.luminance(x, y) < 128;
    for (int y = 2 * 100; y < 2 * 220; ++y)
      for (int x = 2 * 4; x < 2 * 18; ++x) y_label += image.luminance(x, y) < 128;
    QVERIFY2(title > 100 && y_label > 100, qPrintable(QString("%1 %2").arg(title).arg(y_label)));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestFigures)
#include "test_figures.moc"
