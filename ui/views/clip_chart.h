// The live clipping threshold chart beside the accuracy curves (issue #15): for every candidate
// of an adaptive-clipping optimizer, C_t (solid, left log axis) and OSO-DPSGD's learning rate
// rho_t (dashed, right log axis) versus iteration. Every number is the engine's
// (tuning::adaptive_clip_curves: geometric mean over repeats of the recorded C_t and rho_t).
#pragma once

#include "tuning/results.h"

namespace dplab::ui {

class ChartView;

// Redraws `chart` from `results`; returns the number of candidate curves drawn (0: the run has no
// adaptive optimizer, or none has reported a point yet).
int drawClipCurves(ChartView* chart, const tuning::SearchResults& results, bool structural);

// Whether a run's configuration has an optimizer that adapts C (the chart is shown only then).
bool hasAdaptiveClipping(const tuning::SearchResults& results);

}  // namespace dplab::ui
