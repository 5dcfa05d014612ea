// Objective perturbation inside a `tune` search (experiment/objpert_entry.h): its candidates,
// their runs, and the epsilon of a search that holds them next to DP-SGD candidates.
//
// Candidates: per entry, learning_rate x max_iterations (the solver's free settings), indexed
// after the DP-SGD candidates. Each (candidate, repeat) run is one call of Algorithm 1
// (objective_perturbation/algorithm1.h) on the GLM design of the training set (unit-norm rows
// plus a bias, logistic loss, binary classes), seeded by derive_seed(experiment seed,
// kObjpertSeedStream + candidate, repeat). Solver: full-batch gradient descent with the
// candidate's step and iteration budget; if it has not reached ||grad|| <= tau by then, L-BFGS
// solves the SAME perturbed objective (same b: same seed) from 0 until tau. That composite is
// one solver and one release: Theorem 4.1 needs only the stopping condition, so every run
// releases theta_hat + N(0, sigma_out^2 I) covered by it, and the budget only shapes the path.
// The score is the released model's validation accuracy (as the DP-SGD candidates'), public
// validation as in the main paper.
//
// Privacy (Redberg, Koskela & Wang, Theorem 4.1; docs/objective_perturbation.md): one run has
// RDP eps_A1(alpha) for every order, with beta = 0.5 (logistic, rows of norm sqrt 2) and L = C.
// Composition is order-wise addition (Mironov 2017, Prop. 1), so in explore mode (every run is
// shown, so every run is charged):
//   eps_RDP(alpha) = (queries of all DP-SGD runs) eps_step(alpha) + (objpert runs made)
//   eps_A1(alpha)
// converted to (eps, delta) by the RDP conversion of privacy/accounting/rdp_conversion.h. Both
// bounds are for add/remove-one adjacency, so the sum is valid. Private release modes (ma, lt, ps)
// do not draw objpert candidates yet: release_cost_with_objpert throws InvalidArgument for them.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "experiment/experiment_config.h"
#include "objective_perturbation/privacy_bounds.h"
#include "tuning/release_cost.h"
#include "tuning/results.h"

namespace dplab::tuning {

inline constexpr std::uint64_t kObjpertSeedStream = 0x4F424A50;  // "OBJP"

struct ObjpertCandidate {
  int index = 0;  // 0..K_objpert-1 (after the DP-SGD candidates in listings)
  int entry = 0;  // into ExperimentConfig::objective_perturbation
  double learning_rate = 1.0;
  std::int64_t max_iterations = 1000;
  std::string label() const;  // "objpert lr=0.5 iters=200"
};

std::vector<ObjpertCandidate> expand_objpert_candidates(const experiment::ExperimentConfig& config);

// Theorem 4.1's parameters of an entry: sigma, lambda, beta = 0.5, L = C, tau, sigma_out.
objpert::ObjPertPrivacy objpert_privacy(const experiment::ObjpertEntry& entry);

struct ObjpertJob {
  int candidate = 0;
  int repeat = 0;
  JobStatus status = JobStatus::kPending;
  double val_accuracy = 0;
  long iterations = 0;  // gradient descent (+ L-BFGS when it finished the solve)
  bool finished_by_lbfgs = false;
  double wall_seconds = 0;
  std::string error;
};

struct ObjpertSearch {
  std::vector<ObjpertCandidate> candidates;
  std::vector<ObjpertJob> jobs;  // index = candidate * repeats + repeat
  int best_candidate = -1;       // highest mean validation accuracy over its finished repeats
  double best_accuracy = 0;
};

// Runs every (candidate, repeat). Throws InvalidArgument when the data are not binary
// classification (naming the data set). Cancel leaves the remaining jobs kPending.
ObjpertSearch run_objpert_search(const experiment::ExperimentConfig& config,
                                 const data::TrainValidationSplit& data,
                                 const std::atomic<bool>* cancel = nullptr);

// The epsilon of the whole search (see above). Equals explore_release_cost / the private ma cost
// when there are no objpert runs. Throws InvalidArgument for private lt / ps with objpert runs.
ReleaseCost release_cost_with_objpert(const SearchResults& dpsgd, const ObjpertSearch& objpert);

}  // namespace dplab::tuning
