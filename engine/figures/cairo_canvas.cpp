// Figure files through Cairo (see cairo_canvas.h). Drawing happens in points: a PNG's context is
// scaled by `scale` once, the SVG and PDF surfaces are in points already, so every primitive takes
// the same coordinates and goes through the same calls whatever the format.
#include "figures/cairo_canvas.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>

#include <cmath>
#include <numbers>
#include <utility>

#include "core/error.h"

namespace dplab::figures {
namespace {

// Cairo's text functions put the context into a permanent error state on malformed UTF-8, so
// every byte that does not belong to a well-formed sequence (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF) becomes '?'.
std::string well_formed_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t length = c < 0x80         ? 1
                         : (c >> 5) == 6  ? 2
                         : (c >> 4) == 14 ? 3
                         : (c >> 3) == 30 ? 4
                                          : 0;
    char32_t code = length == 1 ? c : length == 2 ? c & 0x1F : length == 3 ? c & 0x0F : c & 0x07;
    bool ok = length > 0 && i + length <= text.size();
    for (std::size_t k = 1; ok && k < length; ++k) {
      const unsigned char next = static_cast<unsigned char>(text[i + k]);
      ok = (next & 0xC0) == 0x80;
      code = (code << 6) | (next & 0x3F);
    }
    static constexpr char32_t kSmallest[5] = {0, 0, 0x80, 0x800, 0x10000};
    ok = ok && code >= kSmallest[length] && code <= 0x10FFFF && (code < 0xD800 || code > 0xDFFF);
    if (ok) {
      out.append(text, i, length);
      i += length;
    } else {
      out += '?';
      ++i;
    }
  }
  return out;
}

void set_color(cairo_t* cr, const std::string& color) {
  const Rgb c = parse_color(color);
  cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

// Cairo's write callback: appends to a std::string (no exception may cross Cairo's C frames).
cairo_status_t append_to_string(void* closure, const unsigned char* data, unsigned int length) {
  try {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
  } catch (...) {
    return CAIRO_STATUS_NO_MEMORY;
  }
}

const char* format_name(FileFormat format) {
  switch (format) {
    case FileFormat::kSvg:
      return "SVG";
    case FileFormat::kPdf:
      return "PDF";
    case FileFormat::kPng:
      return "PNG";
  }
  return "PNG";
}

// Fills the current path with `fill` and strokes it with `stroke` (each skipped when empty).
void paint_path(cairo_t* cr, const std::string& fill, const std::string& stroke,
                double stroke_width) {
  if (!fill.empty()) {
    set_color(cr, fill);
    if (stroke.empty()) {
      cairo_fill(cr);
      return;
    }
    cairo_fill_preserve(cr);
  }
  if (!stroke.empty()) {
    set_color(cr, stroke);
    cairo_set_line_width(cr, stroke_width);
    cairo_set_dash(cr, nullptr, 0, 0);
    cairo_stroke(cr);
  }
  cairo_new_path(cr);
}

// Cairo's SVG made readable by every SVG reader and the same whatever was drawn before it:
//   - each glyph outline is a <symbol> (no viewBox, overflow visible) that <use> places. Such a
//     symbol draws exactly as a <g> would (SVG 1.1, section 5.6 and 5.5), but SVG Tiny readers
//     (Qt before 6.7, ImageMagick's own renderer) skip <symbol> and would lose all text;
//   - the drawing's group is named after a process-wide surface counter ("surface201"): the
//     same figure would differ by which figures were drawn before it. Nothing refers to the name
//     (Cairo refers to surfaces only when one is painted onto another, which never happens here;
//     checked: kept when a reference exists).
std::string portable_svg(std::string svg) {
  auto replace_all = [&](const std::string& from, const std::string& to) {
    for (std::size_t at = svg.find(from); at != std::string::npos; at = svg.find(from, at))
      svg.replace(at, from.size(), to), at += to.size();
  };
  replace_all("<symbol overflow=\"visible\" id=\"glyph", "<g id=\"glyph");
  replace_all("</symbol>", "</g>");
  if (svg.find("\"#surface") == std::string::npos) {
    const std::string name = "<g id=\"surface";
    if (const std::size_t at = svg.find(name); at != std::string::npos) {
      const std::size_t end = svg.find('"', at + name.size());
      if (end != std::string::npos) svg.erase(at + 2, end + 1 - (at + 2));  // keeps "<g"
    }
  }
  return svg;
}

}  // namespace

