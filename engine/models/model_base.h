// ModelBase: what the three models share. A model maps a block of input rows to logits z
// (m x outputs) and puts an output head on them (output_head.h); this class owns the head, the
// shape checks and the loop over blocks of at most kBlockRows rows, so that
//     loss_sum(x, y)              = sum_i loss(z_i, y_i)
//     clipped_gradient_sum(...)   = sum over blocks of the subclass's block_gradient
//     evaluate(data)              = mean loss, accuracy (argmax / z > 0) or MSE
// work for any number of rows with scratch memory bounded by kBlockRows rows.
//
// Internal to engine/models; construct models with make_model or the concrete classes.
// Thread-safety: not thread-safe (scratch buffers); clone() per thread.
#pragma once

#include <string>

#include "models/model.h"
#include "models/output_head.h"

namespace dplab::models::detail {

class ModelBase : public Model {
 public:
  std::string name() const final { return name_; }
  Index input_dim() const { return input_dim_; }
  int num_classes() const { return num_classes_; }  // 0 = regression
  Index num_outputs() const { return outputs_; }    // columns of the logits

  double loss_sum(const MatrixView& x, const VectorView& y) final;
  double clipped_gradient_sum(const MatrixView& x, const VectorView& y, const Clipping& clip,
                              VectorSpan gradient_sum, VectorSpan norms) final;
  double weighted_gradient_sum(const MatrixView& x, const VectorView& y, const VectorView& weights,
                               VectorSpan gradient_sum) final;
  Evaluation evaluate(const data::Dataset& data) final;
  void logits(const MatrixView& x, Matrix& out) final;

 protected:
  // name: the kind token ("linear", "logistic", "tlnn"). Throws unless input_dim >= 1.
  ModelBase(std::string name, Index input_dim, int num_classes, OutputHead head);

  // Grows the subclass's scratch buffers to hold `rows` (<= kBlockRows) rows.
  virtual void reserve_rows(Index rows) = 0;
  // Logits of the m = x.rows() <= kBlockRows rows of x, at the current parameters: a pointer
  // to a contiguous row-major m x num_outputs() block of the subclass's scratch.
  virtual float* forward(const MatrixView& x) = 0;
  // One block (m = x.rows() <= kBlockRows rows): computes the per-example losses (returns their
  // sum), writes the per-example squared gradient norms into squared_norms_ when need_norms,
  // calls clip_factors with `clip` and `norms` (may be null), and writes (accumulate = false)
  // or adds (accumulate = true) the clipped gradient sum into grad (num_params floats).
  virtual double block_gradient(const MatrixView& x, const float* y, const Clipping& clip,
                                bool need_norms, float* norms, float* grad, bool accumulate) = 0;

  // The graph head (model_graph.h) of this model's output head.
  OutputKind graph_output() const;
  // Appends one dense op (this model's input_dim() or `inputs` -> `outputs`) with its weight and
  // bias tensors "<name>.weight" [inputs, outputs] and "<name>.bias" [outputs] read from params.
  static void add_dense_op(ModelGraph& graph, const std::string& name, Index inputs, Index outputs,
                           const float* params);

  // loss_and_error of the head on m x num_outputs() logits, using the shared scratch.
  double head_loss_and_error(float* z, Index m, const float* y);

  // Per-block scratch shared with subclasses: squared norms and clip factors (>= m entries).
  Vector squared_norms_;
  Vector factors_;
  // Set only inside weighted_gradient_sum: the block's weights, used by block_gradient instead
  // of clip factors (block_gradient is then called with need_norms = false).
  const float* explicit_factors_ = nullptr;

 private:
  void reserve(Index rows);

  std::string name_;
  Index input_dim_;
  int num_classes_;
  OutputHead head_;
  Index outputs_;
  Vector head_scratch_;
  Matrix input_scratch_;  // evaluate: one block of pixel rows converted to floats
};

}  // namespace dplab::models::detail
