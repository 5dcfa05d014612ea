// ADADP (Koskela & Honkela 2020, "Learning rate adaptation for differentially private
// learning", AISTATS, Alg. 1; main paper appendix A.1). One step = one adaptation = TWO noisy
// gradient queries, both paid for in the accountant (queries_per_step() = 2):
//   g1 = g~(theta)                          (first query)
//   theta1 = theta - eta g1                 (one full step)
//   theta_half = theta - (eta/2) g1;  g2 = g~(theta_half)   (second query)
//   theta2 = theta_half - (eta/2) g2        (two half steps)
//   err = sqrt( sum_j (theta1_j - theta2_j)^2 / max(1, theta1_j^2) )
//   eta <- eta * min(max(sqrt(tau / err), 0.9), 1.1)
//   theta <- theta2 if err <= tau, else theta (reject: back to the start)
// tau defaults to sqrt(d / (2T)) (main paper appendix A.1), d = num_params and T =
// RunShape::total_queries. err = 0 gives the maximal growth factor 1.1. The sums run in double.
// effective_step_size() = the current eta (after the last adaptation); NaN before the first step.
#pragma once

#include <cstdint>
#include <string>

#include "optim/optimizer.h"
#include "optim/update_count.h"

namespace dplab::optim {

class AdaDp final : public Optimizer {
 public:
  AdaDp(const OptimizerSpec& spec, const RunShape& shape);
  std::string name() const override;
  double step(models::Model& model, privacy::NoisyGradientOracle& oracle) override;
  int queries_per_step() const override { return queries_per_update(OptimizerKind::kAdaDp); }
  double effective_step_size() const override;

  double step_size() const { return eta_; }          // eta, the step the next adaptation uses
  double tolerance() const { return tolerance_; }    // tau
  double last_error() const { return last_error_; }  // err of the last adaptation
  std::int64_t accepted_steps() const { return accepted_; }
  std::int64_t rejected_steps() const { return rejected_; }

 private:
  double eta_;
  double tolerance_;
  double last_error_;
  Vector start_;      // theta
  Vector full_step_;  // theta1
  Vector gradient_;
  std::int64_t accepted_ = 0;
  std::int64_t rejected_ = 0;
};

}  // namespace dplab::optim
