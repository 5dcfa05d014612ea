// One-run privacy audit of a training run (Steinke, Nasr & Jagielski, NeurIPS 2023): m canaries,
// each included with probability 1/2, ONE training run, membership guesses from scores, and the
// count of correct guesses turned into a statistically valid LOWER bound on the run's epsilon
// (audit/one_run_bound.h). Two canary kinds:
//   white-box  — gradient canaries (audit/dirac_canaries.h) added through the DP step's clipped
//                sum; scores from the released noisy gradients (all iterates) and from the final
//                model only. By default Dirac canaries on m reserved coordinates that the model
//                never reads (audit/reserved_coordinates_model.h: the data's gradient there is
//                exactly 0, so only the DP noise competes with a canary); random directions in
//                the model's own parameters on request;
//   black-box  — labelled examples (audit/black_box_canaries.h: mislabelled held-out rows by
//                default, or crafted out-of-domain inputs on extra features the data never
//                sets), an included canary appended ONCE to the training set (one example = the
//                accountant's unit); score = -loss on the final model.
// Guesses: top k+ scores "in", bottom k- "out", best bound over a pre-declared set of (k+, k-)
// with beta split evenly (Bonferroni).
//
// What the audit proves: with probability >= confidence over the canaries' coins and the run,
// the training algorithm is NOT (eps, delta)-DP for any eps below the bound. Compared with the
// accountant's eps (an upper bound), a bound above it is a bug in one of them.
//
// Thread-safety: run_one_run_audit touches only its arguments.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/black_box_canaries.h"
#include "audit/one_run_bound.h"
#include "data/dataset.h"
#include "training/trainer.h"

namespace dplab::audit {

enum class AuditMode { kBlackBox, kWhiteBox };
// White-box canary directions: Dirac canaries on reserved coordinates (default) or random unit
// directions in the model's own parameter space.
enum class WhiteBoxCanaries { kReservedCoordinates, kRandomDirections };
const char* to_string(WhiteBoxCanaries kind);  // "reserved" | "random"
// "reserved" | "random"; throws InvalidArgument naming "whitebox canaries" otherwise.
WhiteBoxCanaries parse_whitebox_canaries(std::string_view text);
const char* to_string(AuditMode mode);  // "blackbox" | "whitebox"
// "blackbox" | "whitebox"; throws InvalidArgument naming "mode" otherwise.
AuditMode parse_audit_mode(std::string_view text);

struct OneRunAuditOptions {
  int canaries = 1000;  // m
  AuditMode mode = AuditMode::kWhiteBox;
  double confidence = 0.95;  // 1 - beta
  double delta = 1e-5;       // delta of the (eps, delta) bound: the accountant's delta
  std::uint64_t seed = 1;    // canary directions, inclusions and per-step canary sampling
  // White-box: cap c on the canary gradient norm; 0 = the run's C (1 when the run does not clip).
  double canary_norm = 0;
  WhiteBoxCanaries whitebox_canaries = WhiteBoxCanaries::kReservedCoordinates;
  BlackBoxCanaries blackbox_canaries = BlackBoxCanaries::kMislabelled;
  std::vector<GuessSet> guess_sets;  // empty = default_guess_sets(m)
  // Called after every optimizer step with the queries made so far (progress); may be empty.
  std::function<void(std::int64_t queries)> on_step;
};

struct OneRunAuditResult {
  AuditMode mode = AuditMode::kWhiteBox;
  WhiteBoxCanaries whitebox_canaries = WhiteBoxCanaries::kReservedCoordinates;  // white-box only
  BlackBoxCanaries blackbox_canaries = BlackBoxCanaries::kMislabelled;          // black-box only
  // White-box: all-iterates score; black-box: -loss on the final model.
  AuditBound bound;
  std::optional<AuditBound> final_model_bound;  // white-box only
  int canaries_included = 0;
  double sampling_rate = 0;  // q the run used (black-box: n counts the included canaries)
  std::int64_t queries = 0;  // T
  double final_validation_accuracy = 0;
  double wall_seconds = 0;  // training + scoring
  bool diverged = false;
  // Curator-only (they reveal which canary was in the training data): per canary.
  std::vector<double> scores;
  std::vector<bool> included;
};

// What a final-model-only audit of config on train_size examples can be expected to reach,
// computed before the run: the last-iterate heuristic (last_iterate_heuristic.h; a HEURISTIC,
// not a bound) at sigma, q = L / n (or the set rate) and T = steps, at delta. +inf for a run
// without noise or clipping.
double predicted_last_iterate_epsilon(const training::TrainingConfig& config,
                                      std::int64_t train_size, double delta);

// Trains config (model, optimizer, DP settings, steps, seed) once with the canaries and audits it.
// Throws InvalidArgument (regression data in black-box mode, too few validation rows for m
// mislabelled canaries, crafted canaries on a conv net, secure mode, canaries' memory) naming
// the field; Cancelled if *cancel becomes true.
OneRunAuditResult run_one_run_audit(const data::TrainValidationSplit& data,
                                    const training::TrainingConfig& config,
                                    const OneRunAuditOptions& options,
                                    const std::atomic<bool>* cancel = nullptr);

}  // namespace dplab::audit
