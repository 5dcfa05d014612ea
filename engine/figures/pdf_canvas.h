// PdfCanvas: a Canvas that writes a one-page PDF 1.4 document (page size in points), vector
// drawing with the standard Helvetica font (not embedded; every PDF reader has it). Text is
// WinAnsi: Greek letters and symbols outside it are spelled out ("alpha", "<=").
#pragma once

#include <sstream>
#include <string>

#include "figures/canvas.h"

namespace dplab::figures {

class PdfCanvas : public Canvas {
 public:
  PdfCanvas(double width, double height);
  void polyline(const std::vector<Point>& points, const std::string& color, double width,
                double dash = 0) override;
  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& stroke = "", double stroke_width = 0) override;
  void circle(double cx, double cy, double r, const std::string& fill,
              const std::string& stroke = "", double stroke_width = 0) override;
  void text(double x, double y, const std::string& text, double size, Anchor anchor,
            const std::string& color = "#000000", bool vertical = false) override;
  // The complete file (binary-safe string).
  std::string finish() const;

 private:
  double width_, height_;
  std::ostringstream content_;
};

// UTF-8 text as a PDF string literal body in WinAnsi: ( ) \ escaped, known non-Latin-1
// characters spelled out, any other non-ASCII character as '?'.
std::string pdf_text(const std::string& utf8);

}  // namespace dplab::figures
