// PngCanvas: a Canvas that rasterises with Cairo (Debian libcairo2) into an RGB image and encodes
// it as PNG. The image is `scale` pixels per point (default 2: 144 dpi, crisp on high-density
// screens), so a 504 x 324 pt figure is 1008 x 648 pixels. Lines and circles are anti-aliased;
// text is real glyphs of fontconfig's "sans-serif" (DejaVu Sans on Debian), measured with the
// font, so anchors are exact (unlike the layout estimate text_width); vertical text is rotated.
// Line joins are round and caps butt, as in the SVG and PDF output. Cairo stays out of this header.
#pragma once

#include <memory>
#include <string>

#include "figures/canvas.h"

namespace dplab::figures {

class PngCanvas : public Canvas {
 public:
  // Throws InvalidArgument when the size is not finite and positive or the image would exceed
  // Cairo's 32,767 pixels per side; Error when Cairo cannot allocate the image.
  PngCanvas(double width, double height, double scale = 2);
  ~PngCanvas() override;
  PngCanvas(const PngCanvas&) = delete;
  PngCanvas& operator=(const PngCanvas&) = delete;

  void polyline(const std::vector<Point>& points, const std::string& color, double width,
                double dash = 0) override;
  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& stroke = "", double stroke_width = 0) override;
  void circle(double cx, double cy, double r, const std::string& fill,
              const std::string& stroke = "", double stroke_width = 0) override;
  void text(double x, double y, const std::string& text, double size, Anchor anchor,
            const std::string& color = "#000000", bool vertical = false) override;
  // The PNG file's bytes (8-bit RGB). Throws Error with Cairo's reason when encoding fails.
  std::string finish() const;
  int pixel_width() const { return pixel_width_; }
  int pixel_height() const { return pixel_height_; }

 private:
  struct Cairo;  // the image surface and its drawing context
  std::unique_ptr<Cairo> cairo_;
  int pixel_width_ = 0, pixel_height_ = 0;
};

}  // namespace dplab::figures
