// Logistic regression, binary and multinomial.
//   binary (num_classes = 2): one output z = x . w + b, p(y = 1) = sigmoid(z),
//       loss = -[y log p + (1 - y) log(1 - p)] = max(z, 0) - y z + log1p(exp(-|z|)),
//       e = p - y, params [w (d), b];
//   multinomial (num_classes = k >= 3): z = x W + b (W: d x k), p = softmax(z),
//       loss = logsumexp(z) - z_y, e = p - onehot(y), params [W row-major (d x k), b (k)].
// Per-example gradient (x_i e_i^T, e_i): ||g_i||^2 = (||x_i||^2 + 1) ||e_i||^2.
// Initialised to zero (so the initial loss is ln 2, resp. ln k, per example) unless the
// LinearInit variant says otherwise; the binary model can be a two-class softmax (model.h).
// Thread-safety: not thread-safe (scratch buffers); clone() per thread.
#pragma once

#include "models/single_layer_model.h"

namespace dplab::models {

class LogisticRegression final : public detail::SingleLayerModel {
 public:
  // num_classes >= 2; throws InvalidArgument otherwise. `output` and `init` are the reproduction
  // variants of model.h (BinaryOutput applies to 2 classes only).
  LogisticRegression(Index input_dim, int num_classes, BinaryOutput output = BinaryOutput::kSigmoid,
                     LinearInit init = LinearInit::kZeros);

  // zeros (the seed is unused), or LinearInit::kUniformFanIn: every W and b entry
  // ~ U(-1/sqrt(d), 1/sqrt(d)) from a stream seeded by `seed`.
  void initialize(std::uint64_t seed) override;
  std::unique_ptr<Model> clone() const override;

 private:
  LinearInit init_;
};

}  // namespace dplab::models
