// The epsilon of what a search RELEASED (release_config.h), in one place:
//
//   explore      RDP composition of every run trained (each job's queries, curves added order
//                by order; Mironov 2017 Prop. 1; one (sigma, q) per experiment, so this is one
//                run of sum(queries) steps), converted at delta.
//   private ma   composition of the K candidate runs (one per candidate).
//   private lt   Liu & Talwar with the integer hard stop it enforces
//                (privacy::liu_talwar_selection_enforced), gamma = tuning.gamma or 1/K.
//   private ps   Papernot & Steinke Theorem 6 (Poisson) or 2 (TNB),
//   privacy/selection/papernot_steinke.h. private-subsampled  Koskela & Kulkarni 2023
//   (privacy/selection/subsampled_tuning.h): the PS search on
//                a Poisson-q subsample (amplified by Zhu-Wang Thm 6) composed with the final
//                run, or variant 2's bound; the final run's (sigma, rate, T) are
//                results.mechanism, the subset's rate is derived from it (subsampled_search.h).
//   private-linear-scaling  Panda et al. 2024 (privacy/selection/linear_scaling_tuning.h): the
//                2K trial runs at the trial budgets' noise and the final run, RDP-composed; the
//                final run's (sigma, q, T) are results.mechanism, K release.trial_candidates.
// Private modes: each of the R = repeats replicate searches releases its own winner, so the
// release is R independent selections and `epsilon` is their COMPOSITION (the headline):
//   ma, ps  RDP composition: the selection's RDP curve (K runs / Papernot-Steinke Thm 2 or 6)
//           times R (Mironov 2017 Prop. 1), converted at the same delta;
//   lt      basic composition (Dwork et al. 2006): Liu-Talwar gives only an (eps, delta) bound,
//           so R replicates cost (R eps, R delta) and `delta` is R x the experiment's delta.
// epsilon_per_replicate / delta_per_replicate: one replicate search (what `recompute` gives).
// validation private adds, to each run's curve, the Gaussian mechanism on the accuracy with
// noise std validation_noise_multiplier / n_val and sensitivity 1/n_val: eps_RDP = alpha/(2 s^2)
// (Mironov 2017, Prop. 7), s = validation_noise_multiplier.
// Every ReleaseCost carries its label: mode, delta, validation assumption (epsilon_label), and
// what the search also outputs that NO epsilon covers (ReleaseCost::not_covered):
//   explore      the training-set losses of every run (curves' train_loss: the mean lot loss
//                since the previous point; final_train_loss: the mean loss over the whole
//                training set), computed on the private training set without noise;
//   any mode     min-max ranges fitted on the private data (data/feature_scaling.h), as the
//                main paper's appendix H leaves them, when no public feature bounds were given.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiment/release_config.h"
#include "tuning/results.h"

namespace dplab::tuning {

struct ReleaseCost {
  experiment::ReleaseConfig release;
  double epsilon = 0.0;
  double delta = 0.0;
  std::string covers;              // e.g. "all 120 runs trained (40 candidates x 3 repeats)"
  std::int64_t runs_charged = 0;   // explore: runs trained; ma: K; lt: hard stop; ps: 0 (random)
  std::int64_t total_queries = 0;  // explore: noisy-gradient queries of all runs trained
  double expected_runs = 0.0;      // explore/ma: runs; lt: E[min(Geom(gamma), Upsilon)]; ps: E[K]
  int num_candidates = 0;          // K, the pool
  double gamma = 0.0;              // lt
  double delta2 = 0.0;             // lt
  std::int64_t hard_stop = 0;      // lt: the integer Upsilon
  double epsilon_per_run = 0.0;    // one run (with its score mechanism) at delta
  // Private modes (explore: equal to epsilon, delta, 1): one replicate search, and R.
  double epsilon_per_replicate = 0.0;
  double delta_per_replicate = 0.0;
  int replicates = 1;
  std::string composition;  // how the R replicates compose: "rdp", "basic" ("" for R = 1)
  // Output fields no epsilon covers (the summary JSON's "not_covered"), and the label clauses
  // saying so: e.g. {"train_loss", "final_train_loss", "preprocessing"}.
  std::vector<std::string> not_covered;
  std::vector<std::string> not_covered_clauses;
  // Reproduction variant lot_normalization = realized (explore only): the gradients were divided
  // by the realised |lot|, which the accountant does not analyse; the label says NOT covered.
  bool divides_by_realized_lot = false;
  // private-subsampled (Koskela & Kulkarni 2023; privacy/selection/subsampled_tuning.h): the two
  // phases at the same delta. epsilon covers BOTH; epsilon_per_run is the final run alone.
  // private-linear-scaling: epsilon_tuning_phase is the 2K trial runs alone.
  double epsilon_tuning_phase = 0.0;      // the search on X1, amplified by the draw of X1
  double tuning_sampling_rate = 0.0;      // the lot sampling rate charged on X1
  double learning_rate_multiplier = 1.0;  // the transfer heuristic's factor (no privacy cost)
  // The whole release's RDP curve (every replicate), the curve `epsilon` converts: on
  // rdp_orders (privacy::rdp_orders(), or subsampled_tuning_rdp's integer orders). Empty when
  // the bound is (eps, delta) only (private lt: Liu-Talwar) or not computable (sigma = 0). The
  // run history composes the charges of a run's attempts with it (store/attempt_charges.h).
  std::vector<double> rdp_orders;
  std::vector<double> rdp;
};

// The label clause for the un-noised training-set losses every explore run exports.
inline constexpr const char* kTrainingLossNotCovered =
    "train_loss, final_train_loss: un-noised losses on the private training set, not covered by "
    "eps";

// The per-run RDP curve on the default orders: T steps of (sigma, q) plus the noisy score when
// validation is private.
void per_run_rdp(const SearchResults& results, std::vector<double>& orders,
                 std::vector<double>& rdp);

ReleaseCost explore_release_cost(const SearchResults& results);
ReleaseCost private_release_cost(const SearchResults& results);
// Dispatches on results.config.release.mode.
ReleaseCost release_cost(const SearchResults& results);

// The cost BEFORE running (a plan, as the form shows it): the experiment's candidates and
// mechanism on n training examples (delta: the experiment's or the default for n), every run
// assumed to make its T queries. Same functions as above, so the plan equals the run's cost
// when every run finishes.
ReleaseCost planned_release_cost(const experiment::ExperimentConfig& config,
                                 std::int64_t training_size, std::int64_t validation_size);

// "eps <= 3.29 (explore: all 120 runs trained ...; delta = 1e-05; validation: public; train_loss,
// final_train_loss: un-noised ..., not covered by eps; preprocessing fitted on private data: not
// covered)", epsilon rounded UP to `digits` decimals.
std::string epsilon_label(const ReleaseCost& cost, int digits = 2);

// The epsilon_label column of every CSV whose numbers depend on a search (curves.csv, the
// aggregates, winners.csv, the GUI's chart and table exports): "eps <= ... (label); accountant:
// rdp; eps rounded up to 2 decimals".
std::string epsilon_csv_label(const ReleaseCost& cost);

}  // namespace dplab::tuning
