// The model's decision boundary on the Playground's plane: the level set p(class 1) = 1/2 of a
// DecisionField (playground_session.h), as line segments in plane coordinates. The plane draws
// the private model's boundary, its non-private shadow's beside it, and a pinned setting's as a
// ghost, so a lesson that compares them shows the difference without reading a number.
#pragma once

#include <vector>

#include "playground/playground_session.h"

namespace dplab::playground {

struct BoundarySegment {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// Marching squares (Lorensen & Cline 1987's two-dimensional case) over the field's grid points:
// each square whose corners lie on both sides of `level` gets one segment (two for a saddle,
// separated as the square's centre value, the mean of its corners, decides) whose ends are
// interpolated linearly along the square's edges. Grid point (r, c) sits at
// x = −E + c·h, y = E − r·h with h = 2E / (res − 1), E = kPlaneExtent, as decision_field lays it.
std::vector<BoundarySegment> decision_boundary(const DecisionField& field, float level = 0.5f);

}  // namespace dplab::playground
