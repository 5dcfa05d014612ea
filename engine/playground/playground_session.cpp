#include "playground/playground_session.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/random.h"
#include "core/validate.h"
#include "models/batch_parallel_model.h"
#include "optim/fixed_quantile.h"
#include "training/trainer.h"

namespace dplab::playground {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::vector<std::string> feature_names(const FeatureSet& f) {
  std::vector<std::string> names{"x", "y"};
  if (f.x_squared) names.push_back("x2");
  if (f.y_squared) names.push_back("y2");
  if (f.xy) names.push_back("xy");
  return names;
}

// The custom network's description (network_description.h): dense hidden layers with the chosen
// activation, then a 2-unit softmax layer.
std::string network_json(const ModelOptions& model) {
  nlohmann::json layers = nlohmann::json::array();
  for (int units : model.hidden) {
    layers.push_back({{"type", "dense"}, {"units", units}});
    layers.push_back({{"type", to_string(model.activation)}});
  }
  layers.push_back({{"type", "dense"}, {"units", 2}});
  return nlohmann::json{
      {"name", "playground"}, {"input", {1, 1, model.features.dim()}}, {"layers", layers}}
      .dump();
}

data::Dataset to_dataset(const PointSet& points, const FeatureSet& features,
                         const std::string& name) {
  data::Dataset d;
  d.name = name;
  d.features = expand_features(points.xy, features);
  d.targets = points.labels;
  d.num_classes = 2;
  d.feature_names = feature_names(features);
  d.class_names = {"0", "1"};
  return d;
}

optim::OptimizerKind kind_of(OptimizerChoice choice) {
  switch (choice) {
    case OptimizerChoice::kDpSgd:
      return optim::OptimizerKind::kDpSgd;
    case OptimizerChoice::kDpMomentum:
      return optim::OptimizerKind::kDpMomentum;
    case OptimizerChoice::kDpAdam:
      return optim::OptimizerKind::kDpAdam;
    case OptimizerChoice::kDpAdamBc:
      return optim::OptimizerKind::kDpAdamBc;
    case OptimizerChoice::kFixedQuantile:
      return optim::OptimizerKind::kFixedQuantile;
  }
  return optim::OptimizerKind::kDpSgd;
}

privacy::DpSettings dp_settings(const TrainingOptions& t) {
  if (!t.is_private) return {models::kNoClipping, 0.0, t.lot_size};
  privacy::DpSettings dp{t.clip, t.noise_multiplier, t.lot_size};
  if (t.automatic_clipping) {  // Bu et al.: C = 1, the sensitivity; gamma their default 0.01
    dp.clip = 1.0;
    dp.clipping = models::ClippingMode::kAutomatic;
    dp.clip_stability = models::kDefaultClipStability;
  }
  return dp;
}

Vec2 project(const Vector& v, int a, int b) {
  return {static_cast<double>(v[a]), static_cast<double>(v[b])};
}

}  // namespace

std::string to_string(HiddenActivation activation) {
  return activation == HiddenActivation::kTanh ? "tanh" : "relu";
}

std::string to_string(OptimizerChoice optimizer) {
  switch (optimizer) {
    case OptimizerChoice::kDpSgd:
      return "dpsgd";
    case OptimizerChoice::kDpMomentum:
      return "dpmomentum";
    case OptimizerChoice::kDpAdam:
      return "dpadam";
    case OptimizerChoice::kDpAdamBc:
      return "dpadam-bc";
    case OptimizerChoice::kFixedQuantile:
      return "fixed-quantile";
  }
  return "?";
}

HiddenActivation parse_hidden_activation(const std::string& text) {
  if (text == "tanh") return HiddenActivation::kTanh;
  if (text == "relu") return HiddenActivation::kRelu;
  // No key path here (the reader adds it); the name as a bounded excerpt.
  throw InvalidArgument("unknown activation " + json_excerpt(nlohmann::json(text)) +
                        " (expected tanh or relu)");
}

