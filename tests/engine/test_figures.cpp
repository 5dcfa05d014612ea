// The engine's figure files (engine/figures): one Cairo drawing path behind SVG, PDF and PNG.
// What a reader of the files gets: the SVG is XML of the stated size in points with every glyph
// drawn as an outline that SVG Tiny readers also draw (no <symbol>, no <text>); the PDF is one page
// whose MediaBox is the stated size and whose fonts map their glyphs back to the Greek letters
// α, σ, ε, δ (ToUnicode), so they are real text; the PNG has 2 pixels per point and a drawing
// inside its plot box, not a blank page; the same plot gives the same bytes whatever was drawn
// before it. The layout (through a recording Canvas): axis ranges cover the data and error bars,
// tick labels stay distinct, a heatmap draws every cell, malformed plots are refused. The pixels
// (PNG): a filled rectangle covers exactly its pixels in its colour, lines, dashes and circles
// cross the pixels they should and no others, text is dark pixels inside its box (anchored and
// rotated as asked) and none outside, and each curve lands where the layout put it.
#include <zlib.h>

#include <QByteArray>
#include <QList>
#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>

#include "core/error.h"
#include "figures/cairo_canvas.h"
#include "figures/plot.h"
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
  plot.title = "A & B <test>: σ = 4, ε ≤ 2";
  plot.subtitle = "δ = 1e-05";
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

// A Canvas that keeps what the layout drew, for checking the layout without any file format.
class Recorder : public Canvas {
 public:
  struct Line {
    std::vector<Point> points;
    std::string color;
  };
  struct Text {
    double x, y;
    std::string text;
    double size;
    Anchor anchor;
    bool vertical;
  };
  struct Box {
    double x, y, w, h;
    std::string fill;
  };
  std::vector<Line> lines;
  std::vector<Text> texts;
  std::vector<Box> rects;
  int circles = 0;

  void polyline(const std::vector<Point>& points, const std::string& color, double,
                double) override {
    lines.push_back({points, color});
  }
  void rect(double x, double y, double w, double h, const std::string& fill, const std::string&,
            double) override {
    rects.push_back({x, y, w, h, fill});
  }
  void circle(double, double, double, const std::string&, const std::string&, double) override {
    ++circles;
  }
  void text(double x, double y, const std::string& text, double size, Anchor anchor,
            const std::string&, bool vertical) override {
    texts.push_back({x, y, text, size, anchor, vertical});
  }
};

Recorder recorded(const Plot& plot) {
  Recorder r;
  draw(plot, r);
  return r;
}

PngImage decoded(CairoCanvas& canvas) {
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

// zlib-inflated bytes, empty when they are not a zlib stream.
QByteArray inflated(const QByteArray& deflated) {
  QByteArray out;
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return {};
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(deflated.constData()));
  z.avail_in = static_cast<uInt>(deflated.size());
  char buffer[16384];
  int status = Z_OK;
  while (status == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    status = inflate(&z, Z_NO_FLUSH);
    out.append(buffer, static_cast<qsizetype>(sizeof buffer - z.avail_out));
  }
  inflateEnd(&z);
  return status == Z_STREAM_END ? out : QByteArray();
}

// Every stream of a PDF, inflated when its dictionary says /FlateDecode.
QList<QByteArray> pdf_streams(const QByteArray& pdf) {
  QList<QByteArray> streams;
  for (qsizetype at = pdf.indexOf("stream"); at >= 0; at = pdf.indexOf("stream", at + 1)) {
    if (at >= 3 && pdf.mid(at - 3, 3) == "end") continue;  // "endstream"
    qsizetype begin = at + 6;
    if (pdf.mid(begin, 2) == "\r\n")
      begin += 2;
    else if (pdf.mid(begin, 1) == "\n")
      begin += 1;
    else
      continue;
    const qsizetype end = pdf.indexOf("endstream", begin);
    if (end < 0) break;
    const qsizetype dict = pdf.lastIndexOf("<<", at);
    const QByteArray body = pdf.mid(begin, end - begin);
    streams << (pdf.mid(dict, at - dict).contains("/FlateDecode") ? inflated(body) : body);
  }
  return streams;
}

