// PlaygroundSession (issue #27): one small DP-SGD run on a Playground data set that a teaching
// view steps a few updates at a time and draws. Everything is the engine's own machinery:
//   model      logistic regression (models/logistic_regression.h) or a custom network of 1-2
//              dense hidden layers of <= 8 tanh / ReLU units (models/network_description.h);
//   optimizer  DPSGD, DPMomentum, DPAdam or DP-AdamBC (optim/), asking the NoisyGradientOracle
//              (dp_gradient/noisy_gradient.h) for g~ = (S + N(0, sigma^2 C^2 I)) / L, Poisson lots;
//              non-private = the same optimizer with sigma = 0 and no clipping (as the CLI's
//              sgd / momentum / adam baselines);
//   clipping   flat, g_i min(1, C / ||g_i||), or automatic, g_i / (||g_i|| + gamma) with gamma =
//              0.01 (Bu et al. 2023, models/clipping.h): C is then 1, the sensitivity, whatever
//              training.clip says (it has no effect: run_identity drops it);
//   epsilon    privacy/accounting/accountant_choice.h run_epsilon (RDP or PLD) of T steps of
//   (sigma, q = L/n).
// Features: (x, y) and optionally x^2, y^2, x y (TF Playground's feature columns).
//
// After each call to step(), picture() explains the LAST update (Abadi et al. 2016, Alg. 1):
// for every example i of its lot, the gradient g_i at the parameters before the update projected
// onto two chosen parameters, the clipped g_i min(1, C / ||g_i||) (full-vector norm, so the
// projected clipped vector has norm <= C), their sum S = sum_i clipped g_i (Model::
// clipped_gradient_sum, the oracle's own call), the noise Z = L g~ - S the oracle drew, and the
// update theta_after - theta_before. Also the fraction of the lot clipped (||g_i|| > C) and the
// signal-to-noise ratio ||S|| / (sigma C sqrt(d)) (d = number of parameters: the norm of the
// noise vector is about sigma C sqrt(d)).
//
// Determinism: the same settings give the same parameters after the same number of steps, however
// the steps are chunked (model init, lots and noise come from streams derived from training.seed).
// Thread-safety: none; one session per thread (the GUI steps it on a worker).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/types.h"
#include "data/dataset.h"
#include "dp_gradient/noisy_gradient.h"
#include "models/model.h"
#include "optim/optimizer.h"
#include "playground/playground_data.h"
#include "privacy/accounting/accountant_choice.h"

