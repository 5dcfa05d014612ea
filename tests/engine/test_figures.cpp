// The engine's figure writer (engine/figures): the same Plot drawn as SVG is well-formed XML
// with one element per drawn primitive, the PDF's cross-reference offsets point at each object
// and its stream length is exact, text is escaped for both formats, axis ranges cover the data,
// and malformed plots are refused.
#include <QByteArray>
#include <QList>
#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "figures/pdf_canvas.h"
#include "figures/plot.h"
#include "figures/svg_canvas.h"
#include "support/expect_error.h"

using namespace dplab;
using namespace dplab::figures;
using dplab::testing::error_of;

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
};

QTEST_APPLESS_MAIN(TestFigures)
#include "test_figures.moc"