// The Unicode code points the PDF's ToUnicode maps give its glyphs (bfchar and bfrange entries,
// one UTF-16 unit each, which covers the Basic Multilingual Plane).
std::set<unsigned> pdf_unicode(const QByteArray& pdf) {
  std::set<unsigned> code_points;
  const QRegularExpression pair("<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]{4})>");
  const QRegularExpression range("<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]{4})>");
  for (const QByteArray& stream : pdf_streams(pdf)) {
    if (!stream.contains("begincmap")) continue;
    const QString text = QString::fromLatin1(stream);
    for (const QString& block : text.split("beginbf")) {
      if (block.startsWith("char")) {
        for (auto it = pair.globalMatch(block); it.hasNext();)
          code_points.insert(it.next().captured(2).toUInt(nullptr, 16));
      } else if (block.startsWith("range")) {
        for (auto it = range.globalMatch(block); it.hasNext();) {
          const auto m = it.next();
          const unsigned lo = m.captured(1).toUInt(nullptr, 16),
                         hi = m.captured(2).toUInt(nullptr, 16);
          const unsigned first = m.captured(3).toUInt(nullptr, 16);
          for (unsigned c = lo; c <= hi && c - lo < 256; ++c) code_points.insert(first + c - lo);
        }
      }
    }
  }
  return code_points;
}

// The PDF's MediaBox numbers, or nothing when there is not exactly one page with one MediaBox.
QList<double> media_box(const QByteArray& pdf) {
  const QRegularExpression box("/MediaBox\\s*\\[\\s*([-0-9. ]+)\\]");
  const QString text = QString::fromLatin1(pdf);
  QList<double> numbers;
  int boxes = 0;
  for (auto it = box.globalMatch(text); it.hasNext(); ++boxes)
    for (const QString& n : it.next().captured(1).split(' ', Qt::SkipEmptyParts))
      numbers << n.toDouble();
  return boxes == 1 ? numbers : QList<double>();
}

// Page objects ("/Type /Page", not "/Type /Pages").
int pdf_pages(const QByteArray& pdf) {
  int pages = 0;
  const QRegularExpression page("/Type\\s*/Page(?![a-zA-Z])");
  for (auto it = page.globalMatch(QString::fromLatin1(pdf)); it.hasNext(); it.next()) ++pages;
  return pages;
}

// The SVG's root attributes and what its elements are, or ok = false when it is not XML.
struct SvgSummary {
  bool ok = false;
  QString width, height, view_box;
  int uses = 0, texts = 0, symbols = 0, glyph_groups = 0;
};
SvgSummary summarise_svg(const QByteArray& svg) {
  SvgSummary s;
  QXmlStreamReader xml(svg);
  bool root = true;
  while (!xml.atEnd()) {
    xml.readNext();
    if (!xml.isStartElement()) continue;
    if (root) {
      if (xml.name() != QStringLiteral("svg")) return s;
      s.width = xml.attributes().value("width").toString();
      s.height = xml.attributes().value("height").toString();
      s.view_box = xml.attributes().value("viewBox").toString();
      root = false;
    }
    s.uses += xml.name() == QStringLiteral("use");
    s.texts += xml.name() == QStringLiteral("text");
    s.symbols += xml.name() == QStringLiteral("symbol");
    s.glyph_groups += xml.name() == QStringLiteral("g") &&
                      xml.attributes().value("id").startsWith(QStringLiteral("glyph"));
  }
  s.ok = !xml.hasError() && !root;
  return s;
}

// Code points of UTF-8 text: all of them, and those that are not spaces.
struct Glyphs {
  int all = 0, visible = 0;
};
void count_glyphs(const std::string& utf8, Glyphs& g) {
  for (unsigned char c : utf8) {
    g.all += (c & 0xC0) != 0x80;
    g.visible += (c & 0xC0) != 0x80 && c != ' ';
  }
}

}  // namespace

class TestFigures : public QObject {
  Q_OBJECT

