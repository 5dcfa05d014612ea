// PDF output of a Canvas (see pdf_canvas.h). Coordinates flip to PDF's bottom-left origin.
#include "figures/pdf_canvas.h"

#include <cstdio>
#include <vector>

namespace dplab::figures {
namespace {

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", v);
  return buffer;
}

// "#rrggbb" -> "r g b" in [0, 1].
std::string rgb(const std::string& color) {
  const Rgb c = parse_color(color);
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.3f %.3f %.3f", c.r, c.g, c.b);
  return buffer;
}

struct Spelled {
  const char* utf8;
  const char* text;
};
constexpr Spelled kSpelled[] = {
    {"\xCE\xB1", "alpha"}, {"\xCE\xB2", "beta"},  {"\xCE\xB3", "gamma"},  {"\xCE\xB4", "delta"},
    {"\xCE\xB5", "eps"},   {"\xCF\x83", "sigma"}, {"\xE2\x89\xA4", "<="}, {"\xE2\x89\xA5", ">="},
    {"\xC3\x97", "x"},     {"\xE2\x80\x93", "-"}, {"\xE2\x80\x94", "-"},  {"\xC2\xB1", "+/-"},
    {"\xE2\x82\x81", "1"}, {"\xE2\x82\x82", "2"}, {"\xE2\x80\xA6", "..."}};

}  // namespace

std::string pdf_text(const std::string& utf8) {
  std::string out;
  for (std::size_t i = 0; i < utf8.size();) {
    const unsigned char c = static_cast<unsigned char>(utf8[i]);
    if (c < 0x80) {
      if (c == '(' || c == ')' || c == '\\') out += '\\';
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    bool known = false;
    for (const auto& s : kSpelled) {
      const std::string key = s.utf8;
      if (utf8.compare(i, key.size(), key) == 0) {
        out += s.text;
        i += key.size();
        known = true;
        break;
      }
    }
    if (known) continue;
    out += '?';
    ++i;
    while (i < utf8.size() && (static_cast<unsigned char>(utf8[i]) & 0xC0) == 0x80) ++i;
  }
  return out;
}

PdfCanvas::PdfCanvas(double width, double height) : width_(width), height_(height) {}

void PdfCanvas::polyline(const std::vector<Point>& points, const std::string& color, double width,
                         double dash) {
  if (points.size() < 2) return;
  content_ << rgb(color) << " RG " << num(width) << " w 1 j ";
  if (dash > 0)
    content_ << '[' << num(dash) << "] 0 d ";
  else
    content_ << "[] 0 d ";
  content_ << num(points[0].x) << " " << num(height_ - points[0].y) << " m";
  for (std::size_t i = 1; i < points.size(); ++i)
    content_ << " " << num(points[i].x) << " " << num(height_ - points[i].y) << " l";
  content_ << " S\n";
}

void PdfCanvas::rect(double x, double y, double w, double h, const std::string& fill,
                     const std::string& stroke, double stroke_width) {
  if (fill.empty() && stroke.empty()) return;
  if (!fill.empty()) content_ << rgb(fill) << " rg ";
  if (!stroke.empty()) content_ << rgb(stroke) << " RG " << num(stroke_width) << " w [] 0 d ";
  content_ << num(x) << " " << num(height_ - y - h) << " " << num(w) << " " << num(h) << " re "
           << (fill.empty()     ? "S"
               : stroke.empty() ? "f"
                                : "B")
           << "\n";
}

void PdfCanvas::circle(double cx, double cy, double r, const std::string& fill,
                       const std::string& stroke, double stroke_width) {
  if (fill.empty() && stroke.empty()) return;
  // Four cubic Beziers; k = 4(sqrt(2) - 1)/3 puts the midpoints on the circle.
  const double k = 0.5522847498 * r;
  const double y = height_ - cy;
  if (!fill.empty()) content_ << rgb(fill) << " rg ";
  if (!stroke.empty()) content_ << rgb(stroke) << " RG " << num(stroke_width) << " w [] 0 d ";
  content_ << num(cx + r) << " " << num(y) << " m " << num(cx + r) << " " << num(y + k) << " "
           << num(cx + k) << " " << num(y + r) << " " << num(cx) << " " << num(y + r) << " c "
           << num(cx - k) << " " << num(y + r) << " " << num(cx - r) << " " << num(y + k) << " "
           << num(cx - r) << " " << num(y) << " c " << num(cx - r) << " " << num(y - k) << " "
           << num(cx - k) << " " << num(y - r) << " " << num(cx) << " " << num(y - r) << " c "
           << num(cx + k) << " " << num(y - r) << " " << num(cx + r) << " " << num(y - k) << " "
           << num(cx + r) << " " << num(y) << " c "
           << (fill.empty()     ? "S"
               : stroke.empty() ? "f"
                                : "B")
           << "\n";
}

void PdfCanvas::text(double x, double y, const std::string& text, double size, Anchor anchor,
                     const std::string& color, bool vertical) {
  const std::string body = pdf_text(text);
  const double w = text_width(body, size);
  const double shift = anchor == Anchor::kStart ? 0 : anchor == Anchor::kMiddle ? w / 2 : w;
  const double yp = height_ - y;
  content_ << "BT /F1 " << num(size) << " Tf " << rgb(color) << " rg ";
  if (vertical)
    content_ << "0 1 -1 0 " << num(x) << " " << num(yp - shift) << " Tm";
  else
    content_ << "1 0 0 1 " << num(x - shift) << " " << num(yp) << " Tm";
  content_ << " (" << body << ") Tj ET\n";
}

std::string PdfCanvas::finish() const {
  const std::string content = content_.str();
  std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + num(width_) + " " + num(height_) +
          "] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
      "<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "endstream"};
  std::string out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (std::size_t offset : offsets) {
    char line[24];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", offset);
    out += line;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return out;
}

}  // namespace dplab::figures
