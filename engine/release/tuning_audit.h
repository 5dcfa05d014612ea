// Audit of a tuning release (issue #46): a statistically valid LOWER bound on the epsilon of a
// whole private hyperparameter search — Liu-Talwar, Papernot-Steinke, MA, or private-subsampled
// (Koskela & Kulkarni 2023) — from ONE run of that search, printed beside the procedure's epsilon
// (tuning::release_cost, an UPPER bound).
//
// The game (Steinke, Nasr & Jagielski, NeurIPS 2023, Algorithm 1, with the whole search as the
// mechanism):
//   1. before anything runs, m canaries and their coins S_i (each in with probability 1/2) are
//      drawn from the audit's seed: ONE set for the whole search. A canary is in or out of the
//      search, not of a run — every run of every candidate trains with the same included
//      canaries;
//   2. the search runs exactly as `tune` runs it, through the engine's one path
//      (run_search_session: the runs drawn up front, trained by the runner, the winner selected
//      with the experiment's score noise), with the canaries in every run:
//        black-box  the included canaries (audit/black_box_canaries.h: mislabelled held-out rows,
//                   or crafted out-of-domain inputs) appended to the training rows, which every
//                   run shares (private-subsampled: the rows its subsample X1 is drawn from);
//        white-box  Dirac canaries on reserved coordinates (audit/reserved_coordinates_model.h,
//                   audit/dirac_canaries.h) added to every run's clipped sums through the
//                   runner's per-job instrumentation; each run draws its canaries' lot
//                   memberships from its own stream, as it draws its own lots. private-
//                   subsampled: each canary is in the tuning subsample X1 with probability
//                   tuning_fraction (its own coin, as every row's), joins the tuning runs' lots
//                   only then, and the final run's lots on the full data or only when outside X1
//                   (final_data "complement");
//   3. the RELEASED artefact alone is scored: the winner's final model. Black-box: -loss of each
//      canary on it; white-box: its reserved coordinates, <theta_T - theta_0, e_{d+i}> (they start
//      at 0). A search releases neither the winner's per-step noisy gradients nor anything of the
//      other runs (their models, scores, K), so this is a FINAL-MODEL-ONLY audit of the winner;
//   4. the guesses and bounds are the one-run audit's (audit/one_run_bound.h: the best of the
//      pre-declared (k+, k-) sets with Bonferroni, the f-DP bound on the same guesses), at the
//      procedure's delta.
//
// Why the bound is valid for the procedure. The search is ONE randomized mechanism A: its input
// is the training data (with the included canaries), its output the released model. The
// selection's analysis (Liu & Talwar 2019, Papernot & Steinke 2022, Koskela & Kulkarni 2023, as
// release_cost applies it) proves A (eps, delta)-DP with respect to adding or removing any one
// training example, hence with respect to each canary whatever the other canaries and the data
// are (a white-box Dirac canary is one more clipped example in each run's DP-SGD: the unit each
// run's accountant, and so the selection's analysis, covers). The coins S_i come from the audit's
// seed, independent of A's own randomness (the experiment's seed). Steinke, Nasr & Jagielski's
// Theorem 3.1 needs nothing else — a mechanism (eps, delta)-DP w.r.t. each canary, canaries
// included independently with probability 1/2 — and says nothing about what happens inside A,
// so it applies to a search as it does to one run: with probability >= the confidence, A is not
// (eps', delta)-DP for any eps' below the bound. A bound above release_cost's epsilon would be a
// bug in one of them. (Black-box: q = L / n counts the included canaries in n, as the one-run
// audit's black-box mode does; release_cost is computed at that n.)
//
// Not audited: explore (every run is released; its cost is the composition of all runs), the
// other runs of a private search (never released), replicate searches (repeats > 1: refused).
//
// Thread-safety: run_tuning_release_audit touches only its arguments (the runner's jobs run in
// parallel, each writing its own slot).
#pragma once

#include <cstdint>
#include <vector>

#include "audit/one_run_audit.h"
#include "experiment/experiment_config.h"
#include "release/search_session.h"
#include "tuning/release_cost.h"
#include "tuning/runner.h"

namespace dplab::release {

struct TuningAuditResult {
  audit::AuditMode mode = audit::AuditMode::kWhiteBox;
  audit::BlackBoxCanaries blackbox_canaries = audit::BlackBoxCanaries::kMislabelled;
  // The procedure's epsilon and delta (the upper bound; epsilon NaN when a private-subsampled
  // search released nothing, see `released`).
  tuning::ReleaseCost cost;
  bool released = false;  // a model was released (false: K = 0, or the search was cancelled)
  bool cancelled = false;
  // The lower bound on the released model's canary scores (final model only); all 0 when
  // nothing was released (no output, no evidence).
  audit::AuditBound bound;
  int canaries = 0;                         // m
  int canaries_included = 0;                // sum of S_i
  double released_validation_accuracy = 0;  // the winner's final validation accuracy
  double wall_seconds = 0;                  // the search + scoring
  // CURATOR ONLY (they reveal which canary was in, and K): never shown beside a release.
  std::vector<double> scores;  // the released model's, per canary
  std::vector<bool> included;  // S_i
  std::int64_t runs_trained = 0;
  std::int64_t winner_job = -1;  // index into the released phase's jobs
  // The same final-model scores for EVERY run of the released phase (never released; for
  // checks that every run trained with the one canary set).
  std::vector<std::vector<double>> job_scores;
};

// Runs the private search `config` with canaries and audits its released model. `options`:
// canaries m, mode, confidence, seed (the canaries' and coins'), canary_norm (white-box: 0 =
// each run's C), black-box canary kind and guess sets as in the one-run audit; its delta is
// replaced by the procedure's and its on_step is not called (progress: hooks.on_runner).
// `run_options`: threads and priority (models are always kept: the winner's is scored). Throws
// InvalidArgument naming the problem: explore, secure mode, repeats > 1, random-direction
// white-box canaries, and what the search or the canaries refuse.
TuningAuditResult run_tuning_release_audit(const experiment::ExperimentConfig& config,
                                           const audit::OneRunAuditOptions& options,
                                           tuning::RunOptions run_options = {},
                                           const SearchSessionHooks& hooks = {});

// What the audit scores, in one sentence for every output that prints the bound.
inline constexpr const char* kTuningAuditScores =
    "the released winner's final model only (a search releases no per-step gradients and nothing "
    "of the other runs)";

}  // namespace dplab::release
