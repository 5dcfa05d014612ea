#include "privacy/mechanisms/coordinate_selection.h"

#include "core/error.h"

namespace dplab::privacy {

void validate_sparse_vector(const SparseVectorView& v) {
  if (v.dimension < 1) throw InvalidArgument("sparse vector: dimension must be >= 1");
  if (v.indices.size() != v.values.size()) {
    throw InvalidArgument("sparse vector: " + std::to_string(v.indices.size()) + " indices but " +
                          std::to_string(v.values.size()) + " values");
  }
  Index previous = -1;
  for (const Index i : v.indices) {
    if (i <= previous || i >= v.dimension) {
      throw InvalidArgument("sparse vector: index " + std::to_string(i) +
                            " is out of order or outside [0, " + std::to_string(v.dimension) + ")");
    }
    previous = i;
  }
}

}  // namespace dplab::privacy