struct CairoCanvas::Cairo {
  FileFormat format = FileFormat::kPng;
  cairo_surface_t* surface = nullptr;
  cairo_t* cr = nullptr;
  std::string bytes;  // what the SVG or PDF surface has written; the file once finished
  bool finished = false;
  ~Cairo() {
    if (cr) cairo_destroy(cr);
    if (surface) cairo_surface_destroy(surface);
  }
};

CairoCanvas::CairoCanvas(FileFormat format, double width, double height, double scale)
    : cairo_(new Cairo) {
  cairo_->format = format;
  const char* name = format_name(format);
  constexpr double kMaxPixels = 32767;  // Cairo's limit per side of an image surface
  const double w = width * scale, h = height * scale;
  if (!(std::isfinite(width) && std::isfinite(height) && width > 0 && height > 0 &&
        std::isfinite(scale) && scale > 0))
    throw InvalidArgument(std::string(name) + " figure: " + std::to_string(width) + " x " +
                          std::to_string(height) + " pt at " + std::to_string(scale) +
                          " pixels per point: all must be finite and positive");
  if (format == FileFormat::kPng && !(w >= 1 && h >= 1 && w <= kMaxPixels && h <= kMaxPixels))
    throw InvalidArgument("PNG figure: " + std::to_string(width) + " x " + std::to_string(height) +
                          " pt at " + std::to_string(scale) +
                          " pixels per point must give 1 to 32,767 pixels per side");
  pixel_width_ = static_cast<int>(std::min(std::ceil(w - 1e-9), 1e9));
  pixel_height_ = static_cast<int>(std::min(std::ceil(h - 1e-9), 1e9));
  switch (format) {
    case FileFormat::kPng:
      cairo_->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pixel_width_, pixel_height_);
      break;
    case FileFormat::kSvg:
      cairo_->surface =
          cairo_svg_surface_create_for_stream(append_to_string, &cairo_->bytes, width, height);
      cairo_svg_surface_restrict_to_version(cairo_->surface, CAIRO_SVG_VERSION_1_1);
      cairo_svg_surface_set_document_unit(cairo_->surface, CAIRO_SVG_UNIT_PT);
      break;
    case FileFormat::kPdf:
      cairo_->surface =
          cairo_pdf_surface_create_for_stream(append_to_string, &cairo_->bytes, width, height);
      // No creation date: the same figure gives the same file whenever it is drawn.
      cairo_pdf_surface_set_metadata(cairo_->surface, CAIRO_PDF_METADATA_CREATE_DATE, nullptr);
      break;
  }
  cairo_->cr = cairo_create(cairo_->surface);
  if (cairo_status(cairo_->cr) != CAIRO_STATUS_SUCCESS)
    throw Error(std::string(name) + " figure: cannot create the surface: " +
                cairo_status_to_string(cairo_status(cairo_->cr)));
  cairo_t* cr = cairo_->cr;
  cairo_set_source_rgb(cr, 1, 1, 1);  // a white page, not a transparent one
  cairo_paint(cr);
  if (format == FileFormat::kPng) cairo_scale(cr, scale, scale);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  // Grey anti-aliasing, unhinted outlines and metrics: glyphs keep their true shape (an SVG or
  // PDF is scaled by its reader) and the same text is the same width in every format. One set of
  // options for every format on purpose: Cairo resolves "sans-serif" once per process with the
  // options of its first use, so options that differed by format would make a PNG depend on
  // whether an SVG was drawn before it.
  cairo_font_options_t* options = cairo_font_options_create();
  cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
  cairo_set_font_options(cr, options);
  cairo_font_options_destroy(options);
}

