#include "playground/decision_boundary.h"

#include "core/error.h"

namespace dplab::playground {

std::vector<BoundarySegment> decision_boundary(const DecisionField& field, float level) {
  const int n = field.resolution;
  std::vector<BoundarySegment> out;
  if (n < 2) return out;
  if (field.probability.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(n)) {
    throw InvalidArgument("decision_boundary: the field holds " +
                          std::to_string(field.probability.size()) + " values, not " +
                          std::to_string(n) + "²");
  }
  const double h = 2.0 * kPlaneExtent / (n - 1);
  const auto value = [&](int r, int c) {
    return field.probability[static_cast<std::size_t>(r) * static_cast<std::size_t>(n) +
                             static_cast<std::size_t>(c)];
  };
  const auto x_of = [&](double c) { return -kPlaneExtent + c * h; };
  const auto y_of = [&](double r) { return kPlaneExtent - r * h; };
  for (int r = 0; r + 1 < n; ++r) {
    for (int c = 0; c + 1 < n; ++c) {
      // Corners counter-clockwise on screen from the top left: a (r, c), b (r, c+1),
      // d (r+1, c+1), e (r+1, c). Edges: 0 top a–b, 1 right b–d, 2 bottom e–d, 3 left a–e.
      const float a = value(r, c), b = value(r, c + 1), d = value(r + 1, c + 1),
                  e = value(r + 1, c);
      const int mask =
          (a > level ? 1 : 0) | (b > level ? 2 : 0) | (d > level ? 4 : 0) | (e > level ? 8 : 0);
      if (mask == 0 || mask == 15) continue;
      // Where the level crosses an edge, by linear interpolation between its two corners.
      const auto cross = [&](int edge, double* x, double* y) {
        const auto t = [&](float from, float to) {
          return static_cast<double>((level - from) / (to - from));
        };
        switch (edge) {
          case 0:
            *x = x_of(c + t(a, b));
            *y = y_of(r);
            break;
          case 1:
            *x = x_of(c + 1);
            *y = y_of(r + t(b, d));
            break;
          case 2:
            *x = x_of(c + t(e, d));
            *y = y_of(r + 1);
            break;
          default:
            *x = x_of(c);
            *y = y_of(r + t(a, e));
            break;
        }
      };
      const auto add = [&](int from, int to) {
        BoundarySegment s;
        cross(from, &s.x0, &s.y0);
        cross(to, &s.x1, &s.y1);
        out.push_back(s);
      };
      // Which two edges the level crosses, by the corners above it (a case and its complement
      // cross the same edges).
      const int m = mask & 8 ? 15 - mask : mask;  // corner e below the level from here on
      switch (m) {
        case 1:  // a
          add(3, 0);
          break;
        case 2:  // b
          add(0, 1);
          break;
        case 3:  // a, b
          add(3, 1);
          break;
        case 4:  // d
          add(1, 2);
          break;
        case 6:  // b, d
          add(0, 2);
          break;
        case 7:  // a, b, d: only e below
          add(3, 2);
          break;
        case 5: {  // a and d on one side, b and e on the other: a saddle
          const bool centre_with_a = ((a + b + d + e) / 4 > level) == (a > level);
          if (centre_with_a) {  // a's region joins d's through the centre
            add(3, 2);
            add(0, 1);
          } else {
            add(3, 0);
            add(1, 2);
          }
          break;
        }
        default:
          break;
      }
    }
  }
  return out;
}

}  // namespace dplab::playground
