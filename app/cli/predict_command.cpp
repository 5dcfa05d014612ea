// `dplab-cli predict --model DIR --dataset FILE --out preds.csv`: applies a released model
// (model.npz + model.json, release/model_artefact.h) to a new file with the model's own input
// encoding — CSV columns matched by name, one-hot levels and scaling as in training — and writes
// one row of predictions per input row (release/predictions.h).
#include <cmath>
#include <cstdio>
#include <memory>

#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "core/csv_table.h"
#include "core/number_text.h"
#include "data/csv_loader.h"
#include "release/model_artefact.h"
#include "release/predictions.h"

namespace dplab::cli {
namespace {

int run_predict(const Arguments& args) {
  const std::string model_dir = *args.text("model");
  const std::string dataset = *args.text("dataset");
  const std::string out = *args.text("out");
  require_output_file(out, "--out");  // before the model and the data are read
  const release::LoadedModel model = release::read_model_folder(model_dir);
  std::vector<long> lines;  // a CSV's data lines, one per row
  bool has_labels = false;  // a CSV without the label column: nothing to score against
  const data::Dataset input = release::load_model_input(model, dataset, &lines, &has_labels);
  // What reading the rows changed (rows dropped or values imputed by the model's missing-value
  // rule), as train and tune say it.
  for (const auto& note : input.notes)
    std::fprintf(stderr, "dplab-cli predict: note: %s\n", note.c_str());
  const Matrix outputs = release::model_outputs(model, input);
  csv::write_csv_file(out, release::predictions_table(model, outputs, lines));
  std::fprintf(stderr, "dplab-cli predict: %s: %lld rows -> %s (model: %s)\n", dataset.c_str(),
               static_cast<long long>(input.size()), out.c_str(),
               model.exported.graph.description.c_str());
  const double score = release::prediction_score(model, outputs, input);
  if (std::isfinite(score) && has_labels) {
    std::fprintf(stderr, "dplab-cli predict: %s against the file's labels: %s\n",
                 model.exported.graph.output == models::OutputKind::kIdentity ? "mean squared error"
                                                                              : "accuracy",
                 number_text(score).c_str());
  }
  return 0;
}

}  // namespace

void add_predict_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_predict_flags(cli, *args), [args] { return run_predict(*args); });
}

}  // namespace dplab::cli
