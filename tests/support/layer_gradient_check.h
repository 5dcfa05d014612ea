// Finite-difference check of a ConvNetwork's gradient, one layer at a time: for each layer with
// parameters, a random unit direction v inside that layer's block of θ, and the central
// difference (L(θ + hv) − L(θ − hv)) / 2h of the summed loss against the analytic ⟨∇L, v⟩
// (relative to max(|⟨∇L, v⟩|, 1e-3 ‖∇L‖), so a layer whose directional derivative is tiny is
// judged against the gradient's scale; h = 1e-2 unless given). Shared by the conv-network and
// custom-network tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/Core>

#include "core/random.h"
#include "models/conv_network.h"

namespace dplab::test {

struct LayerGradientCheck {
  int checked = 0;      // layers with parameters that were checked
  std::string failure;  // empty, or the first layer whose gradient disagrees
};

inline LayerGradientCheck check_layer_gradients(models::ConvNetwork& net, const Matrix& x,
                                                const Vector& y, Rng& rng,
                                                double relative_tolerance = 1e-2, double h = 1e-2) {
  Vector g(net.num_params());
  Vector no_norms;
  net.clipped_gradient_sum(x, y, models::kNoClipping, g, no_norms);
  LayerGradientCheck result;
  Index offset = 0;
  for (const auto& layer : net.layers()) {
    const Index count = layer->num_params();
    if (count == 0) continue;
    Eigen::VectorXd v = Eigen::VectorXd::Zero(net.num_params());
    for (Index j = 0; j < count; ++j) v[offset + j] = 2 * rng.uniform() - 1;
    v /= v.norm();
    const double analytic = g.cast<double>().dot(v);
    const Vector theta = net.params();
    net.params() = theta + (h * v).cast<float>();
    const double plus = net.loss_sum(x, y);
    net.params() = theta - (h * v).cast<float>();
    const double minus = net.loss_sum(x, y);
    net.params() = theta;
    const double numeric = (plus - minus) / (2 * h);
    const double scale = std::max(std::abs(analytic), 1e-3 * g.cast<double>().norm());
    if (!(std::abs(numeric - analytic) <= relative_tolerance * scale)) {
      result.failure = "layer " + std::to_string(result.checked) + " (" + layer->describe() +
                       "): analytic " + std::to_string(analytic) + ", finite difference " +
                       std::to_string(numeric);
      return result;
    }
    offset += count;
    ++result.checked;
  }
  return result;
}

}  // namespace dplab::test
