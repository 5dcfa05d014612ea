// What the phased release modes share (private-subsampled, tuning/subsampled_search.h;
// private-linear-scaling, tuning/linear_scaling_search.h): telling a hook about each phase's
// Runner, and the one-candidate optimizer entry of the final run built from an earlier phase's
// winner.
#pragma once

#include <functional>

#include "experiment/experiment_config.h"
#include "tuning/runner.h"

namespace dplab::tuning {

// Tells `on_runner` that a phase's runner exists, and that it is gone on every way out (an
// exception included), before the Runner itself is destroyed (declare it after the Runner).
// `Phase` names the phase (bool final_phase, or a phase number).
template <class Phase>
class PhaseNotice {
 public:
  using Hook = std::function<void(Runner*, Phase)>;
  PhaseNotice(const Hook& on_runner, Runner* runner, Phase phase)
      : on_runner_(on_runner), phase_(phase) {
    if (on_runner_) on_runner_(runner, phase_);
  }
  ~PhaseNotice() {
    if (on_runner_) on_runner_(nullptr, phase_);
  }
  PhaseNotice(const PhaseNotice&) = delete;
  PhaseNotice& operator=(const PhaseNotice&) = delete;

 private:
  const Hook& on_runner_;
  Phase phase_;
};

// One optimizer entry whose grid is exactly `winner`'s hyperparameters, its learning rate
// replaced by `learning_rate` (the final run of a phased mode).
experiment::OptimizerConfig winner_entry(const experiment::Candidate& winner, double learning_rate);

}  // namespace dplab::tuning
