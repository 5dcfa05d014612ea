#include "cli/sparse_options.h"

#include <filesystem>

#include "core/error.h"
#include "core/limits.h"
#include "core/validate.h"
#include "data/shipped_datasets.h"

namespace dplab::cli {

const char* const kSparsePresetFooter =
    "Fixed at the paper's Table 1: b = 20, S1 = 15, S2 = 0.05, S0 = 0.1, epsilon = 20 (noise) +\n"
    "10 (selection), delta = 1e-5; Adam lr 0.001 and gamma = 0.001 unless --learning-rate and\n"
    "--gamma change them.";

std::string default_kjv_corpus() {
  // Found like every shipped data set ($DPLAB_DATA_DIR, the installed share folder, the source
  // tree), not relative to the working directory.
  return data::find_generated_shipped_file(
      "kjv/kjv.txt",
      "run scripts/make-kjv-corpus.sh (needs the Debian packages bible-kjv-text and bible-kjv) "
      "or pass --corpus FILE");
}

void add_sparse_preset_flags(CLI::App& cmd, Arguments& args) {
  add_value(
      cmd, args, "corpus",
      "plain-text corpus (default kjv/kjv.txt in the shipped data folder: $DPLAB_DATA_DIR, the "
      "installed share/dplab/datasets or the source tree's datasets/; written by "
      "scripts/make-kjv-corpus.sh from Debian's bible-kjv-text)",
      "FILE");
  add_value(cmd, args, "out", "output directory for the CSV files, created (default .)", "DIR");
  // The defaults printed are the preset's own (experiment::SparsePreset), which
  // sparse_preset_from keeps for every flag not given.
  const experiment::SparsePreset d = experiment::sparse_paper_preset("");
  const auto i = [](std::int64_t value) { return std::to_string(value); };
  add_value(
      cmd, args, "epochs",
      "passes over the training pairs (default " + format_number(d.epochs) + "; the paper 20)",
      "E");
  add_value(cmd, args, "train-tokens",
            "training tokens, 8 window pairs each (default " + i(d.train_tokens) + ")", "N");
  add_value(cmd, args, "test-tokens", "test tokens (default " + i(d.test_tokens) + ")", "N");
  add_value(
      cmd, args, "vocabulary",
      "words kept after dropping stop words (default " + i(d.vocabulary_size) + ", the paper's)",
      "V");
  add_value(cmd, args, "dim", "embedding size (default " + i(d.embedding_dim) + ", the paper's)",
            "D");
  add_value(cmd, args, "eval-points", "loss evaluations per run (default " + i(d.eval_points) + ")",
            "K");
  add_value(cmd, args, "eval-examples",
            "examples per loss evaluation (default " + i(d.eval_examples) + ")", "N");
  // The Table 1 values and the model's initialisation, changeable to measure why a method does
  // or does not learn (docs/guide/methods.md, "Sparse DP"); every output names the values used.
  add_value(cmd, args, "learning-rate",
            "Adam's step size eta (default " + format_number(d.learning_rate) + ", Table 1's)",
            "ETA");
  add_value(cmd, args, "gamma",
            "sparsity gamma: floor(gamma p) coordinates selected per step (default " +
                format_number(d.gamma) + ", Table 1's)",
            "G");
  add_value(cmd, args, "init-std",
            "embedding initialisation N(0, s^2) (default 0.5 d^(-1/4), 0.158 at d = 100; PyTorch's "
            "nn.Embedding draws s = 1)",
            "S");
  add_value(cmd, args, "adam-moments",
            "Adam's moments: lazy (only the coordinates a step updates, PyTorch's SparseAdam) or "
            "dense (every coordinate decays and moves every step: torch.optim.Adam on the masked "
            "gradient, as Opacus runs it; default " +
                optim::to_string(d.moments) + ")",
            "lazy|dense");
  add_value(
      cmd, args, "seed",
      "seed of data, canaries, initialisation and runs (default " + std::to_string(d.seed) + ")",
      "S");
}

experiment::SparsePreset sparse_preset_from(const Arguments& args) {
  auto preset = experiment::sparse_paper_preset(args.has("corpus") ? *args.text("corpus")
                                                                   : default_kjv_corpus());
  preset.epochs = args.number_or("epochs", preset.epochs);
  require_positive("--epochs", preset.epochs);
  require_run_size("--epochs", preset.epochs, 0, kMaxEpochs);  // the cap every command shares
  preset.train_tokens = args.integer_or("train-tokens", preset.train_tokens);
  require_at_least("--train-tokens", static_cast<double>(preset.train_tokens), 10);
  preset.test_tokens = args.integer_or("test-tokens", preset.test_tokens);
  require_at_least("--test-tokens", static_cast<double>(preset.test_tokens), 10);
  preset.vocabulary_size = args.int_or("vocabulary", preset.vocabulary_size);
  require_at_least("--vocabulary", preset.vocabulary_size, 2);
  preset.embedding_dim = args.int_or("dim", preset.embedding_dim);
  require_at_least("--dim", preset.embedding_dim, 1);
  preset.eval_points = args.integer_or("eval-points", preset.eval_points);
  require_at_least("--eval-points", static_cast<double>(preset.eval_points), 1);
  preset.eval_examples = args.integer_or("eval-examples", preset.eval_examples);
  require_at_least("--eval-examples", static_cast<double>(preset.eval_examples), 1);
  preset.learning_rate = args.number_or("learning-rate", preset.learning_rate);
  require_positive("--learning-rate", preset.learning_rate);
  preset.gamma = args.number_or("gamma", preset.gamma);
  require_left_open_interval("--gamma", preset.gamma, 0, 1);
  preset.init_std = args.number_or("init-std", preset.init_std);
  if (args.has("init-std")) require_positive("--init-std", preset.init_std);
  if (const auto moments = args.text("adam-moments")) {
    try {
      preset.moments = optim::parse_adam_moments(*moments);
    } catch (const InvalidArgument& e) {
      throw UsageError(std::string("--adam-moments: ") + e.what());
    }
  }
  preset.seed = args.seed_or("seed", preset.seed);
  return preset;
}

}  // namespace dplab::cli
