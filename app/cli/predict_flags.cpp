// The flags of `dplab-cli predict` (declared here, read by predict_command.cpp).
#include "cli/command_flags.h"

namespace dplab::cli {

CLI::App* add_predict_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(
      cli, "predict",
      "apply a released model (model.npz + model.json) to a data file, write predictions");
  add_value(*cmd, args, "model",
            "a model folder (model.json + model.npz), or a release folder holding model/", "DIR")
      .required();
  add_value(*cmd, args, "dataset",
            "rows to predict: a CSV with the training file's columns (any order; the label "
            "column may be absent; the delimiter detected; missing values handled by the "
            "model's recorded --na-values / --na-policy: a dropped row gets no prediction, "
            "impute-mean uses the training means), or an IDX / LIBSVM file of the model's input "
            "size",
            "FILE")
      .required();
  add_value(*cmd, args, "out", "predictions CSV to write", "FILE").required();
  set_footer(*cmd,
             "Output: one row per input row: row (the CSV line), predicted, and p_<class> for each "
             "class (or the predicted value); epsilon_label: the model's privacy label.");
  add_examples(*cmd, {"dplab-cli predict --model runs/mine --dataset my-data.csv --out "
                      "predictions.csv   # runs/mine: the model of train's example"});
  return cmd;
}

}  // namespace dplab::cli
