// Playground studies (issue #27): the few-second computations some lessons need beyond the one
// live run, each built from whole PlaygroundSession runs (or the engine's objective
// perturbation), each cancellable between runs (the GUI runs them on a worker and cancels a
// study whose settings went stale).
//
//   alpha_clip_grid   the alpha-C coupling (main paper, section 4): final test accuracy of the
//                     current setting over a 5 x 5 grid alpha x 10^{-1, -1/2, 0, 1/2, 1} by
//                     C x 10^{-1, ..., 1}. Under DPSGD the update is alpha times a clipped mean of
//                     size about C, so the good cells lie along alpha C = const (an anti-diagonal
//                     on the log-log grid); DPAdam's update is scale-free in C, so its good cells
//                     fill a band in alpha alone (the paper's argument that DPAdam needs fewer
//                     candidates).
//   seed_spread       the current setting rerun with 5 distinct seeds (training.seed + k,
//                     k = 0..4); for every recorded step the MIN and MAX over the seeds of each
//                     curve (a min-max band: with 5 runs, the whole range seen, no distributional
//                     claim).
//   objpert_baseline  objective perturbation (Algorithm 1 of Redberg, Koskela & Wang, with the
//                     paper's calibration, objective_perturbation/calibration.h) trained on the
//                     same training points and features as a logistic regression, calibrated to
//                     the SAME (epsilon, delta) as the current DP-SGD setting (its RDP epsilon):
//                     its test accuracy and its decision field, for the lesson "objective
//                     perturbation vs DP-SGD on a linear task".
//   clip_sweep        the clipping norm's trade-off (Abadi et al. 2016, section 3.1; lesson 1):
//                     final test accuracy of the current setting at the kSweepSize clips
//                     kSweepClips (0.01 ... 10 in a 1-2-5 sequence, log-spaced), same data and
//                     seed, everything but C as set; beside each DP run the same run clipped to
//                     C without noise (NoiseMode::kClipOnly: not private). Too small a C and even
//                     the noise-free run falls (every gradient is cut to length C: a biased,
//                     short step); too large a C and only the DP run falls (the noise sigma C
//                     grows with C, the signal stops growing once nothing is clipped).
//   trained_run       one setting trained to its T: its history and its p = 1/2 boundary, as
//                     the live run would show them at T (the run a lesson pins before its own
//                     setting trains beside it: playground_lesson.h "pinned").
// Every private run here touches the training data: the GUI records each run's setting in the
// ledger (the sweep's noise-free runs are references like the non-private shadow, not
// candidates).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "playground/decision_boundary.h"
#include "playground/playground_session.h"

namespace dplab::playground {

// Returns true when the caller wants the study abandoned (checked between runs); may be empty.
using CancelCheck = std::function<bool()>;

inline constexpr int kGridSize = 5;
inline constexpr int kSpreadSeeds = 5;

struct AlphaClipGrid {
  std::vector<double> alphas, clips;     // kGridSize each, increasing
  std::vector<double> test_accuracy;     // row-major: [clip index * kGridSize + alpha index]
  std::vector<PlaygroundSettings> runs;  // the setting of each cell, same order
  bool cancelled = false;                // abandoned part-way: test_accuracy is incomplete
};
// The grid around settings' (alpha, C); the settings must be private.
AlphaClipGrid alpha_clip_grid(const PlaygroundSettings& settings,
                              const CancelCheck& cancelled = {});

struct SpreadBand {
  std::vector<std::int64_t> steps;  // the recorded steps (as in one run's history)
  std::vector<double> test_accuracy_min, test_accuracy_max;
  std::vector<double> test_loss_min, test_loss_max;
};
struct SeedSpread {
  std::vector<std::uint64_t> seeds;                  // kSpreadSeeds distinct training seeds
  std::vector<std::vector<HistoryPoint>> histories;  // one per seed, T steps each
  std::vector<PlaygroundSettings> runs;
  SpreadBand band;
  bool cancelled = false;
};
SeedSpread seed_spread(const PlaygroundSettings& settings, const CancelCheck& cancelled = {});
// The min-max band of histories recorded at the same steps (throws InvalidArgument otherwise).
SpreadBand min_max_band(const std::vector<std::vector<HistoryPoint>>& histories);

inline constexpr int kSweepSize = 10;
inline constexpr double kSweepClips[kSweepSize] = {0.01, 0.02, 0.05, 0.1, 0.2,
                                                   0.5,  1.0,  2.0,  5.0, 10.0};

struct ClipSweep {
  std::vector<double> clips;                // kSweepClips
  std::vector<double> test_accuracy;        // the DP run at each clip
  std::vector<double> noise_free_accuracy;  // the same run clipped without noise (sigma = 0)
  std::vector<PlaygroundSettings> runs;     // the DP setting of each clip, same order
  bool cancelled = false;                   // abandoned part-way: the vectors are incomplete
  // The index of the best DP accuracy (the smallest such clip on a tie; 0 when empty) and its
  // clip (NaN when empty).
  std::size_t best_index() const;
  double best_clip() const;
};
// The sweep of settings' C; the settings must be private with flat clipping (under automatic
// clipping C has no effect: InvalidArgument).
ClipSweep clip_sweep(const PlaygroundSettings& settings, const CancelCheck& cancelled = {});
// The setting a sweep describes: settings with C replaced by a fixed value, so that two settings
// that differ only in C have the same sweep (the GUI keeps the curve and moves the mark).
PlaygroundSettings sweep_key(const PlaygroundSettings& settings);

struct TrainedRun {
  PlaygroundSettings settings;
  std::vector<HistoryPoint> history;      // T steps
  std::vector<BoundarySegment> boundary;  // of the decision field at field_resolution
};
TrainedRun trained_run(const PlaygroundSettings& settings, int field_resolution = 100);

struct ObjPertBaseline {
  double target_epsilon = 0;  // the DP-SGD setting's RDP epsilon at delta
  double epsilon = 0;         // Algorithm 1's epsilon (Theorem 4.1, RDP), <= target_epsilon
  double delta = 0;
  double noise_std = 0, regularization = 0;  // sigma, lambda from the calibration
  double test_accuracy = 0;                  // sign(x^T theta) on the test points
  DecisionField field;  // p = sigmoid(x^T theta) over the plane (GLM design of each grid point)
};
// Throws InvalidArgument (not private), dplab::Error (calibration or solver failure).
ObjPertBaseline objpert_baseline(const PlaygroundSettings& settings, int field_resolution = 60);

}  // namespace dplab::playground