namespace dplab::playground {

enum class HiddenActivation { kTanh, kRelu };
// kFixedQuantile: DPSGD whose clip C_t follows a target quantile (0.5) of the per-example
// gradient norms (Andrew et al. 2021, optim/fixed_quantile.h); training.clip is C_0. One joint
// query per step at multiplier sigma, so the accountant charges exactly what DPSGD's step costs.
// kDpAdamBc: DP-AdamBC (Tang et al. 2024, optim/dp_adam_bc.h), Adam with the noise variance
// (sigma C / L)^2 removed from its second moment.
enum class OptimizerChoice { kDpSgd, kDpMomentum, kDpAdam, kFixedQuantile, kDpAdamBc };

std::string to_string(HiddenActivation activation);  // "tanh" | "relu"
std::string to_string(OptimizerChoice optimizer);    // "dpsgd" | "dpmomentum" | "dpadam" |
                                                     // "fixed-quantile" | "dpadam-bc"
HiddenActivation parse_hidden_activation(const std::string& text);
OptimizerChoice parse_optimizer_choice(const std::string& text);

inline constexpr int kMaxHiddenLayers = 2;
inline constexpr int kMaxHiddenUnits = 8;
// The plane drawn: [-kPlaneExtent, kPlaneExtent]^2 (the data lie in about [-1, 1]^2).
inline constexpr double kPlaneExtent = 1.3;

struct FeatureSet {
  bool x_squared = false, y_squared = false, xy = false;
  Index dim() const { return 2 + Index{x_squared} + Index{y_squared} + Index{xy}; }
  bool operator==(const FeatureSet&) const = default;
};

struct ModelOptions {
  std::vector<int> hidden;  // units per hidden layer; empty = logistic regression
  HiddenActivation activation = HiddenActivation::kTanh;
  FeatureSet features;
  bool operator==(const ModelOptions&) const = default;
};

// The threads one step's lot is split over (issue #49, models/batch_parallel_model.h): the chunks
// are fixed by the lot's size, so the count changes no float of the run. Hence it never makes two
// settings differ (its == is always true), and it is not saved with them (playground_state.h).
// 1..training::kMaxLotThreads (training::require_lot_threads).
struct StepThreads {
  int count = 1;
  bool operator==(const StepThreads&) const { return true; }
};

// The GUI's choice: the machine's hardware threads, at most 2.
int default_step_threads();

struct TrainingOptions {
  OptimizerChoice optimizer = OptimizerChoice::kDpSgd;
  bool is_private = true;           // false: sigma = 0, no clipping
  double learning_rate = 0.5;       // alpha
  double noise_multiplier = 1.0;    // sigma
  double clip = 1.0;                // C (flat clipping; unused under automatic clipping)
  bool automatic_clipping = false;  // g_i / (||g_i|| + 0.01), C = 1 (not with kFixedQuantile)
  double lot_size = 50;             // L (expected; q = L / n_train)
  std::int64_t steps = 300;         // T
  double delta = 1e-5;              // delta of the epsilon shown (does not change the run)
  std::uint64_t seed = 1;           // model init, lots, noise
  StepThreads threads;              // how the lot's work is split (no float changes)
  bool operator==(const TrainingOptions&) const = default;
};

struct PlaygroundSettings {
  DataOptions data;
  ModelOptions model;
  TrainingOptions training;
  bool operator==(const PlaygroundSettings&) const = default;
};

// The same settings without privacy (the "shadow" run drawn beside the private one).
PlaygroundSettings non_private_shadow(const PlaygroundSettings& settings);

// Throws InvalidArgument naming the field ("training.clip", "model.hidden[1]", ...).
void validate(const PlaygroundSettings& settings);

// Columns x, y, [x^2], [y^2], [x y] of m points (m x 2) in that order.
Matrix expand_features(const Matrix& xy, const FeatureSet& features);

// The mechanism of a setting on n_train training points: T steps of (sigma, q = L / n_train).
privacy::SubsampledGaussian mechanism_of(const TrainingOptions& training, Index train_size);
// Epsilon of the whole run (T steps) at training.delta; +infinity when not private.
double setting_epsilon(const TrainingOptions& training, Index train_size,
                       privacy::Accountant accountant);

struct Vec2 {
  double x = 0, y = 0;
};

struct HistoryPoint {
  std::int64_t step = 0;
  double train_loss = 0, train_accuracy = 0, test_loss = 0, test_accuracy = 0;
  // Test accuracy of the majority (group 0) and of the minority cluster (group 1; NaN if none).
  double majority_test_accuracy = 0, minority_test_accuracy = 0;
  // The clip the next step uses: C, or C_t under adaptive clipping (kFixedQuantile).
  double clip = 0;
};

struct StepPicture {
  std::int64_t step = 0;  // the update shown (1-based); 0 = no step yet
  int param_a = 0, param_b = 1;
  std::vector<Index> lot;       // training rows of the lot
  std::vector<Vec2> gradients;  // g_i projected, one per lot row
  std::vector<Vec2> clipped;    // c_i g_i projected (c_i = min(1, C / ||g_i||), or automatic)
  std::vector<double> norms;    // ||g_i|| (all parameters)
  Vec2 clipped_sum, noise, update;
  double clip = 0;              // C, or C_t of this step (adaptive); +infinity when not private;
                                // 1 (the sensitivity) under automatic clipping
  double noise_std = 0;         // sigma C (adaptive: z_Delta C_t), std of each noise coordinate
  double expected_lot = 0;      // L
  double fraction_clipped = 0;  // #{c_i < 1} / |lot| (0 for an empty lot)
  double signal_to_noise = 0;   // ||S|| / (sigma C sqrt(d)); +infinity when not private
  Index outlier_in_lot = -1;    // index into gradients of the outlier, -1 if not in the lot
};

// p(class 1) on a res x res grid over [-kPlaneExtent, kPlaneExtent]^2; row 0 is the TOP (y max).
struct DecisionField {
  int resolution = 0;
  std::vector<float> probability;
};

// Which noise a session's steps add: the setting's (kAsSet), or none while still clipping as the
// setting says (kClipOnly, sigma = 0: the bias of clipping alone, the C sweep's noise-free
// reference in playground_studies.h). A kClipOnly run is NOT private: its epsilon() and
// epsilon_spent() are +infinity and its picture's noise is 0.
enum class NoiseMode { kAsSet, kClipOnly };

class PlaygroundSession {
 public:
  // Generates the data from settings.data.
  explicit PlaygroundSession(const PlaygroundSettings& settings);
  // Shares already generated data (the shadow run uses the private run's data); data->options
  // must equal settings.data.
  PlaygroundSession(const PlaygroundSettings& settings, std::shared_ptr<const PlaygroundData> data,
                    NoiseMode noise = NoiseMode::kAsSet);
  ~PlaygroundSession();
  PlaygroundSession(const PlaygroundSession&) = delete;
  PlaygroundSession& operator=(const PlaygroundSession&) = delete;

