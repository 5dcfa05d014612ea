#include "cli/sparse_options.h"

#include <filesystem>

#include "cli/sparse_report.h"
#include "core/error.h"
#include "core/validate.h"

namespace dplab::cli {

std::set<std::string> sparse_preset_flags() {
  return {"help",       "corpus", "out",         "epochs",        "train-tokens", "test-tokens",
          "vocabulary", "dim",    "eval-points", "eval-examples", "seed"};
}

experiment::SparsePreset sparse_preset_from(const Arguments& args) {
  auto preset = experiment::sparse_paper_preset(args.text_or("corpus", default_kjv_corpus()));
  if (!args.has("corpus") && !std::filesystem::exists(preset.corpus_path)) {
    throw IoError("the default corpus " + preset.corpus_path +
                  " does not exist: run scripts/make-kjv-corpus.sh (needs the Debian packages "
                  "bible-kjv-text and bible-kjv) or pass --corpus FILE");
  }
  preset.epochs = args.number_or("epochs", preset.epochs);
  require_positive("--epochs", preset.epochs);
  preset.train_tokens = args.integer_or("train-tokens", preset.train_tokens);
  require_at_least("--train-tokens", static_cast<double>(preset.train_tokens), 10);
  preset.test_tokens = args.integer_or("test-tokens", preset.test_tokens);
  require_at_least("--test-tokens", static_cast<double>(preset.test_tokens), 10);
  preset.vocabulary_size = static_cast<int>(args.integer_or("vocabulary", preset.vocabulary_size));
  require_at_least("--vocabulary", preset.vocabulary_size, 2);
  preset.embedding_dim = static_cast<int>(args.integer_or("dim", preset.embedding_dim));
  require_at_least("--dim", preset.embedding_dim, 1);
  preset.eval_points = args.integer_or("eval-points", preset.eval_points);
  require_at_least("--eval-points", static_cast<double>(preset.eval_points), 1);
  preset.eval_examples = args.integer_or("eval-examples", preset.eval_examples);
  require_at_least("--eval-examples", static_cast<double>(preset.eval_examples), 1);
  preset.seed = args.seed_or("seed", preset.seed);
  return preset;
}

}  // namespace dplab::cli
