// SVG output of a Canvas (see svg_canvas.h).
#include "figures/svg_canvas.h"

#include <cstdio>

namespace dplab::figures {
namespace {

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", v);
  return buffer;
}

const char* anchor_name(Anchor a) {
  switch (a) {
    case Anchor::kStart:
      return "start";
    case Anchor::kMiddle:
      return "middle";
    case Anchor::kEnd:
      return "end";
  }
  return "start";
}

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

SvgCanvas::SvgCanvas(double width, double height) : width_(width), height_(height) {}

void SvgCanvas::polyline(const std::vector<Point>& points, const std::string& color, double width,
                         double dash) {
  if (points.size() < 2) return;
  body_ << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"" << num(width)
        << "\" stroke-linejoin=\"round\"";
  if (dash > 0) body_ << " stroke-dasharray=\"" << num(dash) << "\"";
  body_ << " points=\"";
  for (const auto& p : points) body_ << num(p.x) << "," << num(p.y) << " ";
  body_ << "\"/>\n";
}

void SvgCanvas::rect(double x, double y, double w, double h, const std::string& fill,
                     const std::string& stroke, double stroke_width) {
  body_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w)
        << "\" height=\"" << num(h) << "\" fill=\"" << (fill.empty() ? "none" : fill) << "\"";
  if (!stroke.empty())
    body_ << " stroke=\"" << stroke << "\" stroke-width=\"" << num(stroke_width) << "\"";
  body_ << "/>\n";
}

void SvgCanvas::circle(double cx, double cy, double r, const std::string& fill,
                       const std::string& stroke, double stroke_width) {
  body_ << "<circle cx=\"" << num(cx) << "\" cy=\"" << num(cy) << "\" r=\"" << num(r)
        << "\" fill=\"" << (fill.empty() ? "none" : fill) << "\"";
  if (!stroke.empty())
    body_ << " stroke=\"" << stroke << "\" stroke-width=\"" << num(stroke_width) << "\"";
  body_ << "/>\n";
}

void SvgCanvas::text(double x, double y, const std::string& text, double size, Anchor anchor,
                     const std::string& color, bool vertical) {
  body_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << num(size)
        << "\" text-anchor=\"" << anchor_name(anchor) << "\" fill=\"" << color << "\"";
  if (vertical) body_ << " transform=\"rotate(-90 " << num(x) << " " << num(y) << ")\"";
  body_ << ">" << xml_escape(text) << "</text>\n";
}

std::string SvgCanvas::finish() const {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << num(width_)
      << "pt\" height=\"" << num(height_) << "pt\" viewBox=\"0 0 " << num(width_) << " "
      << num(height_) << "\" font-family=\"Helvetica, Arial, sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      << body_.str() << "</svg>\n";
  return out.str();
}

}  // namespace dplab::figures
