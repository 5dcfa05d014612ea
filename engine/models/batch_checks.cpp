// Shape checks shared by the models (see batch_checks.h).
#include "models/batch_checks.h"

#include <string>

#include "core/error.h"
#include "core/validate.h"
#include "models/model.h"

namespace dplab::models::detail {

namespace {

[[noreturn]] void fail(std::string_view model, const std::string& message) {
  throw InvalidArgument(std::string(model) + ": " + message);
}

std::string describe_classes(int num_classes) {
  return num_classes == 0 ? std::string("regression targets (num_classes = 0)")
                          : std::to_string(num_classes) + " classes";
}

}  // namespace

void check_batch(std::string_view model, Index input_dim, const MatrixView& x,
                 const VectorView& y) {
  if (x.cols() != input_dim) {
    fail(model, "x has " + std::to_string(x.cols()) +
                    " columns (features) but the model was built for input_dim = " +
                    std::to_string(input_dim));
  }
  if (y.size() != x.rows()) {
    fail(model, "y has " + std::to_string(y.size()) + " targets but x has " +
                    std::to_string(x.rows()) + " rows");
  }
}

void check_gradient_outputs(std::string_view model, Index num_params, Index rows,
                            const Clipping& clip, const VectorSpan& gradient_sum,
                            const VectorSpan& norms) {
  check_clipping(std::string(model), clip);
  if (gradient_sum.size() != num_params) {
    fail(model, "gradient_sum has " + std::to_string(gradient_sum.size()) +
                    " entries but the model has " + std::to_string(num_params) + " parameters");
  }
  const bool norms_skipped = norms.size() == 0 && !clip.needs_norms();
  if (norms.size() != rows && !norms_skipped) {
    fail(model, "norms has " + std::to_string(norms.size()) + " entries but the batch has " +
                    std::to_string(rows) + " rows");
  }
}

void check_dataset(std::string_view model, Index input_dim, int num_classes,
                   const data::Dataset& data) {
  const std::string which =
      data.name.empty() ? std::string("data set") : "data set '" + data.name + "'";
  if (data.size() == 0) fail(model, "cannot evaluate on an empty " + which);
  if (data.dim() != input_dim) {
    fail(model,
         which + " has " + std::to_string(data.dim()) +
             " features but the model was built for input_dim = " + std::to_string(input_dim));
  }
  if (data.targets.size() != data.size()) {
    fail(model, which + " has " + std::to_string(data.targets.size()) + " targets for " +
                    std::to_string(data.size()) + " rows");
  }
  if (data.num_classes != num_classes) {
    fail(model, which + " has " + describe_classes(data.num_classes) +
                    " but the model was built for " + describe_classes(num_classes));
  }
}

}  // namespace dplab::models::detail
