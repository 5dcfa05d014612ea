// SvgCanvas: a Canvas that writes an SVG 1.1 document (width and height in points).
#pragma once

#include <sstream>
#include <string>

#include "figures/canvas.h"

namespace dplab::figures {

class SvgCanvas : public Canvas {
 public:
  SvgCanvas(double width, double height);
  void polyline(const std::vector<Point>& points, const std::string& color, double width,
                double dash = 0) override;
  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& stroke = "", double stroke_width = 0) override;
  void circle(double cx, double cy, double r, const std::string& fill,
              const std::string& stroke = "", double stroke_width = 0) override;
  void text(double x, double y, const std::string& text, double size, Anchor anchor,
            const std::string& color = "#000000", bool vertical = false) override;
  // The complete document.
  std::string finish() const;

 private:
  double width_, height_;
  std::ostringstream body_;
};

// XML-escaped text (& < > " ').
std::string xml_escape(const std::string& text);

}  // namespace dplab::figures
