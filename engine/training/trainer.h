// Trainer: runs one DP training job — T noisy-gradient queries of an optimizer on a model —
// and reports a learning curve. This is the unit of work of the tuning runner and of
// `dplab-cli train`.
//
// Iterations are counted in noisy-gradient queries, which is what the accountant composes:
// an ADADP adaptation step makes two queries and so advances the curve by two
// (docs/architecture.md). The curve's train_loss is the mean lot loss since the previous point
// (free: the oracle computes it anyway); the final training loss over the whole training set is
// computed once.
//
// Determinism: model initialisation and the oracle's sampling/noise streams are derived from
// TrainingConfig::seed only, so the same config and seed give bit-identical curves on any thread.
// Thread-safety: train() touches only its arguments; run many jobs concurrently on shared data.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "data/dataset.h"
#include "dp_gradient/noisy_gradient.h"
#include "models/model.h"
#include "models/model_export.h"
#include "optim/optimizer.h"

namespace dplab {
class PauseGate;
}

namespace dplab::training {

struct CurvePoint {
  std::int64_t iteration = 0;  // noisy-gradient queries made so far
  double train_loss = 0;       // mean lot loss since the previous point
  double val_loss = 0;         // mean loss on the validation set
  double val_accuracy = 0;     // validation accuracy (NaN for regression and reconstruction)
  double epsilon = 0;          // privacy spent so far (NaN when no accountant hook is given)
  double step_size = 0;        // optimizer's effective step size (paper Theorem 3 chart)
  double clip = 0;             // clipping threshold C of the next step: the live C_t of the
                               // adaptive optimizers (OSO-DPSGD, FixedQuantile), else the run's C
                               // (OSO-DPSGD's live rho_t is step_size)
  double val_mse = std::numeric_limits<double>::quiet_NaN();  // validation mean squared error
                                                              // (regression, reconstruction; NaN
                                                              // for classification)
};

struct TrainingConfig {
  models::ModelSpec model;
  optim::OptimizerSpec optimizer;
  privacy::DpSettings dp;
  std::int64_t steps = 1000;      // T, noisy-gradient queries
  std::int64_t eval_every = 100;  // a curve point every this many queries (and at the end)
  std::uint64_t seed = 0;
  // Secure noise: the lots and the Gaussian noise come from OS entropy (getrandom) and a ChaCha20
  // stream instead of `seed` (which then only initialises the model).
  bool secure = false;
  // Reproduction variant, never the default: divide by the realised |lot| instead of L
  // (NoisyGradientOracle::set_divide_by_realized_lot; epsilon does not cover it).
  bool divide_by_realized_lot = false;
  // One run on several cores (issue #49): 0 (the default, every search's jobs) trains the model
  // itself; 1..kMaxLotThreads splits each lot's per-example work over that many threads with a
  // partition fixed by the lot's size (models/batch_parallel_model.h), so every value >= 1 gives
  // the same floats bit for bit (and equal to the value 0 to rounding). The noise is drawn once
  // per query on the calling thread, seeded or secure alike.
  int threads = 0;
};

// The largest TrainingConfig::threads (a lot is cut into at most this many chunks).
inline constexpr int kMaxLotThreads = 8;
// The one rule of a thread count that splits a lot: an integer in [1, kMaxLotThreads];
// InvalidArgument naming `field` ("--threads", "threads") otherwise.
void require_lot_threads(std::string_view field, double threads);

// An audit's hold on one training job: the audit of a tuning release (release/
// tuning_audit.h) trains the search's own jobs, through the runner, with its canaries. Each
// member has a do-nothing default; the trainer calls them on the job's thread.
class TrainingInstrumentation {
 public:
  virtual ~TrainingInstrumentation() = default;
  // The model to train in place of `model`, before it is initialised (the audit pads it with
  // reserved coordinates, audit/reserved_coordinates_model.h). What the job exports is what the
  // returned model describes (models/model_export.h).
  virtual std::unique_ptr<models::Model> wrap_model(std::unique_ptr<models::Model> model) {
    return model;
  }
  // Extra clipped examples of every query (dp_gradient/noisy_gradient.h, ClippedSumHook); not
  // owned, alive until on_trained; nullptr: none.
  virtual privacy::ClippedSumHook* clipped_sum_hook() { return nullptr; }
  // The trained model after the last step (its full parameters), before it is exported.
  virtual void on_trained(const models::Model& model) { (void)model; }
};

struct TrainingHooks {
  std::function<void(const CurvePoint&)> on_point;            // called on the job's thread
  std::function<double(std::int64_t queries)> epsilon_after;  // accountant; may be empty
  std::function<void(std::int64_t queries)> on_step;          // progress; may be empty
  const std::atomic<bool>* cancel = nullptr;                  // checked before every step
  // Waited on before every step (core/pause_gate.h): a paused job sleeps with its state intact.
  PauseGate* pause = nullptr;
  TrainingInstrumentation* instrumentation = nullptr;  // not owned; may be null
};

struct TrainingResult {
  std::vector<CurvePoint> curve;
  models::Evaluation final_validation;
  double final_train_loss = 0;  // mean loss over the whole training set at the end
  std::int64_t queries = 0;
  double wall_seconds = 0;
  // Where wall_seconds went (issue #49, tuning/search_efficiency.h): inside the optimizer's steps
  // (the DP steps: lot, per-example gradients, clipping, noise, update), and in the evaluations
  // (each curve point's validation pass, the final validation and training-loss passes). The
  // rest is setup (model, oracle) and the guards.
  double step_seconds = 0;
  double evaluation_seconds = 0;
  bool cancelled = false;
  // Training stopped because the PARAMETERS diverged (diverged_parameters below; lr, C or sigma
  // too large). Decided from the parameters only — a post-processing of the run's DP output —
  // never from a loss: an un-noised loss on the private lot or the validation set would make
  // "did this run count?" depend on private data. Selection scores such a run as the worst score
  // (tuning: accuracy 0, training loss +inf), it is not dropped.
  bool diverged = false;
  std::string divergence;  // "the parameters are not finite at step 12", for messages
  // Guards against silent failure (training/training_guards.h): the realised lot sizes drifted
  // from q n beyond a binomial bound, or no parameter moved by more than float resolution.
  // Empty for a sound run; the CLI prints each as a warning.
  std::vector<std::string> warnings;
  // The model at the end of training (its spec, shape and parameters: models/model_export.h),
  // what a release writes as model.npz / model.json. Null when training failed before it.
  std::shared_ptr<const models::ExportedModel> model;
};

// A bound on ||theta||_2 far above any model dplab trains (features in [0, 1] or standardised)
// and far below float overflow (3.4e38), so logits stay finite where the check passes.
inline constexpr double kDivergedParameterNorm = 1e15;

// Why the parameters count as diverged ("" if they do not): a non-finite entry, or
// ||theta||_2 > kDivergedParameterNorm.
std::string diverged_parameters(VectorView params);

// Validates the config (steps >= 1, eval_every >= 1, model/data compatibility, DP settings) and
// throws InvalidArgument naming the field. Cancellation takes effect before the next step; the
// partial curve is returned with cancelled = true.
TrainingResult train(const data::TrainValidationSplit& data, const TrainingConfig& config,
                     const TrainingHooks& hooks = {});

}  // namespace dplab::training