 private slots:
  // XML of the stated size; every visible glyph of every label placed as an outline (one <use>
  // each), in groups that SVG Tiny readers draw too (no <symbol>), and no <text> that would
  // depend on the reader's fonts.
  void svg_is_the_stated_size_with_every_glyph_drawn() {
    const Plot plot = two_curves();
    const QByteArray svg = QByteArray::fromStdString(to_svg(plot));
    const SvgSummary s = summarise_svg(svg);
    QVERIFY(s.ok);
    QCOMPARE(s.width, QString("504pt"));
    QCOMPARE(s.height, QString("324pt"));
    QCOMPARE(s.view_box, QString("0 0 504 324"));
    QCOMPARE(s.texts, 0);
    QCOMPARE(s.symbols, 0);
    Glyphs glyphs;
    for (const auto& t : recorded(plot).texts) count_glyphs(t.text, glyphs);
    // One <use> per glyph; a space may or may not get one (it has no outline).
    QVERIFY2(s.uses >= glyphs.visible && s.uses <= glyphs.all && glyphs.visible > 60,
             qPrintable(QString("%1 <use> for %2 glyphs").arg(s.uses).arg(glyphs.visible)));
    QVERIFY(s.glyph_groups >= 25);  // distinct glyphs: letters, digits, α σ ε δ ≤
    QVERIFY2(svg.size() > 20'000, qPrintable(QString::number(svg.size())));

    Plot narrow = plot;
    narrow.width = 252;  // 3.5 in
    narrow.height = 216;
    const SvgSummary n = summarise_svg(QByteArray::fromStdString(to_svg(narrow)));
    QCOMPARE(n.width, QString("252pt"));
    QCOMPARE(n.view_box, QString("0 0 252 216"));
  }

  // One page whose MediaBox is the plot's size in points (7 in x 4.5 in = 504 x 324; 3.5 in wide
  // = 252), %PDF- at the start and %%EOF at the end.
  void pdf_is_one_page_of_the_stated_size() {
    const QByteArray pdf = QByteArray::fromStdString(to_pdf(two_curves()));
    QVERIFY(pdf.startsWith("%PDF-1."));
    QVERIFY(pdf.trimmed().endsWith("%%EOF"));
    QCOMPARE(pdf_pages(pdf), 1);
    const QList<double> box = media_box(pdf);
    QCOMPARE(box.size(), 4);
    QVERIFY(std::abs(box[0]) < 1e-6 && std::abs(box[1]) < 1e-6);
    QVERIFY2(std::abs(box[2] - 7 * 72) < 0.01 && std::abs(box[3] - 4.5 * 72) < 0.01,
             qPrintable(QString("%1 x %2").arg(box[2]).arg(box[3])));
    Plot narrow = two_curves();
    narrow.width = 3.5 * 72;
    narrow.height = 3 * 72;
    const QList<double> small = media_box(QByteArray::fromStdString(to_pdf(narrow)));
    QCOMPARE(small.size(), 4);
    QVERIFY(std::abs(small[2] - 252) < 0.01 && std::abs(small[3] - 216) < 0.01);
  }

  // The Greek letters are real text: the embedded font's ToUnicode map gives its glyphs U+03B1
  // α, U+03C3 σ, U+03B5 ε, U+03B4 δ (and ≤ U+2264), so a reader can search and copy them.
  void pdf_text_is_real_greek() {
    const std::set<unsigned> code_points =
        pdf_unicode(QByteArray::fromStdString(to_pdf(two_curves())));
    for (unsigned c : {0x03B1u, 0x03C3u, 0x03B5u, 0x03B4u, 0x2264u, unsigned('A'), unsigned('7')})
      QVERIFY2(code_points.count(c) == 1, qPrintable(QString("U+%1").arg(c, 4, 16, QChar('0'))));
  }

  // The same plot gives the same bytes however many figures were drawn before it (no creation
  // date, no process-wide counter in the file, no font option left behind by another format).
  void files_do_not_depend_on_what_was_drawn_before() {
    const Plot plot = two_curves();
    const std::string svg = to_svg(plot), pdf = to_pdf(plot), png = to_png(plot);
    Plot other = plot;
    other.title = "another figure";
    to_svg(other), to_pdf(other), to_png(other, 1);
    QVERIFY(to_svg(plot) == svg);
    QVERIFY(to_pdf(plot) == pdf);
    QVERIFY(to_png(plot) == png);
  }

  // 2 pixels per point, and a drawing in the plot box (62..334 x 40..278 pt), not a blank page:
  // at least 5% of its pixels drawn, in both curve colours.
  void png_is_the_stated_size_and_drawn() {
    const QByteArray png = QByteArray::fromStdString(to_png(two_curves()));
    const auto header = png_header_size(png);
    QVERIFY(header.has_value());
    QCOMPARE(header->first, 1008);
    QCOMPARE(header->second, 648);
    const PngImage image = decode_png(png);
    QCOMPARE(image.width, 1008);
    QCOMPARE(image.height, 648);
    std::set<std::uint32_t> colours;
    int drawn = 0, inside = 0;
    for (int y = 2 * 40; y < 2 * 278; ++y)
      for (int x = 2 * 62; x < 2 * 334; ++x, ++inside) {
        drawn += image.at(x, y) != kWhite;
        colours.insert(image.at(x, y));
      }
    QVERIFY2(drawn > inside / 20, qPrintable(QString("%1 of %2").arg(drawn).arg(inside)));
    QVERIFY(colours.size() > 20);
    QVERIFY(std::any_of(colours.begin(), colours.end(),
                        [](std::uint32_t c) { return close_colour(c, 0x1F77B4); }));
    QCOMPARE(png_header_size(QByteArray::fromStdString(to_png(two_curves(), 1)))->first, 504);
  }

  // Every format refuses a size it cannot draw, naming the format.
  void impossible_sizes_are_refused() {
    QVERIFY(
        error_of<InvalidArgument>([] { CairoCanvas(FileFormat::kSvg, 0, 10); }).contains("SVG"));
    QVERIFY(error_of<InvalidArgument>([] {
              CairoCanvas(FileFormat::kPdf, std::numeric_limits<double>::infinity(), 10);
            }).contains("PDF"));
    Plot bad = two_curves();
    bad.width = -1;
    QVERIFY(error_of<InvalidArgument>([&] { to_pdf(bad); }).contains("PDF"));
  }

  // The y axis covers the error bars too: every line stays inside the plot box, y in [40, 278]
  // points (height 324 - bottom margin 46).
  void ranges_cover_error_bars() {
    Plot plot;
    Series s;
    s.x = {0, 1};
    s.y = {0.5, 0.6};
    s.y_low = {0.1, 0.55};
    s.y_high = {0.52, 0.9};
    plot.series = {s};
    int checked = 0;
    for (const auto& line : recorded(plot).lines)
      for (const Point& p : line.points) {
        QVERIFY2(p.y >= 40 - 1e-9 && p.y <= 278 + 1e-9, qPrintable(QString::number(p.y)));
        ++checked;
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
    QStringList labels;
    for (const auto& t : recorded(flat).texts)
      if (t.anchor == Anchor::kEnd) labels << QString::fromStdString(t.text);
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

  // At 3.5 in wide the plot box keeps most of the page (the legend moves under the x label), the
  // legend and the x tick labels do not overlap (widths 10% above text_width, as DejaVu Sans's
  // digits run), and no horizontal text runs off the page (text_width: DejaVu Sans's lower-case
  // text is narrower than that). A 7 in plot keeps its legend on the right.
  void narrow_plots_stay_readable() {
    Plot plot = two_curves();
    plot.title = "Appendix Figure 6: LT vs MA as the number of candidates grows";
    plot.width = 252;
    plot.height = 216;
    const Recorder r = recorded(plot);
    const auto box = std::find_if(r.rects.begin(), r.rects.end(),
                                  [](const Recorder::Box& b) { return b.fill.empty(); });
    QVERIFY(box != r.rects.end());
    QVERIFY2(box->w >= 0.6 * 252, qPrintable(QString("plot box %1 pt wide").arg(box->w)));
    auto width = [](const Recorder::Text& t) { return 1.1 * text_width(t.text, t.size); };
    std::vector<Recorder::Text> ticks, legend;
    for (const auto& t : r.texts) {
      if (t.vertical) continue;
      const double w = text_width(t.text, t.size);
      const double left = t.anchor == Anchor::kStart    ? t.x
                          : t.anchor == Anchor::kMiddle ? t.x - w / 2
                                                        : t.x - w;
      QVERIFY2(left >= 0 && left + w <= 252, t.text.c_str());
      if (t.text == "dpsgd" || t.text == "dpadam") legend.push_back(t);
      if (t.anchor == Anchor::kMiddle && std::abs(t.y - (box->y + box->h + 12)) < 1e-9)
        ticks.push_back(t);
    }
    QCOMPARE(static_cast<int>(legend.size()), 2);
    for (const auto& t : legend) QVERIFY(t.y > box->y + box->h + 20);  // under the x label
    QVERIFY(legend[0].y != legend[1].y || std::abs(legend[0].x - legend[1].x) > width(legend[0]));
    QVERIFY(ticks.size() >= 2);
    for (std::size_t i = 1; i < ticks.size(); ++i)
      QVERIFY2(ticks[i].x - ticks[i - 1].x > (width(ticks[i]) + width(ticks[i - 1])) / 2 + 4,
               ticks[i].text.c_str());

    for (const auto& t : recorded(two_curves()).texts)
      if (t.text == "dpsgd") QVERIFY(t.x > 504 - 170);  // 7 in: the legend on the right
  }

  // Long legend labels never leave the page: on the right the margin grows to hold them, and
  // when that would squeeze the plot box under 60 % of the width they go below, in columns as
  // wide as the widest entry (a tuning-audit figure's labels ran off a 7 in page).
  void long_legend_labels_stay_on_the_page() {
    for (const double page : {504.0, 360.0, 252.0}) {
      Plot plot = two_curves();
      plot.width = page;
      plot.series[0].label = "procedure's epsilon (upper bound)";
      plot.series[1].label = "audited lower bound (f-DP, Gaussian-shape hypothesis)";
      const Recorder r = recorded(plot);
      const auto box = std::find_if(r.rects.begin(), r.rects.end(),
                                    [](const Recorder::Box& b) { return b.fill.empty(); });
      QVERIFY(box != r.rects.end());
      QVERIFY2(box->w >= 0.55 * page,
               qPrintable(QString("plot box %1 pt of %2").arg(box->w).arg(page)));
      std::vector<Recorder::Text> legend;
      // The legend entries: the labels, whole or shortened with "…" when even 7 pt is too wide.
      for (const auto& t : r.texts)
        if (t.text.rfind("procedure's", 0) == 0 || t.text.rfind("audited", 0) == 0)
          legend.push_back(t);
      QCOMPARE(static_cast<int>(legend.size()), 2);
      for (const auto& t : legend) {
        const double right = t.x + 1.1 * text_width(t.text, t.size);
        QVERIFY2(
            right <= page,
            qPrintable(QString("%1 ends at %2 of %3").arg(t.text.c_str()).arg(right).arg(page)));
      }
      // Two entries never overlap: another row, or a column further than the first's width.
      QVERIFY(legend[0].y != legend[1].y || std::abs(legend[1].x - legend[0].x) >
                                                1.1 * text_width(legend[0].text, legend[0].size));
    }
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
    const Recorder r = recorded(plot);
    // 6 cells + box + 50 colour-bar steps + colour-bar frame.
    QCOMPARE(static_cast<int>(r.rects.size()), 6 + 1 + 50 + 1);
    QCOMPARE(std::count_if(r.rects.begin(), r.rects.end(),
                           [](const Recorder::Box& b) { return b.fill == "#bdbdbd"; }),
             1);  // the NaN cell
    QCOMPARE(r.circles, 1);
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

  // A size in points that is not a whole number of pixels rounds up.
  void png_size_rounds_up_to_whole_pixels() {
    CairoCanvas odd(FileFormat::kPng, 100.25, 50);
    QCOMPARE(odd.pixel_width(), 201);
    const PngImage image = decoded(odd);
    QCOMPARE(image.width, 201);
    QCOMPARE(image.height, 100);
  }

  // Every pixel inside the rectangle has the fill colour, every pixel outside stays white.
  void png_rect_fills_exactly_its_pixels() {
    CairoCanvas canvas(FileFormat::kPng, 100, 100);
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
    CairoCanvas framed(FileFormat::kPng, 100, 100);
    framed.rect(10, 10, 50, 50, "", "#000000", 1);
    const PngImage frame = decoded(framed);
    QCOMPARE(frame.at(19, 60), 0u);
    QCOMPARE(frame.at(20, 60), 0u);
    QCOMPARE(frame.at(18, 60), kWhite);
    QCOMPARE(frame.at(60, 60), kWhite);
  }

  // A 2 pt diagonal: pixels on it are black, pixels more than 2 pt away are white.
  void png_polyline_crosses_its_pixels() {
    CairoCanvas canvas(FileFormat::kPng, 100, 100);
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
    CairoCanvas dashed(FileFormat::kPng, 100, 100);
    dashed.polyline({{10, 50}, {90, 50}}, "#ff0000", 2, 4);
    const PngImage d = decoded(dashed);
    QCOMPARE(d.at(24, 100), 0xFF0000u);
    QCOMPARE(d.at(32, 100), kWhite);
    QCOMPARE(d.at(40, 100), 0xFF0000u);
    QCOMPARE(d.at(48, 100), kWhite);
    QCOMPARE(d.at(24, 110), kWhite);  // 5 pt below the line
  }

  void png_circle_fills_its_disc() {
    CairoCanvas canvas(FileFormat::kPng, 100, 100);
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
    CairoCanvas canvas(FileFormat::kPng, 200, 100);
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

    CairoCanvas ends(FileFormat::kPng, 200, 100);
    ends.text(180, 60, "Accuracy", 12, Anchor::kEnd);
    const DarkPixels e = dark_pixels(decoded(ends));
    QVERIFY2(e.x1 <= 2 * 180 && e.x1 >= 2 * (180 - 3), qPrintable(QString::number(e.x1)));
    CairoCanvas middle(FileFormat::kPng, 200, 100);
    middle.text(100, 60, "Accuracy", 12, Anchor::kMiddle);
    const DarkPixels m = dark_pixels(decoded(middle));
    QVERIFY2(std::abs((m.x0 + m.x1) / 2.0 - 200) <= 6, qPrintable(QString::number(m.x0)));

    CairoCanvas vertical(FileFormat::kPng, 100, 200);
    vertical.text(30, 100, "Accuracy", 12, Anchor::kMiddle, "#000000", true);
    const DarkPixels v = dark_pixels(decoded(vertical));
    QVERIFY(v.y1 - v.y0 > 2 * (v.x1 - v.x0));
    QVERIFY2(v.x0 >= 2 * (30 - 12) && v.x1 <= 2 * (30 + 4), qPrintable(QString::number(v.x0)));
    QVERIFY(std::abs((v.y0 + v.y1) / 2.0 - 200) <= 6);

    CairoCanvas red(FileFormat::kPng, 200, 100);
    red.text(20, 60, "W", 20, Anchor::kStart, "#cc0000");
    const PngImage r = decoded(red);
    std::uint32_t darkest = kWhite;
    for (std::uint32_t c : r.rgb)
      if ((c & 255) < (darkest & 255)) darkest = c;
    QVERIFY(close_colour(darkest, 0xCC0000, 3));
  }

  // Malformed UTF-8 becomes '?' instead of breaking Cairo's context for everything after it.
  void png_survives_malformed_text() {
    CairoCanvas canvas(FileFormat::kPng, 100, 100);
    canvas.text(10, 20, std::string("bad \xff\xfe \xed\xa0\x80 text"), 10, Anchor::kStart);
    canvas.rect(50, 50, 10, 10, "#000000");
    const PngImage image = decoded(canvas);
    QCOMPARE(image.at(110, 110), 0u);
    QVERIFY(dark_pixels(image).y0 < 2 * 20);  // the text was drawn
  }

  void png_refuses_impossible_sizes() {
    QVERIFY(
        error_of<InvalidArgument>([] { CairoCanvas(FileFormat::kPng, 0, 10); }).contains("PNG"));
    QVERIFY(error_of<InvalidArgument>([] {
              CairoCanvas(FileFormat::kPng, std::numeric_limits<double>::quiet_NaN(), 10);
            }).contains("PNG"));
    QVERIFY(error_of<InvalidArgument>([] {
              CairoCanvas(FileFormat::kPng, 20000, 10);
            }).contains("32,767"));
  }

  // The PNG draws the layout: the middle of the first curve's first segment (as laid out) is
  // that curve's colour; the title and the rotated y label are dark.
  void png_draws_the_layout() {
    const Plot plot = two_curves();
    Point mid;
    bool found = false;
    for (const auto& line : recorded(plot).lines) {
      if (line.color != "#1f77b4" || line.points.size() != 3) continue;  // not the legend swatch
      mid = {(line.points[0].x + line.points[1].x) / 2, (line.points[0].y + line.points[1].y) / 2};
      found = true;
      break;
    }
    QVERIFY(found);
    const PngImage image = decode_png(QByteArray::fromStdString(to_png(plot)));
    const int px = static_cast<int>(mid.x * 2), py = static_cast<int>(mid.y * 2);
    QVERIFY2(close_colour(image.at(px, py), 0x1F77B4),
             qPrintable(QString::number(image.at(px, py), 16)));
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
