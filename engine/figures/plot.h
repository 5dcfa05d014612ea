// Plot: a small description of a 2-D chart (curves, points with error bars, or a heatmap) laid
// out once and drawn onto a Canvas, so `dplab-cli reproduce` writes each paper figure as SVG, PDF
// and PNG through one drawing path (Cairo, cairo_canvas.h) without Qt. Axes: linear or log10; a
// categorical x axis (strip plots) when x_tick_labels is set (x = 0, 1, ...). The legend sits
// outside the plot, on the right, or under the x label when the plot is narrower than 400 pt (a
// 3.5 in column); there the title starts at the page's edge and shrinks to fit. The axis ranges
// cover everything drawn.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "figures/cairo_canvas.h"
#include "figures/canvas.h"

namespace dplab::figures {

struct Series {
  std::string label;  // legend entry; empty = not in the legend
  std::vector<double> x, y;
  std::string color = "#1f77b4";
  bool line = true;   // connect the points in order
  double marker = 0;  // circle radius in points, 0 = none
  double dash = 0;    // dashed line when > 0
  double line_width = 1.5;
  // Optional vertical error bars (same length as y): drawn from y_low to y_high.
  std::vector<double> y_low, y_high;
};

// Cells of a grid: column i = x_values[i], row j = y_values[j] (both shown as categories,
// labelled with their values); z[j * x_values.size() + i], NaN = no value (drawn grey).
// Colours: viridis over [min z, max z].
struct Heatmap {
  std::vector<double> x_values, y_values;
  std::vector<double> z;
  std::string value_label;  // the colour bar's title
  // Cells drawn with a ring (e.g. the best ones).
  std::vector<std::size_t> marked_cells;
};

struct Plot {
  std::string title;
  std::string subtitle;  // one line under the title (data set, scale)
  std::string x_label, y_label;
  bool log_x = false, log_y = false;
  std::vector<std::string> x_tick_labels;  // categorical x axis
  std::vector<Series> series;
  std::optional<Heatmap> heatmap;    // drawn instead of the series' axes when set
  double width = 504, height = 324;  // points: 7 in x 4.5 in
};

// Lays out and draws the plot. Throws InvalidArgument for a series whose x and y (or error
// bars) differ in length, or a heatmap whose z does not match its grid.
void draw(const Plot& plot, Canvas& canvas);
// The plot's file in `format`: draw() onto a CairoCanvas of the plot's size. `scale` is the PNG's
// pixels per point (2: 144 dpi, a 504 x 324 pt plot is 1008 x 648 pixels). Also throws what
// CairoCanvas throws (a size Cairo cannot draw, a drawing or encoding failure).
std::string to_file(const Plot& plot, FileFormat format, double scale = 2);
std::string to_svg(const Plot& plot);
std::string to_pdf(const Plot& plot);
std::string to_png(const Plot& plot, double scale = 2);

// The colour of t in [0, 1] on the viridis map ("#rrggbb"; t outside is clamped).
std::string viridis(double t);
// A qualitative palette (Tableau 10), cycled.
std::string palette(std::size_t index);

}  // namespace dplab::figures
