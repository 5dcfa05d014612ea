#include "experiment/run_count_visibility.h"

namespace dplab::experiment {

bool hides_run_count(const ReleaseConfig& r) {
  return r.mode == ReleaseMode::kPrivate && (r.subsampled || r.selection != PrivateSelection::kMa);
}

bool described_release_hides_run_count(const std::string& described) {
  // describe_release writes exactly these texts for the releases that show their counts (linear
  // scaling: K, the grid size, trains once per trial budget).
  return !(described == "explore" || described == "private ma" ||
           described.rfind("private-linear-scaling", 0) == 0);
}

}  // namespace dplab::experiment
