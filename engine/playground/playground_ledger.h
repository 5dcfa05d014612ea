// The Playground's ledger (issue #27; the main paper's lesson): every DISTINCT setting a student
// trains on one data set is a candidate of a hyperparameter search, and the accuracy on screen is
// the best of them, so its honest cost is that of the search, not of the one setting shown.
//
// For K settings on the current data set (delta: the current setting's):
//   MA  composition of the K runs (Mironov 2017, Prop. 1): when all K share (sigma, q, T) this is
//       tuning/release_cost.h's private MA cost for K candidates; otherwise the RDP curves of the
//       K runs are added (privacy::runs_epsilon, as explore mode composes heterogeneous runs).
//   LT  Liu & Talwar random stopping, gamma = 1/K (tuning::release_cost, private lt);
//   (LT and PS are what a private selection over the K settings WOULD cost, training a random
//   number of runs and showing only its winner; the student saw every run, which only MA prices.)
//   PS  Papernot & Steinke, K ~ Poisson(mu = K) (tuning::release_cost, private ps).
//   LT and PS need ONE base mechanism that bounds every candidate: with different settings we use
//   (min sigma, max q, max T), whose RDP curve is >= each candidate's at every order (the
//   subsampled Gaussian's RDP decreases in sigma, increases in q, is linear in T), so the bound
//   stays valid; `dominated` says when this happened.
// Non-private settings have epsilon = +infinity, and so has any ledger holding one.
// The shadow (non-private comparison) runs are not candidates and are not recorded.
#pragma once

#include <string>
#include <vector>

#include "playground/playground_session.h"

namespace dplab::playground {

struct LedgerEntry {
  std::string identity;  // run_identity
  std::string data;      // data_identity
  std::string summary;   // "dpsgd sigma=1 ..., logistic, seed 1; on gaussians n=400 (data seed 1)"
  privacy::SubsampledGaussian mechanism;
  double best_test_accuracy = 0;
};

struct LedgerCost {
  int settings = 0;               // K on the current data set
  double best_test_accuracy = 0;  // best final test accuracy among them
  double current_epsilon = 0;     // the current setting alone (RDP)
  double ma = 0, lt = 0, ps = 0;  // honest epsilon of having tried the K settings
  double delta = 0;
  bool dominated = false;  // LT/PS used the dominating mechanism (settings differ)
};

class PlaygroundLedger {
 public:
  // Records the setting (once per run_identity) with n_train training points.
  void record(const PlaygroundSettings& settings, Index train_size);
  // Raises the setting's best test accuracy (no effect when not recorded).
  void note_accuracy(const PlaygroundSettings& settings, double test_accuracy);
  void reset() { entries_.clear(); }
  const std::vector<LedgerEntry>& entries() const { return entries_; }
  // Entries on the data set of `current`.
  int count_on(const DataOptions& data) const;
  // The best test accuracy noted among the entries on that data set (0 when none).
  double best_accuracy_on(const DataOptions& data) const;
  // The cost of the settings tried on current's data set, at current.training.delta.
  LedgerCost cost(const PlaygroundSettings& current, Index train_size) const;

 private:
  std::vector<LedgerEntry> entries_;
};

// "You tried 9 settings: the accuracy you see cost eps = 5.21 (MA), not 0.62. A private selection
// over these settings (random stopping, only its winner shown) would cost LT 4.1, PS 3.9." (LT
// and PS price a selection the student did not run, not the runs they saw.)
std::string ledger_sentence(const LedgerCost& cost);

}  // namespace dplab::playground