CairoCanvas::~CairoCanvas() = default;

void CairoCanvas::polyline(const std::vector<Point>& points, const std::string& color, double width,
                           double dash) {
  if (points.size() < 2) return;
  cairo_t* cr = cairo_->cr;
  cairo_move_to(cr, points[0].x, points[0].y);
  for (std::size_t i = 1; i < points.size(); ++i) cairo_line_to(cr, points[i].x, points[i].y);
  set_color(cr, color);
  cairo_set_line_width(cr, width);
  cairo_set_dash(cr, &dash, dash > 0 ? 1 : 0, 0);  // one length: dash and gap alike (as SVG)
  cairo_stroke(cr);
}

void CairoCanvas::rect(double x, double y, double w, double h, const std::string& fill,
                       const std::string& stroke, double stroke_width) {
  if (fill.empty() && stroke.empty()) return;
  cairo_rectangle(cairo_->cr, x, y, w, h);
  paint_path(cairo_->cr, fill, stroke, stroke_width);
}

void CairoCanvas::circle(double cx, double cy, double r, const std::string& fill,
                         const std::string& stroke, double stroke_width) {
  if (fill.empty() && stroke.empty()) return;
  cairo_new_sub_path(cairo_->cr);
  cairo_arc(cairo_->cr, cx, cy, r, 0, 2 * std::numbers::pi);
  paint_path(cairo_->cr, fill, stroke, stroke_width);
}

void CairoCanvas::text(double x, double y, const std::string& text, double size, Anchor anchor,
                       const std::string& color, bool vertical) {
  if (text.empty()) return;
  cairo_t* cr = cairo_->cr;
  const std::string utf8 = well_formed_utf8(text);
  cairo_set_font_size(cr, size);
  cairo_text_extents_t extents;
  cairo_text_extents(cr, utf8.c_str(), &extents);
  const double advance = extents.x_advance;
  const double shift = anchor == Anchor::kStart    ? 0
                       : anchor == Anchor::kMiddle ? advance / 2
                                                   : advance;
  cairo_save(cr);
  cairo_translate(cr, x, y);
  if (vertical) cairo_rotate(cr, -std::numbers::pi / 2);  // reads upwards, baseline along x = x
  cairo_move_to(cr, -shift, 0);
  set_color(cr, color);
  cairo_show_text(cr, utf8.c_str());
  cairo_new_path(cr);
  cairo_restore(cr);
}

std::string CairoCanvas::finish() {
  if (cairo_->finished) return cairo_->bytes;
  const char* name = format_name(cairo_->format);
  if (const cairo_status_t status = cairo_status(cairo_->cr); status != CAIRO_STATUS_SUCCESS)
    throw Error(std::string(name) + " figure: drawing failed: " + cairo_status_to_string(status));
  if (cairo_->format == FileFormat::kPng) {
    cairo_surface_flush(cairo_->surface);
    const cairo_status_t status =
        cairo_surface_write_to_png_stream(cairo_->surface, append_to_string, &cairo_->bytes);
    if (status != CAIRO_STATUS_SUCCESS)
      throw Error(std::string("PNG figure: encoding failed: ") + cairo_status_to_string(status));
  } else {
    // Finishing a vector surface writes the rest of the document (fonts, trailer) to the stream.
    cairo_surface_finish(cairo_->surface);
    if (const cairo_status_t status = cairo_surface_status(cairo_->surface);
        status != CAIRO_STATUS_SUCCESS)
      throw Error(std::string(name) + " figure: writing failed: " + cairo_status_to_string(status));
    if (cairo_->format == FileFormat::kSvg) cairo_->bytes = portable_svg(std::move(cairo_->bytes));
  }
  cairo_->finished = true;
  return cairo_->bytes;
}

}  // namespace dplab::figures
