#include "cli/tune_dataset.h"

namespace dplab::cli {

void add_tune_dataset_flags(CLI::App& command, Arguments& args) {
  add_value(command, args, "dataset",
            "search on this data instead of the experiment's: a built-in name or a CSV / IDX / "
            "LIBSVM file (read as train --dataset reads it); the experiment's split stays",
            "NAME|PATH");
  add_value(command, args, "label-column", "with --dataset: the CSV label column (default: last)",
            "NAME");
}

void apply_tune_dataset_flags(const Arguments& args, experiment::ExperimentConfig& config) {
  const auto dataset = args.text("dataset");
  if (!dataset) {
    if (args.has("label-column")) throw UsageError("--label-column: only with --dataset");
    return;
  }
  if (args.has("resume")) throw UsageError("--dataset: not with --resume (the run keeps its data)");
  if (args.has("plan")) {
    throw UsageError(
        "--dataset: not with --plan (the shards read the experiment file): put the data in the "
        "experiment's \"dataset\" section");
  }
  if (dataset->empty()) throw UsageError("--dataset: empty");
  auto& d = config.dataset;
  d.source = *dataset;
  d.path.clear();
  d.format = "auto";
  d.num_samples.reset();
  d.dim.reset();
  d.label_column = args.text_or("label-column", "");
  d.categorical.clear();
  d.csv = data::CsvReading{};  // the file's reading keys are for its data; the flags still apply
}

}  // namespace dplab::cli
