// Model: a differentiable model with all parameters in one flat vector, so optimizers work on
// plain vectors. The DP-critical entry point is clipped_gradient_sum, which returns the sum of
// per-example gradients each clipped to norm C *without materialising them*:
// for a dense layer with inputs a_i and back-propagated errors e_i the per-example weight
// gradient is the rank-1 matrix a_i e_i^T, so ||g_i||^2 = ||a_i||^2 ||e_i||^2 (+ ||e_i||^2 for
// the bias), and the clipped sum is A^T diag(c) E with c_i = min(1, C / ||g_i||)
// (docs/architecture.md). The rule c_i is a Clipping (clipping.h): flat, as above, or automatic,
// c_i = C / (||g_i|| + gamma) (Bu et al. 2023); a plain number C means flat clipping to C.
//
// Loss convention: per-example losses; batch functions return the *sum* over the batch rows
// (the optimizer divides by the expected lot size L, as the papers do).
//
// Thread-safety: a Model owns scratch buffers and is not thread-safe; use one instance per job
// (clone()).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "core/types.h"
#include "data/dataset.h"
#include "models/clipping.h"
#include "models/model_graph.h"

namespace dplab::models {

// Rows processed per block by loss_sum, evaluate and clipped_gradient_sum: bounds the models'
// scratch memory whatever the number of rows passed in (a lot of L = 250 is a single block).
inline constexpr Index kBlockRows = 1024;

struct Evaluation {
  double mean_loss = 0;  // mean per-example loss (MSE/2 for linear, cross-entropy otherwise)
  double accuracy = 0;   // fraction correct; for regression: NaN
  double mse = 0;        // mean squared error for regression; NaN for classification
};

class Model {
 public:
  virtual ~Model() = default;

  virtual std::string name() const = 0;
  // Name with the layer shapes for people, e.g. "tlnn 784-100-10". Defaults to name().
  virtual std::string description() const { return name(); }
  Index num_params() const { return params_.size(); }
  Vector& params() { return params_; }
  const Vector& params() const { return params_; }

  // Sets the initial parameters (zeros for linear models, seeded random for networks).
  virtual void initialize(std::uint64_t seed) = 0;

  // Sum of per-example losses over the rows of (x, y).
  virtual double loss_sum(const MatrixView& x, const VectorView& y) = 0;

  // Computes the per-example gradient norms ||g_i|| (into norms, size = rows of x) and the
  // clipped gradient sum sum_i c_i g_i (into gradient_sum, size num_params) with the rule's
  // c_i = clip.factor(||g_i||) (clipping.h: flat min(1, C/||g_i||), or automatic
  // C/(||g_i|| + gamma)). A number C is flat clipping to C; clip = kNoClipping gives the plain
  // gradient sum. Returns the sum of per-example losses. The rule is checked (check_clipping:
  // C > 0, or kNoClipping when flat). With flat kNoClipping, norms may also be empty (size 0):
  // the norms are then not computed (a non-private step). Shapes are checked (InvalidArgument).
  virtual double clipped_gradient_sum(const MatrixView& x, const VectorView& y,
                                      const Clipping& clip, VectorSpan gradient_sum,
                                      VectorSpan norms) = 0;

  // sum_i weights[i] g_i (weights: one per row of x, any real value; no clipping, no norms) into
  // gradient_sum; returns the sum of per-example losses. OSO-DPSGD's clipped-direction sum uses
  // weights 1/||g_i|| on the clipped examples. The default calls clipped_gradient_sum row by row
  // (correct for any model); the real models override it with one weighted backward pass.
  virtual double weighted_gradient_sum(const MatrixView& x, const VectorView& y,
                                       const VectorView& weights, VectorSpan gradient_sum);

  // Loss and accuracy (or MSE) over a whole data set, evaluated in blocks.
  virtual Evaluation evaluate(const data::Dataset& data) = 0;

  // The outputs before the loss head (logits) of every row of x, at the current parameters, into
  // `out` (resized to x.rows() x outputs; a binary logistic model has one column, a network one per
  // class). For views that draw the decision function (the Playground's field). The default throws
  // InvalidArgument (a model without it); the dense models and the networks override it.
  virtual void logits(const MatrixView& x, Matrix& out);

  // The forward pass as data (model_graph.h) at the current parameters: fills graph.ops,
  // graph.tensors (concatenated in order: params()) and graph.output. The default throws
  // InvalidArgument (a model that cannot leave dplab, e.g. the audit's wrappers).
  virtual void describe_graph(ModelGraph& graph) const;

  virtual std::unique_ptr<Model> clone() const = 0;

 protected:
  Vector params_;

 private:
  Vector row_gradient_;  // scratch of the default weighted_gradient_sum
  Vector row_norm_;
};

enum class ModelKind {
  kLinearRegression,
  kLogisticRegression,
  kTwoLayerNetwork,
  kCnn,              // conv network, network_description.h (Opacus / OSO MNIST classifier)
  kConvAutoencoder,  // the OSO appendix's Fashion-MNIST autoencoder (reconstruction MSE)
  kWideCnn,          // Tramer & Boneh's end-to-end CIFAR-10 CNN on 28x28x1 (issue #49)
  kCustom,           // a user's network description (network_description.h, ModelSpec::network)
};

// Reproduction variants of logistic regression (docs/reproduction.md); the defaults are dplab's.
// Binary output: one sigmoid logit (default), or the main paper's code's two-class softmax
// (torch Linear(d, 2) + CrossEntropyLoss): logits z_0, z_1, p(1) = sigmoid(z_1 - z_0). The two are
// the same family with w = w_1 - w_0, but each softmax row gets +-(the sigmoid gradient), so a step
// on (w_0, w_1) moves w twice as far (SGD: 2 alpha; Adam: about 2 alpha per coordinate) and the
// per-example gradient norm is sqrt(2) times larger before clipping.
enum class BinaryOutput { kSigmoid, kTwoClassSoftmax };
// Initialisation: zeros (default), or torch.nn.Linear's default, W, b ~ U(-1/sqrt(d), 1/sqrt(d)).
enum class LinearInit { kZeros, kUniformFanIn };

struct ModelSpec {
  ModelKind kind = ModelKind::kLogisticRegression;
  int hidden_units = 100;  // TLNN only (paper: one hidden layer of 100 units)
  std::string network;     // kCustom only: the JSON description (network_description.h)
  BinaryOutput binary_output = BinaryOutput::kSigmoid;  // logistic only
  LinearInit linear_init = LinearInit::kZeros;          // logistic only
};

// Builds a model for a data set's shape: linear (regression), logistic (binary: one output with
// sigmoid; multiclass: softmax) or TLNN (ReLU hidden layer, softmax/sigmoid output).
std::unique_ptr<Model> make_model(const ModelSpec& spec, Index input_dim, int num_classes);

// "linear" | "logistic" | "tlnn" | "cnn" | "conv-autoencoder" | "wide-cnn" | "custom"
ModelKind parse_model_kind(const std::string& text);
std::string to_string(ModelKind kind);
// The names parse_model_kind takes, in that order, joined by `separator` ("linear, logistic, ...");
// without "custom" when include_custom is false (dplab-cli train takes no custom network). Help
// texts and error messages list the models through this, so a new kind appears in all of them.
std::string model_kind_names(const std::string& separator, bool include_custom = true);

}  // namespace dplab::models
