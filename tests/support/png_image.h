// Reads PNG files for the figure tests: the header's size straight from the bytes (signature +
// IHDR, PNG spec section 5), and the pixels decoded by Cairo (cairo_image_surface_create_from_png
// _stream), laid over white so any PNG colour type reads as 0xRRGGBB.
// Suites that include this link PkgConfig::CAIRO (tests/CMakeLists.txt).
#pragma once

#include <cairo.h>

#include <QByteArray>

#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace dplab::testing {

// Width and height from the IHDR chunk, or nothing when the signature or the first chunk is wrong.
inline std::optional<std::pair<int, int>> png_header_size(const QByteArray& bytes) {
  static const char kSignature[8] = {'\x89', 'P', 'N', 'G', '\r', '\n', '\x1a', '\n'};
  if (bytes.size() < 33 || std::memcmp(bytes.constData(), kSignature, 8) != 0) return {};
  auto big_endian = [&](int at) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
    return v;
  };
  if (big_endian(8) != 13 || bytes.mid(12, 4) != "IHDR") return {};
  return std::pair<int, int>(static_cast<int>(big_endian(16)), static_cast<int>(big_endian(20)));
}

struct PngImage {
  int width = 0, height = 0;       // 0 x 0 when the bytes did not decode
  std::vector<std::uint32_t> rgb;  // row-major 0xRRGGBB
  std::uint32_t at(int x, int y) const { return rgb[static_cast<std::size_t>(y) * width + x]; }
  // 0.299 R + 0.587 G + 0.114 B in [0, 255].
  double luminance(int x, int y) const {
    const std::uint32_t c = at(x, y);
    return 0.299 * ((c >> 16) & 255) + 0.587 * ((c >> 8) & 255) + 0.114 * (c & 255);
  }
};

inline PngImage decode_png(const QByteArray& bytes) {
  struct Reader {
    const QByteArray* bytes;
    qsizetype at;
  } reader{&bytes, 0};
  auto read = [](void* closure, unsigned char* data, unsigned int length) {
    auto* r = static_cast<Reader*>(closure);
    if (r->at + length > r->bytes->size()) return CAIRO_STATUS_READ_ERROR;
    std::memcpy(data, r->bytes->constData() + r->at, length);
    r->at += length;
    return CAIRO_STATUS_SUCCESS;
  };
  PngImage image;
  cairo_surface_t* png = cairo_image_surface_create_from_png_stream(read, &reader);
  if (cairo_surface_status(png) == CAIRO_STATUS_SUCCESS) {
    const int w = cairo_image_surface_get_width(png), h = cairo_image_surface_get_height(png);
    cairo_surface_t* flat = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t* cr = cairo_create(flat);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_surface(cr, png, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(flat);
    const unsigned char* data = cairo_image_surface_get_data(flat);
    const int stride = cairo_image_surface_get_stride(flat);
    image.width = w;
    image.height = h;
    image.rgb.resize(static_cast<std::size_t>(w) * h);
    for (int y = 0; y < h; ++y) {
      const auto* row =
          reinterpret_cast<const std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
      for (int x = 0; x < w; ++x)
        image.rgb[static_cast<std::size_t>(y) * w + x] = row[x] & 0xFFFFFF;
    }
    cairo_surface_destroy(flat);
  }
  cairo_surface_destroy(png);
  return image;
}

}  // namespace dplab::testing