OptimizerChoice parse_optimizer_choice(const std::string& text) {
  for (auto c : {OptimizerChoice::kDpSgd, OptimizerChoice::kDpMomentum, OptimizerChoice::kDpAdam,
                 OptimizerChoice::kFixedQuantile, OptimizerChoice::kDpAdamBc}) {
    if (to_string(c) == text) return c;
  }
  throw InvalidArgument("unknown optimizer " + json_excerpt(nlohmann::json(text)) +
                        " (expected dpsgd, dpmomentum, dpadam, fixed-quantile or dpadam-bc)");
}

PlaygroundSettings non_private_shadow(const PlaygroundSettings& settings) {
  PlaygroundSettings shadow = settings;
  shadow.training.is_private = false;
  return shadow;
}

void validate(const PlaygroundSettings& s) {
  if (s.model.hidden.size() > static_cast<std::size_t>(kMaxHiddenLayers)) {
    fail_field("model.hidden", static_cast<double>(s.model.hidden.size()),
               "at most 2 hidden layers");
  }
  for (std::size_t l = 0; l < s.model.hidden.size(); ++l) {
    const int units = s.model.hidden[l];
    if (units < 1 || units > kMaxHiddenUnits) {
      fail_field("model.hidden[" + std::to_string(l) + "]", units, "must be between 1 and 8 units");
    }
  }
  const TrainingOptions& t = s.training;
  require_positive("training.learning_rate", t.learning_rate);
  require_finite("training.learning_rate", t.learning_rate);
  require_positive("training.lot_size", t.lot_size);
  require_finite("training.lot_size", t.lot_size);
  if (t.steps < 1 || t.steps > 1000000) {
    fail_field("training.steps", static_cast<double>(t.steps), "must be between 1 and 1000000");
  }
  require_open_interval("training.delta", t.delta, 0.0, 1.0);
  training::require_lot_threads("training.threads", t.threads.count);
  if (t.automatic_clipping && t.optimizer == OptimizerChoice::kFixedQuantile) {
    throw InvalidArgument(
        "training.clipping: automatic clipping has no C_t to adapt; fixed-quantile needs flat "
        "clipping");
  }
  if (t.is_private) {
    require_positive("training.clip", t.clip);
    require_finite("training.clip", t.clip);
    require_positive("training.noise_multiplier", t.noise_multiplier);
    require_finite("training.noise_multiplier", t.noise_multiplier);
  }
}

Matrix expand_features(const Matrix& xy, const FeatureSet& f) {
  Matrix out(xy.rows(), f.dim());
  out.col(0) = xy.col(0);
  out.col(1) = xy.col(1);
  Index c = 2;
  if (f.x_squared) out.col(c++) = xy.col(0).array().square().matrix();
  if (f.y_squared) out.col(c++) = xy.col(1).array().square().matrix();
  if (f.xy) out.col(c++) = (xy.col(0).array() * xy.col(1).array()).matrix();
  return out;
}

privacy::SubsampledGaussian mechanism_of(const TrainingOptions& t, Index train_size) {
  const double q = std::min(1.0, t.lot_size / static_cast<double>(train_size));
  return {t.is_private ? t.noise_multiplier : 0.0, q, t.steps};
}

double setting_epsilon(const TrainingOptions& t, Index train_size, privacy::Accountant accountant) {
  if (!t.is_private) return kInfinity;
  return privacy::run_epsilon(mechanism_of(t, train_size), 1, t.delta, accountant).epsilon;
}

PlaygroundSession::PlaygroundSession(const PlaygroundSettings& settings)
    : PlaygroundSession(
          settings, std::make_shared<const PlaygroundData>(make_playground_data(settings.data))) {}

PlaygroundSession::PlaygroundSession(const PlaygroundSettings& settings,
                                     std::shared_ptr<const PlaygroundData> data, NoiseMode noise)
    : settings_(settings), data_(std::move(data)), noise_(noise) {
  validate(settings_);
  if (!data_ || !(data_->options == settings_.data)) {
    throw InvalidArgument("playground: the shared data were generated with other data options");
  }
  build();
}

PlaygroundSession::~PlaygroundSession() = default;

int default_step_threads() {
  return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 2u));
}

