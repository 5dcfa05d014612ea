// Plot layout and drawing (see plot.h).
#include "figures/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/error.h"
#include "figures/cairo_canvas.h"

namespace dplab::figures {
namespace {

constexpr double kLeft = 62, kRight = 170, kTop = 40, kBottom = 46;
// Narrower than this (7 in is 504 pt), a legend on the right would leave the plot box too narrow
// to read: the legend goes under the x label, the right margin keeps only a heatmap's colour bar.
constexpr double kNarrow = 400, kNarrowRight = 14, kNarrowHeatmapRight = 80;
constexpr double kLegendRow = 12, kLegendColumn = 105;
constexpr double kTickFont = 8.5, kLabelFont = 10, kTitleFont = 11.5;
const char* const kAxisColor = "#333333";
const char* const kGridColor = "#e4e4e4";

std::string fmt(double v) {
  char buffer[32];
  if (v != 0 && (std::abs(v) < 1e-3 || std::abs(v) >= 1e5))
    std::snprintf(buffer, sizeof buffer, "%.0e", v);
  else
    std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

std::size_t legend_entries(const Plot& plot) {
  return static_cast<std::size_t>(std::count_if(plot.series.begin(), plot.series.end(),
                                                [](const Series& s) { return !s.label.empty(); }));
}

// Where things go, in points: the plot box [x0, x1] x [y0, y1], the legend (on the right, or in
// rows of `legend_columns` entries under the x label when the plot is narrow), the x label's
// baseline.
struct Frame {
  double x0 = kLeft, x1 = 0, y0 = kTop, y1 = 0;
  bool legend_below = false;
  std::size_t legend_columns = 1;
  double legend_column = kLegendColumn;  // width of one legend column below the plot
  double legend_top = 0, x_label_y = 0;
};

// The widest legend entry: swatch (24 pt) and label (DejaVu Sans runs about 10% wider than
// text_width's estimate).
double legend_entry_width(const Plot& plot) {
  double widest = 0;
  for (const auto& s : plot.series)
    if (!s.label.empty()) widest = std::max(widest, 24 + 1.1 * text_width(s.label, kTickFont));
  return widest;
}

Frame frame(const Plot& plot) {
  Frame f;
  // On the right the legend takes the margin it needs (at least kRight), unless that would leave
  // the plot box under 60 % of the figure: then it goes below, like a narrow figure's.
  const double legend_margin = 10 + legend_entry_width(plot) + 8;
  f.legend_below = plot.width < kNarrow || (!plot.heatmap && legend_margin > 0.4 * plot.width);
  const double right = !f.legend_below ? std::max(kRight, legend_margin)
                       : plot.heatmap  ? kNarrowHeatmapRight
                                       : kNarrowRight;
  f.x1 = plot.width - right;
  double legend_height = 0;
  if (f.legend_below && !plot.heatmap) {
    const std::size_t n = legend_entries(plot);
    f.legend_column = std::min(std::max(kLegendColumn, legend_entry_width(plot) + 8),
                               plot.width - 2 * kNarrowRight);
    f.legend_columns = std::max<std::size_t>(
        1, static_cast<std::size_t>((plot.width - 2 * kNarrowRight) / f.legend_column));
    const std::size_t rows = (n + f.legend_columns - 1) / f.legend_columns;
    legend_height = kLegendRow * static_cast<double>(rows) + (rows > 0 ? 4 : 0);
  }
  f.y1 = plot.height - kBottom - legend_height;
  f.x_label_y = plot.height - 10 - legend_height;
  f.legend_top = plot.height - legend_height;
  return f;
}

// A font size at most `size` at which `text` fits in `width` points (DejaVu Sans runs about 10%
// wider than text_width's estimate), but never below 7 pt: shrinking further would not be read.
double fitting_size(const std::string& text, double size, double width) {
  const double estimate = 1.1 * text_width(text, size);
  return estimate <= width ? size : std::max(7.0, size * width / estimate);
}

struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  double pixel_lo = 0, pixel_hi = 1;  // where lo and hi land
  double value(double v) const { return log ? std::log10(v) : v; }
  double map(double v) const {
    const double t = (value(v) - lo) / (hi - lo);
    return pixel_lo + t * (pixel_hi - pixel_lo);
  }
};

bool usable(double v, bool log) {
  return std::isfinite(v) && (!log || v > 0);
}

// Range of the transformed values, padded by 4%; a single value gets +-1 (or +-0.5 decade).
// Values closer together than 1e-5 of their size count as one value: fmt's 6 significant
// digits could not label ticks that close apart (they would all read the same).
void fit(Axis& axis, const std::vector<double>& values) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : values) {
    if (!usable(v, axis.log)) continue;
    lo = std::min(lo, axis.value(v));
    hi = std::max(hi, axis.value(v));
  }
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  if (hi - lo < 1e-12 || hi - lo < 1e-5 * std::max(std::abs(lo), std::abs(hi))) {
    const double pad = axis.log ? 0.5 : (lo == 0 ? 1 : std::abs(lo) * 0.05);
    lo -= pad;
    hi += pad;
  }
  const double pad = 0.04 * (hi - lo);
  axis.lo = lo - pad;
  axis.hi = hi + pad;
}

