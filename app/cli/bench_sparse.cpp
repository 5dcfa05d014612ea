#include "cli/bench_sparse.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "cli/bench_timing.h"
#include "core/random.h"
#include "privacy/mechanisms/sparse_vector.h"

namespace dplab::cli {

nlohmann::json bench_sparse_selection(double seconds, std::ostream* table_out) {
  constexpr Index kDimension = 100'000;  // |V| d of the CBOW preset
  constexpr Index kSelected = 100;       // floor(0.001 p)
  nlohmann::json rows = nlohmann::json::array();
  if (table_out) {
    *table_out << "\nSparse vector technique (p = 100,000, c1 = 100, default threshold):\n";
    char header[160];
    std::snprintf(header, sizeof header, "%-10s %16s %16s %10s %12s\n", "touched", "fast select/s",
                  "full scan/s", "full/fast", "mean passes");
    *table_out << header;
  }
  for (const Index touched : {Index{2'000}, Index{20'000}}) {
    privacy::SparseVectorSettings settings{kDimension, kSelected, 1.0, 1e-7, 0.1, 0.0};
    settings.threshold = privacy::sparse_vector_default_threshold(settings);
    privacy::SparseVector svt(settings);
    // Touched coordinates spread evenly, values up to S0 (as after the per-coordinate clip).
    std::vector<Index> indices;
    std::vector<float> values;
    Rng value_rng(derive_seed(20, static_cast<std::uint64_t>(touched)));
    for (Index i = 0; i < touched; ++i) {
      indices.push_back(i * (kDimension / touched));
      values.push_back(static_cast<float>(0.1 * value_rng.uniform()));
    }
    const privacy::SparseVectorView view{kDimension, indices, values};
    std::vector<Index> selected;
    Rng rng(7);
    double passes = 0, calls = 0;
    const double fast = seconds_per_call(seconds / 4, [&] {
      svt.select(view, rng, selected);
      passes += static_cast<double>(selected.size());
      calls += 1;
    });
    const double full =
        seconds_per_call(seconds / 4, [&] { svt.select_by_full_scan(view, rng, selected); });
    rows.push_back({{"dimension", kDimension},
                    {"max_count", kSelected},
                    {"touched", touched},
                    {"fast_selections_per_second", 1 / fast},
                    {"full_scan_selections_per_second", 1 / full},
                    {"speedup_full_over_fast", full / fast},
                    {"mean_passes", passes / calls}});
    if (table_out) {
      char line[160];
      std::snprintf(line, sizeof line, "%-10lld %16.0f %16.1f %9.1fx %12.1f\n",
                    static_cast<long long>(touched), 1 / fast, 1 / full, full / fast,
                    passes / calls);
      *table_out << line;
    }
  }
  return rows;
}

}  // namespace dplab::cli
