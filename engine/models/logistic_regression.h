// Logistic regression, binary and multinomial.
//   binary (num_classes = 2): one output z = x . w + b, p(y = 1) = sigmoid(z),
//       loss = -[y log p + (1 - y) log(1 - p)] = max(z, 0) - y z + log1p(exp(-|z|)),
//       e = p - y, params [w (d), b];
//   multinomial (num_classes = k >= 3): z = x W + b (W: d x k), p = softmax(z),
//       loss = logsumexp(z) - z_y, e = p - onehot(y), params [W row-major (d x k), b (k)].
// Per-example gradient (x_i e_i^T, e_i): ||g_i||^2 = (||x_i||^2 + 1) ||e_i||^2.
// Initialised to zero (so the initial loss is ln 2, resp. ln k, per example).
// Thread-safety: not thread-safe (scratch buffers); clone() per thread.
#pragma once

#include "models/single_layer_model.h"

namespace dplab::models {

class LogisticRegression final : public detail::SingleLayerModel {
 public:
  // num_classes >= 2; throws InvalidArgument otherwise.
  LogisticRegression(Index input_dim, int num_classes);

  void initialize(std::uint64_t seed) override;  // zeros; the seed is unused
  std::unique_ptr<Model> clone() const override;
};

}  // namespace dplab::models