// Ticks in data units: powers of ten (log) or 1/2/5 x 10^k steps (linear), at most about
// `most` of them (linear).
std::vector<double> ticks(const Axis& axis, double most = 7) {
  std::vector<double> out;
  if (axis.log) {
    for (double e = std::ceil(axis.lo); e <= std::floor(axis.hi); ++e)
      out.push_back(std::pow(10, e));
    if (out.size() < 2) {
      const double e = std::floor(axis.lo);
      for (double m : {2.0, 5.0, 10.0, 20.0, 50.0}) {
        const double v = m * std::pow(10, e);
        if (std::log10(v) >= axis.lo && std::log10(v) <= axis.hi) out.push_back(v);
      }
    }
    return out;
  }
  const double span = axis.hi - axis.lo;
  const double raw = span / (most - 1);
  const double base = std::pow(10, std::floor(std::log10(raw)));
  double step = base;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * base;
    if (span / step <= most) break;
  }
  for (double v = std::ceil(axis.lo / step) * step; v <= axis.hi + 1e-9 * step; v += step)
    out.push_back(std::abs(v) < 1e-12 * step ? 0.0 : v);
  return out;
}

void check_series(const Series& s) {
  if (s.x.size() != s.y.size())
    throw InvalidArgument("plot series '" + s.label + "': " + std::to_string(s.x.size()) +
                          " x values for " + std::to_string(s.y.size()) + " y values");
  if ((!s.y_low.empty() || !s.y_high.empty()) &&
      (s.y_low.size() != s.y.size() || s.y_high.size() != s.y.size()))
    throw InvalidArgument("plot series '" + s.label + "': error bars must match y in length");
}

// Titles start over the plot box; on a narrow plot at the page's left edge, and they shrink to
// the page's width.
void draw_titles(const Plot& plot, Canvas& c) {
  const double x = plot.width < kNarrow ? 8 : kLeft, room = plot.width - x - 6;
  c.text(x, 16, plot.title, fitting_size(plot.title, kTitleFont, room), Anchor::kStart);
  if (!plot.subtitle.empty())
    c.text(x, 29, plot.subtitle, fitting_size(plot.subtitle, kTickFont, room), Anchor::kStart,
           "#555555");
}

// The rotated y label, left of the widest tick label when that is wide (its glyphs reach about
// 0.75 em left of the baseline and 0.25 em right of it), but never off the page.
void draw_y_label(const Plot& plot, const Frame& f, Canvas& c,
                  const std::vector<std::string>& tick_labels) {
  double widest = 0;
  for (const auto& label : tick_labels) widest = std::max(widest, text_width(label, kTickFont));
  // 1.15: DejaVu Sans's digits (0.636 em) are wider than text_width's Helvetica estimate.
  const double x =
      std::clamp(kLeft - 4 - 1.15 * widest - 0.25 * kLabelFont - 3, 0.75 * kLabelFont + 1, 16.0);
  // Rotated, the label runs along the plot's height: shrunk to fit it, so that in a short plot
  // (a 3.5 in column) it does not climb into the subtitle or below the x axis.
  c.text(x, (f.y0 + f.y1) / 2, plot.y_label,
         fitting_size(plot.y_label, kLabelFont, f.y1 - f.y0 + 8), Anchor::kMiddle, "#000000", true);
}

// `text` cut at a character boundary and ended with "…" so that it fits `width` points at
// `size` (itself when it fits).
std::string shortened(const std::string& text, double size, double width) {
  if (1.1 * text_width(text, size) <= width) return text;
  std::string cut = text;
  while (!cut.empty() && 1.1 * text_width(cut + "…", size) > width) {
    cut.pop_back();
    while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80) cut.pop_back();
    if (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0xC0) cut.pop_back();
  }
  return cut + "…";
}

// One entry: its line and marker swatch, then its label, in `width` points: a label too long
// shrinks (down to 7 pt) and is then shortened, so it never leaves the page.
void draw_legend_entry(const Series& s, Canvas& c, double x, double y, double width) {
  if (s.line) c.polyline({{x, y - 3}, {x + 18, y - 3}}, s.color, s.line_width, s.dash);
  if (s.marker > 0) c.circle(x + 9, y - 3, std::min(s.marker, 4.0), s.color);
  const double room = width - 24;
  const double size = fitting_size(s.label, kTickFont, room);
  c.text(x + 24, y, shortened(s.label, size, room), size, Anchor::kStart);
}

