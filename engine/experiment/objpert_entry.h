// An objective-perturbation entry of a `tune` experiment: Algorithm 1 of Redberg, Koskela &
// Wang (objective_perturbation/algorithm1.h) searched next to the DP-SGD optimizers.
// Its PRIVACY parameters are fixed up front, as the paper does (they are what Theorem 4.1
// certifies); its SOLVER settings are free hyperparameters (the guarantee only needs the stopping
// condition ||grad L^P_C|| <= tau, whatever solver reaches it), so they form the grid:
//
//   {"name": "objpert",
//    "privacy": {"noise_std": sigma, "regularization": lambda, "output_noise_std": sigma_out,
//                "tau": tau (0.01), "clip": C (sqrt 2)},
//    "grid": {"learning_rate": number | [numbers],       gradient descent step / smoothness
//             "max_iterations": integer | [integers]}}   gradient descent iterations
//
// Every key is checked; errors name the key path, e.g.
// `optimizers[2].privacy.regularization: must be > 0.5 (the loss's smoothness beta), got 0.1`.
// The loss is logistic (binary classification, the paper's case). Candidates are the Cartesian
// product learning_rate x max_iterations (learning_rate varies slowest), after all DP-SGD
// candidates, whatever tuning.strategy says (a grid is what the paper tunes).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace dplab::experiment {

struct ObjpertEntry {
  double noise_std = 0;         // sigma of b (required)
  double regularization = 0;    // lambda (required, > beta)
  double output_noise_std = 0;  // sigma_out (required, > 0)
  double tau = 0.01;
  double clip = 1.4142135623730951;  // C = L
  std::vector<double> learning_rates{1.0};
  std::vector<std::int64_t> max_iterations{1000};

  bool operator==(const ObjpertEntry&) const = default;
};

// True when a list element of "optimizers" is an objective-perturbation entry.
bool is_objpert_entry(const nlohmann::json& element);

// Parses one entry; `path` names it in errors ("optimizers[2]"). Throws ParseError.
ObjpertEntry parse_objpert_entry(const nlohmann::json& element, const std::string& path);
nlohmann::json objpert_entry_to_json(const ObjpertEntry& entry);

}  // namespace dplab::experiment