void PlaygroundSession::build() {
  const FeatureSet& f = settings_.model.features;
  train_ = to_dataset(data_->train, f, "playground-train");
  test_ = to_dataset(data_->test, f, "playground-test");
  const TrainingOptions& t = settings_.training;
  if (t.lot_size > static_cast<double>(train_.size())) {
    fail_field("training.lot_size", t.lot_size,
               "must be <= the training set size n = " + std::to_string(train_.size()));
  }
  models::ModelSpec spec;
  if (settings_.model.hidden.empty()) {
    spec.kind = models::ModelKind::kLogisticRegression;
  } else {
    spec.kind = models::ModelKind::kCustom;
    spec.network = network_json(settings_.model);
  }
  // Always through the fixed chunks (issue #49): any thread count gives these floats, and a lot of
  // fewer than 160 rows (every lesson's) is one chunk, the model's own call.
  model_ = std::make_unique<models::BatchParallelModel>(*models::make_model(spec, f.dim(), 2),
                                                        t.threads.count);
  model_->initialize(derive_seed(t.seed, 11));
  probe_ = model_->clone();
  // Without privacy there is nothing to clip adaptively: the shadow of adaptive clipping is SGD.
  const bool adaptive = t.is_private && t.optimizer == OptimizerChoice::kFixedQuantile;
  optim::OptimizerSpec ospec = optim::default_spec(
      adaptive || t.optimizer != OptimizerChoice::kFixedQuantile ? kind_of(t.optimizer)
                                                                 : optim::OptimizerKind::kDpSgd);
  ospec.learning_rate = t.learning_rate;
  privacy::DpSettings dp = dp_settings(t);
  if (noise_ == NoiseMode::kClipOnly) dp.noise_multiplier = 0;  // clipped as set, no noise
  optimizer_ = optim::make_optimizer(ospec, {model_->num_params(), t.steps, dp});
  oracle_ =
      std::make_unique<privacy::NoisyGradientOracle>(train_, *model_, dp, derive_seed(t.seed, 12));
  oracle_->keep_last_release(true);
  // About 200 points per curve whatever T (and always the last step).
  history_every_ = std::max<std::int64_t>(1, t.steps / 200);
  record_history();
  project_picture();
}

const Vector& PlaygroundSession::parameters() const {
  return model_->params();
}
Index PlaygroundSession::num_params() const {
  return model_->num_params();
}

std::vector<std::string> PlaygroundSession::parameter_names() const {
  const std::vector<std::string> inputs = feature_names(settings_.model.features);
  std::vector<std::string> names;
  if (settings_.model.hidden.empty()) {
    for (const auto& in : inputs) names.push_back("w_" + in);
    names.push_back("b");
    return names;
  }
  // Each dense layer: [W row-major (in x units), b (units)].
  std::vector<std::string> layer_inputs = inputs;
  std::vector<int> widths = settings_.model.hidden;
  widths.push_back(2);
  for (std::size_t l = 0; l < widths.size(); ++l) {
    const std::string layer = std::string("L").append(std::to_string(l + 1));
    for (const auto& in : layer_inputs) {
      for (int j = 0; j < widths[l]; ++j) {
        names.push_back(layer + " W " + in + "->" + std::to_string(j + 1));
      }
    }
    for (int j = 0; j < widths[l]; ++j)
      names.push_back(std::string(layer).append(" b").append(std::to_string(j + 1)));
    layer_inputs.clear();
    for (int j = 0; j < widths[l]; ++j)
      layer_inputs.push_back(std::string("h").append(std::to_string(j + 1)));
  }
  return names;
}

void PlaygroundSession::set_projection(int param_a, int param_b) {
  const auto d = static_cast<double>(num_params());
  if (param_a < 0 || param_a >= d) fail_field("projection.a", param_a, "is not a parameter index");
  if (param_b < 0 || param_b >= d) fail_field("projection.b", param_b, "is not a parameter index");
  param_a_ = param_a;
  param_b_ = param_b;
  project_picture();
}

std::int64_t PlaygroundSession::step(std::int64_t count) {
  std::int64_t taken = 0;
  Vector before;
  while (taken < count && !finished()) {
    const bool last = explain_ && (taken + 1 == count || steps_ + 1 == settings_.training.steps);
    double clip = 0, noise_std = 0;
    if (last) {
      before = model_->params();
      clip = current_clip();
      noise_std = current_noise_std();
    }
    optimizer_->step(*model_, *oracle_);
    ++steps_;
    ++taken;
    if (last) explain_step(before, clip, noise_std);
    if (steps_ % history_every_ == 0 || finished()) record_history();
  }
  return taken;
}