void draw_legend(const Plot& plot, const Frame& f, Canvas& c) {
  std::size_t k = 0;
  for (const auto& s : plot.series) {
    if (s.label.empty()) continue;
    if (f.legend_below)
      draw_legend_entry(s, c,
                        kNarrowRight + f.legend_column * static_cast<double>(k % f.legend_columns),
                        f.legend_top + 9 + kLegendRow * static_cast<double>(k / f.legend_columns),
                        f.legend_column - 4);
    else
      draw_legend_entry(s, c, f.x1 + 10, kTop + 8 + 13 * static_cast<double>(k),
                        plot.width - f.x1 - 14);
    ++k;
  }
}

void draw_heatmap(const Plot& plot, const Frame& f, Canvas& c) {
  const Heatmap& h = *plot.heatmap;
  const std::size_t nx = h.x_values.size(), ny = h.y_values.size();
  if (nx == 0 || ny == 0 || h.z.size() != nx * ny)
    throw InvalidArgument("heatmap: " + std::to_string(h.z.size()) + " values for a " +
                          std::to_string(nx) + " x " + std::to_string(ny) + " grid");
  const double x0 = f.x0, x1 = f.x1, y0 = f.y0, y1 = f.y1;
  const double cw = (x1 - x0) / static_cast<double>(nx), ch = (y1 - y0) / static_cast<double>(ny);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double z : h.z) {
    if (!std::isfinite(z)) continue;
    lo = std::min(lo, z);
    hi = std::max(hi, z);
  }
  auto colour = [&](double z) {
    if (!std::isfinite(z)) return std::string("#bdbdbd");
    return viridis(hi > lo ? (z - lo) / (hi - lo) : 0.5);
  };
  for (std::size_t j = 0; j < ny; ++j)
    for (std::size_t i = 0; i < nx; ++i)
      c.rect(x0 + i * cw, y1 - (j + 1) * ch, cw + 0.3, ch + 0.3, colour(h.z[j * nx + i]));
  for (std::size_t cell : h.marked_cells) {
    if (cell >= nx * ny) continue;
    const std::size_t i = cell % nx, j = cell / nx;
    c.circle(x0 + (i + 0.5) * cw, y1 - (j + 0.5) * ch, std::min(cw, ch) * 0.3, "", "#ff3030", 1.2);
  }
  c.rect(x0, y0, x1 - x0, y1 - y0, "", kAxisColor, 0.8);
  const std::size_t every_x = std::max<std::size_t>(1, nx / 10),
                    every_y = std::max<std::size_t>(1, ny / 12);
  for (std::size_t i = 0; i < nx; i += every_x)
    c.text(x0 + (i + 0.5) * cw, y1 + 12, fmt(h.x_values[i]), kTickFont, Anchor::kMiddle);
  std::vector<std::string> y_ticks;
  for (std::size_t j = 0; j < ny; j += every_y) {
    y_ticks.push_back(fmt(h.y_values[j]));
    c.text(x0 - 4, y1 - (j + 0.5) * ch + 3, y_ticks.back(), kTickFont, Anchor::kEnd);
  }
  draw_y_label(plot, f, c, y_ticks);
  // Colour bar.
  const double bx = x1 + 18, bw = 12;
  for (int k = 0; k < 50; ++k) {
    const double t0 = k / 50.0;
    c.rect(bx, y1 - (t0 + 0.02) * (y1 - y0), bw, (y1 - y0) / 50 + 0.3, viridis(t0));
  }
  c.rect(bx, y0, bw, y1 - y0, "", kAxisColor, 0.6);
  c.text(bx + bw + 4, y0 + 8, fmt(hi), kTickFont, Anchor::kStart);
  c.text(bx + bw + 4, y1, fmt(lo), kTickFont, Anchor::kStart);
  c.text(bx + bw + 4, (y0 + y1) / 2, h.value_label, kTickFont, Anchor::kStart);
}

}  // namespace

std::string viridis(double t) {
  // Nine stops of matplotlib's viridis, linearly interpolated.
  static const double stops[9][3] = {{68, 1, 84},    {71, 44, 122},  {59, 81, 139},
                                     {44, 113, 142}, {33, 144, 141}, {39, 173, 129},
                                     {92, 200, 99},  {170, 220, 50}, {253, 231, 37}};
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 8;
  const int k = std::min(7, static_cast<int>(t));
  const double f = t - k;
  char buffer[8];
  int rgb[3];
  for (int i = 0; i < 3; ++i)
    rgb[i] = static_cast<int>(std::lround(stops[k][i] + f * (stops[k + 1][i] - stops[k][i])));
  std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buffer;
}

