#include "release/predictions.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/number_text.h"
#include "data/feature_rows.h"

namespace dplab::release {

namespace {
constexpr Index kPredictBlockRows = 4096;  // rows of features converted and evaluated at once
}

Matrix model_outputs(const LoadedModel& loaded, const data::Dataset& input) {
  const Index n = input.size();
  Matrix outputs;
  Matrix block;
  for (Index start = 0; start < n; start += kPredictBlockRows) {
    const Index m = std::min(kPredictBlockRows, n - start);
    const MatrixView x = data::feature_rows(input, start, m, block);
    const Matrix p = models::predict_outputs(*loaded.model, loaded.exported.graph.output, x);
    if (outputs.size() == 0) outputs.resize(n, p.cols());
    outputs.middleRows(start, m) = p;
  }
  return outputs;
}

csv::CsvTable predictions_table(const LoadedModel& loaded, const Matrix& outputs,
                                const std::vector<long>& rows) {
  const models::ModelGraph& graph = loaded.exported.graph;
  const auto& classes = loaded.input.class_names;
  const auto class_name = [&](Index k) {
    return static_cast<std::size_t>(k) < classes.size() ? classes[static_cast<std::size_t>(k)]
                                                        : std::to_string(k);
  };
  csv::CsvTable table;
  table.header = {"row"};
  const bool classify = graph.output != models::OutputKind::kIdentity;
  const bool regression = !classify && graph.num_classes == 0 && outputs.cols() == 1;
  if (classify) {
    table.header.push_back("predicted");
    for (Index k = 0; k < outputs.cols(); ++k) table.header.push_back("p_" + class_name(k));
  } else if (regression) {
    table.header.push_back("predicted");
  } else {
    for (Index k = 0; k < outputs.cols(); ++k)
      table.header.push_back("output_" + std::to_string(k));
  }
  table.rows.reserve(static_cast<std::size_t>(outputs.rows()));
  for (Index i = 0; i < outputs.rows(); ++i) {
    std::vector<std::string> row;
    row.push_back(rows.empty() ? std::to_string(i)
                               : std::to_string(rows[static_cast<std::size_t>(i)]));
    if (classify) {
      Index best = 0;
      outputs.row(i).maxCoeff(&best);
      row.push_back(class_name(best));
    }
    for (Index k = 0; k < outputs.cols(); ++k) row.push_back(number_text(outputs(i, k)));
    table.rows.push_back(std::move(row));
  }
  const auto& privacy = loaded.json.value("privacy", nlohmann::json::object());
  table.constant_columns.push_back(
      {"epsilon_label", privacy.value("epsilon_label", std::string("(no privacy card)"))});
  return table;
}

double prediction_score(const LoadedModel& loaded, const Matrix& outputs,
                        const data::Dataset& input) {
  if (outputs.rows() != input.size()) throw InvalidArgument("predictions and rows differ in count");
  const bool classify = loaded.exported.graph.output != models::OutputKind::kIdentity;
  if (!classify && (outputs.cols() != 1 || loaded.exported.graph.num_classes != 0)) {
    return std::nan("");  // a reconstruction: no label to compare with
  }
  double total = 0;
  for (Index i = 0; i < outputs.rows(); ++i) {
    if (classify) {
      Index best = 0;
      outputs.row(i).maxCoeff(&best);
      total += static_cast<float>(best) == input.targets[i] ? 1.0 : 0.0;
    } else {
      const double e = outputs(i, 0) - input.targets[i];
      total += e * e;
    }
  }
  return outputs.rows() ? total / static_cast<double>(outputs.rows()) : 0.0;
}

}  // namespace dplab::release
