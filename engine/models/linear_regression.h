// Linear regression (main paper's "linear" model): y_hat = x . w + b, per-example loss
// 1/2 (y_hat - y)^2, error e = y_hat - y, gradient (e x, e), so ||g_i|| = |e_i| sqrt(||x_i||^2 +
// 1). Parameters [w (d), b]; initialised to zero (paper: w0 = 0). Thread-safety: not thread-safe
// (scratch buffers); clone() per thread.
#pragma once

#include "models/single_layer_model.h"

namespace dplab::models {

class LinearRegression final : public detail::SingleLayerModel {
 public:
  explicit LinearRegression(Index input_dim);

  void initialize(std::uint64_t seed) override;  // zeros; the seed is unused
  std::unique_ptr<Model> clone() const override;
};

}  // namespace dplab::models