std::string palette(std::size_t index) {
  static const char* const colors[10] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                         "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  return colors[index % 10];
}

void draw(const Plot& plot, Canvas& c) {
  for (const auto& s : plot.series) check_series(s);
  draw_titles(plot, c);
  const Frame f = frame(plot);
  const double x0 = f.x0, x1 = f.x1, y0 = f.y0, y1 = f.y1;
  c.text((x0 + x1) / 2, f.x_label_y, plot.x_label, kLabelFont, Anchor::kMiddle);
  if (plot.heatmap) {
    draw_heatmap(plot, f, c);
    return;
  }
  Axis ax, ay;
  ax.log = plot.log_x && plot.x_tick_labels.empty();
  ay.log = plot.log_y;
  std::vector<double> xs, ys;
  for (const auto& s : plot.series) {
    xs.insert(xs.end(), s.x.begin(), s.x.end());
    ys.insert(ys.end(), s.y.begin(), s.y.end());
    ys.insert(ys.end(), s.y_low.begin(), s.y_low.end());
    ys.insert(ys.end(), s.y_high.begin(), s.y_high.end());
  }
  if (!plot.x_tick_labels.empty())
    xs = {-0.5, static_cast<double>(plot.x_tick_labels.size()) - 0.5};
  fit(ax, xs);
  fit(ay, ys);
  if (!plot.x_tick_labels.empty()) ax.lo = -0.5, ax.hi = plot.x_tick_labels.size() - 0.5;
  ax.pixel_lo = x0, ax.pixel_hi = x1;
  ay.pixel_lo = y1, ay.pixel_hi = y0;
  // Grid and ticks.
  std::vector<std::string> y_ticks;
  for (double v : ticks(ay)) {
    const double y = ay.map(v);
    c.polyline({{x0, y}, {x1, y}}, kGridColor, 0.6);
    y_ticks.push_back(fmt(v));
    c.text(x0 - 4, y + 3, y_ticks.back(), kTickFont, Anchor::kEnd);
  }
  draw_y_label(plot, f, c, y_ticks);
  if (plot.x_tick_labels.empty()) {
    // About one tick per 36 pt of axis, so that labels such as "0.001" never touch (7 on a 7 in
    // plot).
    for (double v : ticks(ax, std::clamp(std::floor((x1 - x0) / 36), 2.0, 7.0))) {
      const double x = ax.map(v);
      c.polyline({{x, y0}, {x, y1}}, kGridColor, 0.6);
      c.text(x, y1 + 12, fmt(v), kTickFont, Anchor::kMiddle);
    }
  } else {
    for (std::size_t i = 0; i < plot.x_tick_labels.size(); ++i)
      c.text(ax.map(static_cast<double>(i)), y1 + 12, plot.x_tick_labels[i], kTickFont,
             Anchor::kMiddle);
  }
  c.rect(x0, y0, x1 - x0, y1 - y0, "", kAxisColor, 0.8);
  for (const auto& s : plot.series) {
    std::vector<Point> points;
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!usable(s.x[i], ax.log) || !usable(s.y[i], ay.log)) continue;
      points.push_back({ax.map(s.x[i]), ay.map(s.y[i])});
      if (!s.y_low.empty() && usable(s.y_low[i], ay.log) && usable(s.y_high[i], ay.log)) {
        const double x = ax.map(s.x[i]);
        c.polyline({{x, ay.map(s.y_low[i])}, {x, ay.map(s.y_high[i])}}, s.color, 1.0);
        c.polyline({{x - 3, ay.map(s.y_low[i])}, {x + 3, ay.map(s.y_low[i])}}, s.color, 1.0);
        c.polyline({{x - 3, ay.map(s.y_high[i])}, {x + 3, ay.map(s.y_high[i])}}, s.color, 1.0);
      }
    }
    if (s.line) c.polyline(points, s.color, s.line_width, s.dash);
    if (s.marker > 0)
      for (const auto& p : points) c.circle(p.x, p.y, s.marker, s.color, "#ffffff", 0.4);
  }
  draw_legend(plot, f, c);
}

std::string to_file(const Plot& plot, FileFormat format, double scale) {
  CairoCanvas canvas(format, plot.width, plot.height, scale);
  draw(plot, canvas);
  return canvas.finish();
}

std::string to_svg(const Plot& plot) {
  return to_file(plot, FileFormat::kSvg);
}

std::string to_pdf(const Plot& plot) {
  return to_file(plot, FileFormat::kPdf);
}

std::string to_png(const Plot& plot, double scale) {
  return to_file(plot, FileFormat::kPng, scale);
}

}  // namespace dplab::figures
