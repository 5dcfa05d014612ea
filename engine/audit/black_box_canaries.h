// Black-box canaries: the one-run audit's (audit/one_run_audit.h) and the tuning-release audit's
// (release/tuning_audit.h). m examples, each included with probability 1/2 (S_i, seeded, drawn
// before anything trains); an included canary is appended ONCE to the training rows (one
// example, the accountant's unit), so every DP guarantee of the run covers it as it covers any
// row. Score = -loss of the canary on the final (released) model: what a black-box attacker,
// who can only query the model, computes. Two kinds, chosen before the run:
//
//   mislabelled (default): held-out rows (the validation set) with a wrong label
//     (audit/label_canary.h's pool). In-distribution: the data's own gradient moves the model on
//     them, and one of them among ~30,000 rows barely shows (docs/guide/audit.md: 0 on Adult and
//     Fashion-MNIST, the non-private twin included).
//
//   crafted: out-of-domain inputs on features the data never sets (in the spirit of Yoon et al.'s
//     crafted canaries: inputs chosen so the canary is not explained by the data). Every row, of
//     the training and of the validation set, gets m extra features that are 0; canary i is the
//     input s e_{d+i} (every real feature 0, feature d + i equal to s = 10, far outside the
//     [0, 1] the data are scaled to) with label 0; image data are held as floats for it (4x the
//     memory of their bytes: a byte cannot hold 10). Why this isolates canary i:
//     the first layer of a dense model (logistic regression, the two-layer network) sees input x
//     through W x, and the per-example gradient on the weights W[:, j] of input j is x_j times
//     the back-propagated error, so every data row (x_j = 0 for j >= d) has gradient EXACTLY 0 on
//     the weights of the extra features, and only canary i moves those of feature d + i (besides
//     the DP noise): the black-box twin of the reserved coordinates of white-box mode
//     (audit/reserved_coordinates_model.h). The data rows' outputs are unchanged (0 x w = 0), so
//     the padded run is the user's run on its first d features, and DP-SGD's guarantee, which
//     holds for any clipped per-example gradient in any dimension, covers it exactly. With s =
//     10 the canary's clipped gradient lies almost wholly (s / sqrt(s^2 + 1) = 99.5 % for
//     logistic regression) on its own weights instead of the bias, and stays at the clip norm
//     while the model is unsure of it (|p - y| >= 0.1). That is the limit the worst-case initial
//     parameters of Annamalai & De Cristofaro (NeurIPS 2024) aim at — canary gradients large, the
//     others' small on the canary's direction — reached here by construction, for any
//     initialisation. Dense models only (a conv net reads its input as an image: InvalidArgument).
//     The score -loss = log p_0(s e_{d+i}) increases with what canary i wrote into its weights.
//
// Thread-safety: pure functions of their arguments.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "data/dataset.h"
#include "models/model.h"

namespace dplab::audit {

enum class BlackBoxCanaries { kMislabelled, kCrafted };
const char* to_string(BlackBoxCanaries kind);  // "mislabelled" | "crafted"
// "mislabelled" | "crafted"; throws InvalidArgument naming "blackbox canaries" otherwise.
BlackBoxCanaries parse_blackbox_canaries(std::string_view text);

struct BlackBoxCanarySet {
  BlackBoxCanaries kind = BlackBoxCanaries::kMislabelled;
  data::Dataset canaries;           // m rows in the trained model's input shape
  std::vector<bool> included;       // S_i
  data::TrainValidationSplit data;  // what to train on: the training rows + the included
                                    // canaries (crafted: every row padded with m zero features)
};

// The canary value s of crafted canaries: 10.
double crafted_canary_value();

// m canaries of `kind` for `data`, their coins S_i and the data to train on, from `seed`.
// Throws InvalidArgument naming the problem: regression data; mislabelled canaries need >= m
// validation rows; crafted canaries need a dense model (`model`: logistic or tlnn).
BlackBoxCanarySet make_black_box_canaries(const data::TrainValidationSplit& data, int canaries,
                                          BlackBoxCanaries kind, const models::ModelSpec& model,
                                          std::uint64_t seed);

// -loss of every canary on `model` (the black-box score; higher = more likely included).
// Non-finite losses (a diverged model) score as the least likely "in".
std::vector<double> black_box_scores(models::Model& model, const data::Dataset& canaries);

}  // namespace dplab::audit