void PlaygroundSession::record_history() {
  if (!history_.empty() && history_.back().step == steps_) return;
  HistoryPoint h;
  h.step = steps_;
  const models::Evaluation train = model_->evaluate(train_);
  const models::Evaluation test = model_->evaluate(test_);
  h.train_loss = train.mean_loss;
  h.train_accuracy = train.accuracy;
  h.test_loss = test.mean_loss;
  h.test_accuracy = test.accuracy;
  // Per-group test accuracy: the class with the larger logit (sigmoid output: z > 0), as
  // Model::evaluate counts a prediction.
  model_->logits(test_.features, logits_);
  Index correct[2] = {0, 0}, total[2] = {0, 0};
  for (Index i = 0; i < test_.size(); ++i) {
    const int predicted = logits_.cols() == 1 ? (logits_(i, 0) > 0.f ? 1 : 0)
                                              : (logits_(i, 1) > logits_(i, 0) ? 1 : 0);
    const int g = data_->test.groups[static_cast<std::size_t>(i)];
    ++total[g];
    if (predicted == static_cast<int>(test_.targets[i])) ++correct[g];
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  h.majority_test_accuracy = total[0] ? static_cast<double>(correct[0]) / total[0] : nan;
  h.minority_test_accuracy = total[1] ? static_cast<double>(correct[1]) / total[1] : nan;
  h.clip = current_clip();
  history_.push_back(h);
}

double PlaygroundSession::current_clip() const {
  const TrainingOptions& t = settings_.training;
  if (!t.is_private) return kInfinity;
  const double adaptive = optimizer_->clip_threshold();          // C_t, NaN for a fixed C
  return std::isnan(adaptive) ? dp_settings(t).clip : adaptive;  // automatic: 1
}

models::Clipping PlaygroundSession::clip_rule(double clip) const {
  return dp_settings(settings_.training).clip_rule(clip);
}

double PlaygroundSession::current_noise_std() const {
  const TrainingOptions& t = settings_.training;
  if (!t.is_private || noise_ == NoiseMode::kClipOnly) return 0.0;
  // Andrew et al.'s split: the gradient's share z_Delta of the joint multiplier sigma.
  if (const auto* q = dynamic_cast<const optim::FixedQuantile*>(optimizer_.get())) {
    return q->gradient_noise_multiplier() * current_clip();
  }
  return t.noise_multiplier * current_clip();
}

void PlaygroundSession::explain_step(const Vector& before, double clip, double noise_std) {
  const TrainingOptions& t = settings_.training;
  LastStep& s = last_;
  s.lot = oracle_->last_lot_indices();
  const Index m = static_cast<Index>(s.lot.size());
  const Index d = model_->num_params();
  probe_->params() = before;
  Matrix x(m, train_.dim());
  Vector y(m);
  for (Index i = 0; i < m; ++i) {
    const Index row = s.lot[static_cast<std::size_t>(i)];
    x.row(i) = train_.features.row(row);
    y[i] = train_.targets[row];
  }
  // Per-example gradients, one row at a time (exactly g_i: clip = none).
  s.gradients.resize(m, d);
  Vector g(d), norm(1);
  for (Index i = 0; i < m; ++i) {
    probe_->clipped_gradient_sum(x.middleRows(i, 1), y.segment(i, 1), models::kNoClipping, g, norm);
    s.gradients.row(i) = g.transpose();
  }
  // S: the oracle's own call on the same rows at the same parameters (and the same C_t).
  s.clip = clip;
  s.noise_std = noise_std;
  s.sum.resize(d);
  Vector norms(m);
  probe_->clipped_gradient_sum(x, y, clip_rule(clip), s.sum, norms);
  s.noise = Vector::Zero(d);
  s.update = model_->params() - before;
  if (t.is_private && t.optimizer == OptimizerChoice::kFixedQuantile) {
    // The adaptive query keeps no copy of g~; FixedQuantile descends theta -= alpha g~, so
    // g~ = -update / alpha and Z = L g~ - S.
    s.noise = -static_cast<float>(t.lot_size / t.learning_rate) * s.update - s.sum;
  } else if (t.is_private && oracle_->last_release().size() == d) {
    s.noise = static_cast<float>(t.lot_size) * oracle_->last_release() - s.sum;
  }
  s.step = steps_;
  project_picture();
}

void PlaygroundSession::project_picture() {
  const TrainingOptions& t = settings_.training;
  const LastStep& s = last_;
  StepPicture p;
  p.step = s.step;
  p.param_a = param_a_;
  p.param_b = param_b_;
  p.lot = s.lot;
  p.clip = s.step > 0 ? s.clip : current_clip();
  p.noise_std = s.step > 0 ? s.noise_std : current_noise_std();
  p.expected_lot = t.lot_size;
  const Index m = s.gradients.rows();
  const Index d = s.gradients.cols();
  Index clipped = 0;
  const models::Clipping rule = clip_rule(p.clip);
  for (Index i = 0; i < m; ++i) {
    if (s.lot[static_cast<std::size_t>(i)] == data_->outlier_index) p.outlier_in_lot = i;
    const double n = s.gradients.row(i).cast<double>().norm();
    // c_i = min(1, C / ||g_i||), or C / (||g_i|| + gamma), on the FULL vector (the oracle's
    // rule, models/clipping.h): the projection of c_i g_i has norm <= C.
    const double factor = rule.factor(n);
    if (factor < 1.0) ++clipped;
    const Vec2 v{s.gradients(i, param_a_), s.gradients(i, param_b_)};
    p.gradients.push_back(v);
    p.clipped.push_back({v.x * factor, v.y * factor});
    p.norms.push_back(n);
  }
  if (s.step > 0) {
    p.clipped_sum = project(s.sum, param_a_, param_b_);
    p.noise = project(s.noise, param_a_, param_b_);
    p.update = project(s.update, param_a_, param_b_);
    p.signal_to_noise =
        t.is_private && noise_ == NoiseMode::kAsSet
            ? s.sum.cast<double>().norm() / (p.noise_std * std::sqrt(static_cast<double>(d)))
            : kInfinity;
  }
  p.fraction_clipped = m > 0 ? static_cast<double>(clipped) / static_cast<double>(m) : 0.0;
  picture_ = std::move(p);
}

DecisionField PlaygroundSession::decision_field(int resolution) {
  if (resolution < 2 || resolution > 1000) {
    fail_field("resolution", resolution, "must be between 2 and 1000");
  }
  const Index cells = Index{resolution} * resolution;
  if (grid_resolution_ != resolution) {  // the grid depends on the resolution and features only
    Matrix xy(cells, 2);
    const double step = 2.0 * kPlaneExtent / (resolution - 1);
    for (int r = 0; r < resolution; ++r) {
      for (int c = 0; c < resolution; ++c) {
        const Index i = Index{r} * resolution + c;
        xy(i, 0) = static_cast<float>(-kPlaneExtent + c * step);
        xy(i, 1) = static_cast<float>(kPlaneExtent - r * step);
      }
    }
    grid_features_ = expand_features(xy, settings_.model.features);
    grid_resolution_ = resolution;
  }
  // One batched forward pass over every cell.
  model_->logits(grid_features_, logits_);
  DecisionField field;
  field.resolution = resolution;
  field.probability.resize(static_cast<std::size_t>(cells));
  for (Index i = 0; i < cells; ++i) {
    // Sigmoid of the one logit, or of z1 - z0 for the two-class softmax.
    const float z = logits_.cols() == 1 ? logits_(i, 0) : logits_(i, 1) - logits_(i, 0);
    field.probability[static_cast<std::size_t>(i)] = 1.f / (1.f + std::exp(-z));
  }
  return field;
}

double PlaygroundSession::epsilon(privacy::Accountant accountant) const {
  if (noise_ == NoiseMode::kClipOnly) return kInfinity;
  return setting_epsilon(settings_.training, train_.size(), accountant);
}

double PlaygroundSession::epsilon_spent(privacy::Accountant accountant) const {
  if (noise_ == NoiseMode::kClipOnly) return kInfinity;
  if (steps_ == 0) return 0.0;
  TrainingOptions so_far = settings_.training;
  so_far.steps = steps_;
  return setting_epsilon(so_far, train_.size(), accountant);
}

}  // namespace dplab::playground
