#include "release/field_class.h"

#include <array>

#include "core/error.h"

namespace dplab::release {
namespace {

constexpr FieldClass C = FieldClass::kCharged;
constexpr FieldClass P = FieldClass::kPublic;
constexpr FieldClass N = FieldClass::kNotCovered;
constexpr FieldClass K = FieldClass::kCuratorOnly;

// The texts no-ε fields carry in the release's "not_covered" list.
constexpr std::string_view kLotLoss =
    "the mean lot loss on the private training set since the previous point, computed without "
    "noise";
constexpr std::string_view kTrainingLoss =
    "the mean loss over the whole private training set at the end, computed without noise";

constexpr std::string_view kCsvLevels =
    "the one-hot levels and class labels are the values found in the private training file, "
    "read without noise";
constexpr std::string_view kClassLabels = "the class labels as found in the private training data";
constexpr std::string_view kFittedScaling = "preprocessing fitted on private data: not covered";

constexpr std::string_view kRevealsK =
    "reveals the number of runs K of a private selection, which its epsilon does not cover";

// (file, field, class, reason). A JSON rule covers the key and everything below it unless a
// longer path has its own row.
constexpr std::array kRules{
    // Explore: every run of the search (tune --out, history export, the GUI report).
    FieldRule{"curves.csv", "candidate", C, ""},
    FieldRule{"curves.csv", "repeat", P, ""},
    FieldRule{"curves.csv", "optimizer", P, ""},
    FieldRule{"curves.csv", "learning_rate", P, ""},
    FieldRule{"curves.csv", "clip", P, ""},
    FieldRule{"curves.csv", "momentum", P, ""},
    FieldRule{"curves.csv", "beta1", P, ""},
    FieldRule{"curves.csv", "beta2", P, ""},
    FieldRule{"curves.csv", "adam_epsilon", P, ""},
    FieldRule{"curves.csv", "seed", P, ""},
    FieldRule{"curves.csv", "status", C, ""},
    FieldRule{"curves.csv", "iteration", P, ""},
    FieldRule{"curves.csv", "train_loss", N, kLotLoss},
    FieldRule{"curves.csv", "val_loss", C, ""},
    FieldRule{"curves.csv", "val_accuracy", C, ""},
    FieldRule{"curves.csv", "epsilon_per_run", P, ""},
    FieldRule{"curves.csv", "step_size", C, ""},
    FieldRule{"curves.csv", "clip_threshold", C, ""},
    FieldRule{"curves.csv", "val_mse", C, ""},
    FieldRule{"curves.csv", "epsilon_label", C, ""},
    FieldRule{"aggregate_curves.csv", "optimizer", P, ""},
    FieldRule{"aggregate_curves.csv", "iteration", P, ""},
    FieldRule{"aggregate_curves.csv", "best", C, ""},
    FieldRule{"aggregate_curves.csv", "median", C, ""},
    FieldRule{"aggregate_curves.csv", "best_candidate", C, ""},
    FieldRule{"aggregate_curves.csv", "metric", P, ""},
    FieldRule{"aggregate_curves.csv", "epsilon_label", C, ""},
    FieldRule{"alpha_clip_grid.csv", "optimizer", P, ""},
    FieldRule{"alpha_clip_grid.csv", "learning_rate", P, ""},
    FieldRule{"alpha_clip_grid.csv", "clip", P, ""},
    FieldRule{"alpha_clip_grid.csv", "final_train_loss", N, kTrainingLoss},
    FieldRule{"alpha_clip_grid.csv", "final_accuracy", C, ""},
    FieldRule{"alpha_clip_grid.csv", "times_best", C, ""},
    FieldRule{"alpha_clip_grid.csv", "epsilon_label", C, ""},
    // One training run (train --out).
    FieldRule{"curve.csv", "iteration", P, ""},
    FieldRule{"curve.csv", "train_loss", N, kLotLoss},
    FieldRule{"curve.csv", "val_loss", C, ""},
    FieldRule{"curve.csv", "val_accuracy", C, ""},
    FieldRule{"curve.csv", "epsilon_per_run", P, ""},
    FieldRule{"curve.csv", "step_size", C, ""},
    FieldRule{"curve.csv", "clip", C, ""},
    FieldRule{"curve.csv", "val_mse", C, ""},
    FieldRule{"curve.csv", "epsilon_label", C, ""},
    // A private search: each replicate's winner only (no training loss, no seed, no K).
    FieldRule{"winners.csv", "replicate", P, ""},
    FieldRule{"winners.csv", "candidate", C, ""},
    FieldRule{"winners.csv", "label", C, ""},
    FieldRule{"winners.csv", "iteration", P, ""},
    FieldRule{"winners.csv", "val_accuracy", C, ""},
    FieldRule{"winners.csv", "epsilon_label", C, ""},
    // The curator's facts of a private search, never in a released file: the writer refuses
    // them by name should a change ever put them there.
    FieldRule{"winners.csv", "runs_trained", K, kRevealsK},
    FieldRule{"winners.csv", "wall_seconds", K, kRevealsK},
    FieldRule{"winners.csv", "winner_job", K, kRevealsK},
    FieldRule{"winners.csv", "hit_hard_stop", K, kRevealsK},
    FieldRule{"release.json", "released.runs_trained", K, kRevealsK},
    FieldRule{"release.json", "released.wall_seconds", K, kRevealsK},
    FieldRule{"release.json", "released.winner_job", K, kRevealsK},
    FieldRule{"release.json", "released.hit_hard_stop", K, kRevealsK},
    // The one versioned summary of every release (docs/release.schema.json).
    FieldRule{"release.json", "schema", P, ""},
    FieldRule{"release.json", "dplab_version", P, ""},
    FieldRule{"release.json", "experiment", P, ""},
    FieldRule{"release.json", "mode", P, ""},
    FieldRule{"release.json", "cancelled", P, ""},
    FieldRule{"release.json", "files", P, ""},
    FieldRule{"release.json", "privacy", P, ""},
    FieldRule{"release.json", "privacy.epsilon", C, ""},
    FieldRule{"release.json", "privacy.epsilon_rounded_up", C, ""},
    FieldRule{"release.json", "privacy.epsilon_label", C, ""},
    FieldRule{"release.json", "privacy.epsilon_this_attempt", C, ""},
    FieldRule{"release.json", "privacy.epsilon_per_replicate", C, ""},
    FieldRule{"release.json", "privacy.runs_trained", C, ""},
    FieldRule{"release.json", "privacy.total_queries", C, ""},
    FieldRule{"release.json", "released", C, ""},
    FieldRule{"release.json", "released.replicates.runs_trained", K, kRevealsK},
    FieldRule{"release.json", "released.runs", P, ""},
    FieldRule{"release.json", "released.status", C, ""},
    FieldRule{"release.json", "released.replicate_searches", P, ""},
    FieldRule{"release.json", "released.score", P, ""},
    FieldRule{"release.json", "not_covered", P, ""},
    // The released model (release/model_artefact.h): its parameters are the DP training's output.
    FieldRule{"model.npz", "arrays", C, ""},
    FieldRule{"model.onnx", "graph", C, ""},
    FieldRule{"model.json", "schema", P, ""},
    FieldRule{"model.json", "dplab_version", P, ""},
    FieldRule{"model.json", "model", P, ""},
    FieldRule{"model.json", "layers", P, ""},
    FieldRule{"model.json", "input", P, ""},
    FieldRule{"model.json", "input.encoding", N, kCsvLevels},
    FieldRule{"model.json", "input.classes", N, kClassLabels},
    FieldRule{"model.json", "input.fitted_scaling", N, kFittedScaling},
    FieldRule{"model.json", "privacy", P, ""},
    FieldRule{"model.json", "privacy.epsilon", C, ""},
    FieldRule{"model.json", "privacy.epsilon_rounded_up", C, ""},
    FieldRule{"model.json", "privacy.epsilon_label", C, ""},
    FieldRule{"model.json", "privacy.epsilon_this_attempt", C, ""},
    FieldRule{"model.json", "privacy.epsilon_per_replicate", C, ""},
    FieldRule{"model.json", "privacy.runs_trained", C, ""},
    FieldRule{"model.json", "privacy.total_queries", C, ""},
};

}  // namespace

std::string to_string(FieldClass klass) {
  switch (klass) {
    case FieldClass::kCharged:
      return "charged";
    case FieldClass::kPublic:
      return "public";
    case FieldClass::kNotCovered:
      return "not covered";
    case FieldClass::kCuratorOnly:
      return "curator-only";
  }
  return "?";
}

std::span<const FieldRule> field_rules() {
  return kRules;
}

const FieldRule& field_rule(std::string_view file, std::string_view field) {
  // The longest rule that is the field itself or one of its parents ("a.b" for "a.b.c").
  std::string_view path = field;
  for (;;) {
    for (const FieldRule& rule : kRules) {
      if (rule.file == file && rule.field == path) return rule;
    }
    const auto dot = path.rfind('.');
    if (dot == std::string_view::npos) break;
    path = path.substr(0, dot);
  }
  throw Error("release field '" + std::string(field) + "' of " + std::string(file) +
              " has no privacy class (engine/release/field_class.cpp)");
}

}  // namespace dplab::release
