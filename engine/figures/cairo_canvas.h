// CairoCanvas: the one Canvas that writes figure files. Every primitive is drawn by Cairo (Debian
// libcairo2) onto a cairo_t in points; only the surface behind it differs by format:
//   - PNG: an RGB image of `scale` pixels per point (default 2: 144 dpi, crisp on high-density
//     screens), so a 504 x 324 pt figure is 1008 x 648 pixels, encoded as PNG;
//   - SVG: an SVG 1.1 document of width x height pt (viewBox in points), text as glyph outlines,
//     so it looks the same in every viewer whatever fonts it has;
//   - PDF: a one-page PDF of width x height pt (MediaBox), the glyphs of the fonts used embedded
//     as subsets with a ToUnicode map, so Greek letters (α, σ, ε, δ) are real text that can be
//     searched and copied.
// Text is fontconfig's "sans-serif" (DejaVu Sans on Debian), measured with the font, so anchors
// are exact in all three formats (unlike the layout estimate text_width); vertical text is
// rotated. Lines are anti-aliased with round joins and butt caps. Cairo stays out of this header.
// Not thread-safe: one canvas per thread (separate canvases may draw concurrently).
#pragma once

#include <memory>
#include <string>

#include "figures/canvas.h"

namespace dplab::figures {

enum class FileFormat { kSvg, kPdf, kPng };

class CairoCanvas : public Canvas {
 public:
  // `scale` (pixels per point) matters for PNG only. Throws InvalidArgument when the size is not
  // finite and positive, or a PNG would exceed Cairo's 32,767 pixels per side; Error when Cairo
  // cannot create the surface.
  CairoCanvas(FileFormat format, double width, double height, double scale = 2);
  ~CairoCanvas() override;
  CairoCanvas(const CairoCanvas&) = delete;
  CairoCanvas& operator=(const CairoCanvas&) = delete;

  void polyline(const std::vector<Point>& points, const std::string& color, double width,
                double dash = 0) override;
  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& stroke = "", double stroke_width = 0) override;
  void circle(double cx, double cy, double r, const std::string& fill,
              const std::string& stroke = "", double stroke_width = 0) override;
  void text(double x, double y, const std::string& text, double size, Anchor anchor,
            const std::string& color = "#000000", bool vertical = false) override;
  // The file's bytes. Ends the drawing: later primitives are ignored and later calls return the
  // same bytes. Throws Error with Cairo's reason when drawing or encoding failed.
  std::string finish();
  // The PNG's size (for SVG and PDF: the size a PNG at `scale` would have).
  int pixel_width() const { return pixel_width_; }
  int pixel_height() const { return pixel_height_; }

 private:
  struct Cairo;  // the surface, its drawing context and the bytes written so far
  std::unique_ptr<Cairo> cairo_;
  int pixel_width_ = 0, pixel_height_ = 0;
};

}  // namespace dplab::figures
