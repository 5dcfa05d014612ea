// Canvas: the drawing primitives a figure needs, in points (1/72 inch) with the origin at the
// top-left and y growing downwards. A figure is laid out once (plot.h) and drawn onto a canvas;
// its SVG, PDF and PNG files are all drawn by the one CairoCanvas (cairo_canvas.h), so they show
// the same picture. Colours are "#rrggbb". Text is sans serif; text_width estimates its width.
#pragma once

#include <string>
#include <vector>

namespace dplab::figures {

struct Point {
  double x = 0, y = 0;
};

enum class Anchor { kStart, kMiddle, kEnd };

class Canvas {
 public:
  virtual ~Canvas() = default;
  // An open polyline; dash = 0 draws it solid, else dash length (gap the same).
  virtual void polyline(const std::vector<Point>& points, const std::string& color, double width,
                        double dash = 0) = 0;
  virtual void rect(double x, double y, double w, double h, const std::string& fill,
                    const std::string& stroke = "", double stroke_width = 0) = 0;
  virtual void circle(double cx, double cy, double r, const std::string& fill,
                      const std::string& stroke = "", double stroke_width = 0) = 0;
  // Baseline at y; rotated by -90 degrees (reading upwards) when `vertical`.
  virtual void text(double x, double y, const std::string& text, double size, Anchor anchor,
                    const std::string& color = "#000000", bool vertical = false) = 0;
};

// Width of `text` at font size `size` in points (Helvetica's average advance, 0.55 em; close
// enough for laying out labels, never used for measurements).
double text_width(const std::string& text, double size);

// A colour's channels in [0, 1].
struct Rgb {
  double r = 0, g = 0, b = 0;
};
// "#rrggbb" -> its channels; anything else is black.
Rgb parse_color(const std::string& color);

}  // namespace dplab::figures
