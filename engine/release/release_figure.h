// The figure of a release, drawn from what the release holds and nothing else (so its ε is the
// release's): a private search's released winners' validation curves (winners.csv), an explore
// search's best and median per optimizer over iterations (aggregate_curves.csv: the main paper's
// Figures 4/5), or a train run's validation curve (curve.csv). The subtitle is the release's
// epsilon label. `dplab-cli plot RELEASE --out FIG.png|pdf|svg` writes it (figures/plot.h, Cairo).
#pragma once

#include "figures/plot.h"
#include "release/release_folder.h"

namespace dplab::release {

// Throws InvalidArgument naming the release's mode when it holds none of the tables above (a
// cancelled private search releases nothing) or a table without a point to draw.
figures::Plot release_plot(const ReleaseFolder& folder);

}  // namespace dplab::release
