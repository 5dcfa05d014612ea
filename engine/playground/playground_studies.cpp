#include "playground/playground_studies.h"

#include <cmath>

#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"
#include "objective_perturbation/algorithm1.h"
#include "objective_perturbation/calibration.h"
#include "objective_perturbation/glm_data.h"

namespace dplab::playground {
namespace {

// 10^{-1, -1/2, 0, 1/2, 1}: a log grid two decades wide centred on the current value.
constexpr double kGridFactors[kGridSize] = {0.1, 0.31622776601683794, 1.0, 3.1622776601683795,
                                            10.0};

bool stop(const CancelCheck& cancelled) {
  return cancelled && cancelled();
}

std::vector<HistoryPoint> run_to_end(const PlaygroundSettings& s,
                                     const std::shared_ptr<const PlaygroundData>& data,
                                     NoiseMode noise = NoiseMode::kAsSet) {
  PlaygroundSession session(s, data, noise);
  session.step(s.training.steps);
  return session.history();
}

data::Dataset logistic_dataset(const PointSet& points, const FeatureSet& features) {
  data::Dataset d;
  d.features = expand_features(points.xy, features);
  d.targets = points.labels;
  d.num_classes = 2;
  return d;
}

}  // namespace

AlphaClipGrid alpha_clip_grid(const PlaygroundSettings& settings, const CancelCheck& cancelled) {
  validate(settings);
  if (!settings.training.is_private) {
    throw InvalidArgument("alpha-C grid: the setting is not private (there is no C to vary)");
  }
  AlphaClipGrid grid;
  for (double f : kGridFactors) {
    grid.alphas.push_back(settings.training.learning_rate * f);
    grid.clips.push_back(settings.training.clip * f);
  }
  const auto data = std::make_shared<const PlaygroundData>(make_playground_data(settings.data));
  for (int c = 0; c < kGridSize; ++c) {
    for (int a = 0; a < kGridSize; ++a) {
      if (stop(cancelled)) {
        grid.cancelled = true;
        return grid;
      }
      PlaygroundSettings s = settings;
      s.training.learning_rate = grid.alphas[static_cast<std::size_t>(a)];
      s.training.clip = grid.clips[static_cast<std::size_t>(c)];
      grid.test_accuracy.push_back(run_to_end(s, data).back().test_accuracy);
      grid.runs.push_back(s);
    }
  }
  return grid;
}

std::size_t ClipSweep::best_index() const {
  std::size_t best = 0;
  for (std::size_t i = 1; i < test_accuracy.size(); ++i) {
    if (test_accuracy[i] > test_accuracy[best]) best = i;
  }
  return best;
}

double ClipSweep::best_clip() const {
  return test_accuracy.empty() ? std::nan("") : clips[best_index()];
}

PlaygroundSettings sweep_key(const PlaygroundSettings& settings) {
  PlaygroundSettings key = settings;
  key.training.clip = 1.0;
  return key;
}

ClipSweep clip_sweep(const PlaygroundSettings& settings, const CancelCheck& cancelled) {
  validate(settings);
  if (!settings.training.is_private) {
    throw InvalidArgument("C sweep: the setting is not private (there is no C to vary)");
  }
  if (settings.training.automatic_clipping) {
    throw InvalidArgument(
        "C sweep: under automatic clipping C has no effect (every gradient is scaled to norm "
        "< 1 whatever C)");
  }
  ClipSweep sweep;
  const auto data = std::make_shared<const PlaygroundData>(make_playground_data(settings.data));
  for (double clip : kSweepClips) {
    if (stop(cancelled)) {
      sweep.cancelled = true;
      return sweep;
    }
    PlaygroundSettings s = settings;
    s.training.clip = clip;
    sweep.clips.push_back(clip);
    sweep.test_accuracy.push_back(run_to_end(s, data).back().test_accuracy);
    sweep.noise_free_accuracy.push_back(
        run_to_end(s, data, NoiseMode::kClipOnly).back().test_accuracy);
    sweep.runs.push_back(s);
  }
  return sweep;
}

TrainedRun trained_run(const PlaygroundSettings& settings, int field_resolution) {
  PlaygroundSession session(settings);
  session.step(settings.training.steps);
  TrainedRun run;
  run.settings = settings;
  run.history = session.history();
  run.boundary = decision_boundary(session.decision_field(field_resolution));
  return run;
}

SpreadBand min_max_band(const std::vector<std::vector<HistoryPoint>>& histories) {
  SpreadBand band;
  if (histories.empty()) return band;
  const std::size_t points = histories.front().size();
  for (const auto& h : histories) {
    if (h.size() != points) throw InvalidArgument("spread: the runs recorded different steps");
  }
  for (std::size_t i = 0; i < points; ++i) {
    const std::int64_t step = histories.front()[i].step;
    double acc_lo = INFINITY, acc_hi = -INFINITY, loss_lo = INFINITY, loss_hi = -INFINITY;
    for (const auto& h : histories) {
      if (h[i].step != step) throw InvalidArgument("spread: the runs recorded different steps");
      acc_lo = std::fmin(acc_lo, h[i].test_accuracy);
      acc_hi = std::fmax(acc_hi, h[i].test_accuracy);
      loss_lo = std::fmin(loss_lo, h[i].test_loss);
      loss_hi = std::fmax(loss_hi, h[i].test_loss);
    }
    band.steps.push_back(step);
    band.test_accuracy_min.push_back(acc_lo);
    band.test_accuracy_max.push_back(acc_hi);
    band.test_loss_min.push_back(loss_lo);
    band.test_loss_max.push_back(loss_hi);
  }
  return band;
}

SeedSpread seed_spread(const PlaygroundSettings& settings, const CancelCheck& cancelled) {
  validate(settings);
  SeedSpread spread;
  const auto data = std::make_shared<const PlaygroundData>(make_playground_data(settings.data));
  for (int k = 0; k < kSpreadSeeds; ++k) {
    if (stop(cancelled)) {
      spread.cancelled = true;
      return spread;
    }
    PlaygroundSettings s = settings;
    s.training.seed = settings.training.seed + static_cast<std::uint64_t>(k);
    spread.seeds.push_back(s.training.seed);
    spread.histories.push_back(run_to_end(s, data));
    spread.runs.push_back(s);
  }
  spread.band = min_max_band(spread.histories);
  return spread;
}

ObjPertBaseline objpert_baseline(const PlaygroundSettings& settings, int field_resolution) {
  validate(settings);
  if (!settings.training.is_private) {
    throw InvalidArgument(
        "objective perturbation: the setting is not private (no epsilon to match)");
  }
  if (field_resolution < 2 || field_resolution > 1000) {
    fail_field("resolution", field_resolution, "must be between 2 and 1000");
  }
  const PlaygroundData data = make_playground_data(settings.data);
  const FeatureSet& f = settings.model.features;
  const objpert::GlmData train = objpert::make_glm_data(logistic_dataset(data.train, f));
  const objpert::GlmData test = objpert::make_glm_data(logistic_dataset(data.test, f));

  ObjPertBaseline out;
  out.delta = settings.training.delta;
  out.target_epsilon =
      setting_epsilon(settings.training, data.train.size(), privacy::Accountant::kRdp);
  // Algorithm 1 with the paper's section 5 defaults (C = sqrt 2, tau, sigma_out), sigma and
  // lambda calibrated to the DP-SGD setting's (epsilon, delta).
  objpert::Algorithm1Settings a;
  a.loss = objpert::GlmLoss::kLogistic;
  a.seed = derive_seed(settings.training.seed, 31);
  objpert::CalibrationRequest request;
  request.epsilon = out.target_epsilon;
  request.delta = out.delta;
  request.gradient_bound = a.clip;
  request.smoothness = objpert::smoothness_of(a.loss, train);
  request.tau = a.tau;
  request.output_noise_std = a.output_noise_std;
  const objpert::Calibration cal = objpert::calibrate_algorithm1(request);
  a.noise_std = cal.privacy.noise_std;
  a.regularization = cal.privacy.regularization;
  out.noise_std = a.noise_std;
  out.regularization = a.regularization;
  out.epsilon = objpert::algorithm1_rdp_epsilon(objpert::privacy_of(a, train), out.delta);
  const objpert::Algorithm1Result result = objpert::run_algorithm1(train, a);
  out.test_accuracy = objpert::glm_accuracy(test, result.theta);

  // The field: each grid point through the same design map (unit-norm row, then the bias).
  const Index cells = Index{field_resolution} * field_resolution;
  PointSet grid;
  grid.xy.resize(cells, 2);
  grid.labels = Vector::Zero(cells);
  const double step = 2.0 * kPlaneExtent / (field_resolution - 1);
  for (int r = 0; r < field_resolution; ++r) {
    for (int c = 0; c < field_resolution; ++c) {
      const Index i = Index{r} * field_resolution + c;
      grid.xy(i, 0) = static_cast<float>(-kPlaneExtent + c * step);
      grid.xy(i, 1) = static_cast<float>(kPlaneExtent - r * step);
    }
  }
  const objpert::GlmData design = objpert::make_glm_data(logistic_dataset(grid, f));
  const Eigen::VectorXd margin = design.x * result.theta;
  out.field.resolution = field_resolution;
  out.field.probability.resize(static_cast<std::size_t>(cells));
  for (Index i = 0; i < cells; ++i) {
    out.field.probability[static_cast<std::size_t>(i)] =
        static_cast<float>(1.0 / (1.0 + std::exp(-margin[i])));
  }
  return out;
}

}  // namespace dplab::playground