  // Takes up to `count` updates (stops at T); returns how many were taken.
  std::int64_t step(std::int64_t count);
  std::int64_t steps_taken() const { return steps_; }
  bool finished() const { return steps_ >= settings_.training.steps; }

  const PlaygroundSettings& settings() const { return settings_; }
  const std::shared_ptr<const PlaygroundData>& data() const { return data_; }
  const Vector& parameters() const;
  Index num_params() const;
  // "w_x", "w_y", "w_x2", ..., "b" (logistic); "L1 W[x->2]", "L1 b[2]", ... (networks).
  std::vector<std::string> parameter_names() const;
  // Which two parameters picture() projects on (default 0 and 1); validated.
  void set_projection(int param_a, int param_b);

  const std::vector<HistoryPoint>& history() const { return history_; }
  const StepPicture& picture() const { return picture_; }
  // Whether step() explains its last update (on by default); the shadow run, whose step is never
  // drawn, turns it off and saves the per-example gradients of a lot per chunk.
  void set_explain(bool on) { explain_ = on; }
  DecisionField decision_field(int resolution);

  // Epsilon of this setting's whole run and of the steps taken so far (RDP or PLD).
  double epsilon(privacy::Accountant accountant) const;
  double epsilon_spent(privacy::Accountant accountant) const;

 private:
  void build();
  void record_history();
  void explain_step(const Vector& before, double clip, double noise_std);
  double current_clip() const;                    // the clip the next step uses (C_t when adaptive)
  models::Clipping clip_rule(double clip) const;  // the setting's rule (flat/automatic) at clip
  double current_noise_std() const;               // the std of the noise on the next step's sum
  void project_picture();

  // The last update in full (all d parameters), projected by project_picture().
  struct LastStep {
    std::int64_t step = 0;
    std::vector<Index> lot;
    Matrix gradients;  // |lot| x d, row i = g_i at the parameters before the update
    Vector sum, noise, update;
    double clip = 0, noise_std = 0;  // C (or C_t) and the noise std on the sum of this step
  };

  PlaygroundSettings settings_;
  std::shared_ptr<const PlaygroundData> data_;
  NoiseMode noise_ = NoiseMode::kAsSet;
  data::Dataset train_, test_;
  std::unique_ptr<models::Model> model_;
  std::unique_ptr<models::Model> probe_;  // a clone at the parameters before the update
  std::unique_ptr<optim::Optimizer> optimizer_;
  std::unique_ptr<privacy::NoisyGradientOracle> oracle_;
  std::int64_t steps_ = 0;
  std::int64_t history_every_ = 1;
  std::vector<HistoryPoint> history_;
  LastStep last_;
  StepPicture picture_;
  int param_a_ = 0, param_b_ = 1;
  bool explain_ = true;
  int grid_resolution_ = 0;  // decision_field's grid features, kept while resolution is unchanged
  Matrix grid_features_;
  Matrix logits_;
};

}  // namespace dplab::playground
