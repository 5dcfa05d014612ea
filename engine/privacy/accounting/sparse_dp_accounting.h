// Privacy accounting of sparse DP training (Zhang, Mironov & Hejazinia, Algorithm 3): T steps,
// each on a Poisson lot of rate q = b/n, made of a private selection (eps', delta') and the
// Gaussian mechanism on the selected coordinates. Two accounts, both reported:
//
// 1. The paper's Theorem 3 route. Per step, by Lemma 3 (classic Gaussian, eps_G =
//    sqrt(2 log(1.25/delta')) / sigma) and basic composition with the selection, the step on its
//    lot is (eps0, 2 delta')-DP with eps0 = eps' + eps_G. Amplification by Poisson sampling of
//    rate q = b/n (Li, Qardaji & Su 2012 Thm 1; Balle, Barthe & Gaboardi 2018 Thm 8) gives
//      eps~ = ln(1 + q (e^eps0 - 1)),   delta~ = 2 q delta'                 (the guarantee)
//    whereas the paper's Lemma 1 writes eps~ = q eps0, which is smaller (by up to a factor e - 1
//    at eps0 = 1, and without bound for eps0 > 1). Then strong composition (Lemma 2, KOV15 Thm 3.2
//    with slack T delta~) over T steps:
//      eps = T eps~ (e^eps~ - 1) + eps~ sqrt(2 T log(1/(T delta~))),   delta = 2 T delta~ = 4bT
//      delta'/n.
//    `epsilon` uses the correct eps~; `paper_epsilon` the paper's q eps0 ("paper's formula", shown
//    beside it, never as the guarantee). Under the assumption q eps0 <= 1/sqrt(T) the paper states
//    the closed form (also the paper's formula, built on q eps0)
//      eps <= 4 (b/n) sqrt(T log(n / (2 b T delta'))) (eps' + eps_G).
//    We report both, whether the assumption holds, and whether the lemmas' own side conditions
//    hold (Lemma 3 needs eps_G <= 1, Lemma 1 needs the per-step eps' + eps_G <= 1); when they do
//    not, the theorem does not apply as proved.
//
// 2. dplab's RDP account (tighter, beyond the paper). Per step, given the lot, the mechanism is
//    the selection followed by the Gaussian mechanism, so its RDP is (adaptive composition,
//    Mironov 2017 Prop. 1)
//      eps_step(a) = eps_sel(a) + a Delta^2 / (2 s^2),
//    with noise std s = sigma min(S1/b, S2) and L2 sensitivity under add/remove of one example
//      Delta = min(S1/b, 2 S2)
//    (one example moves g^ by <= S1/b; masking and the projection onto the S2-ball are 1-Lipschitz,
//    and two points of the S2-ball are <= 2 S2 apart — the paper's Theorem 3 takes Delta = the
//    noise scale, which under-counts by up to 2x when S2 < S1/b). Selection RDP:
//      exponential mechanism, k draws of eps'' each: eps''-DP with utility range S0, hence
//        (eps''^2/8)-zCDP (Cesar & Rogers 2021, bounded range), k draws: a k eps''^2 / 8, and
//        <= k eps'' (pure DP) — the minimum is used;
//      uniform selection: 0;   sparse vector: no RDP bound offered (its account is Theorem 3 only).
//    The Poisson subsampling of the whole step is accounted by the general upper bound of
//    Zhu & Wang 2019 ("Poisson subsampled Rényi DP", Thm 6), at integer orders a >= 2:
//      eps_q(a) <= 1/(a-1) log[ (1-q)^{a-1} (a q - q + 1) + C(a,2) q^2 (1-q)^{a-2} e^{eps(2)}
//                               + 3 sum_{l=3..a} C(a,l) (1-q)^{a-l} q^l e^{(l-1) eps(l)} ],
//    composed over T steps and converted by privacy/accounting/rdp_conversion.h (the improved
//    conversion of Balle et al. 2020, eps = min_a T eps_q(a) + log((a-1)/a) - (log delta + log
//    a)/(a-1)). Orders 2..256. All in log space. Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <string>

namespace dplab::privacy {

struct Theorem3Input {
  double dataset_size = 0;         // n
  double lot_size = 20;            // b
  std::int64_t steps = 1;          // T
  double noise_multiplier = 0.5;   // sigma as in the paper (noise std sigma min(S1/b, S2))
  double selection_epsilon = 1.0;  // eps' per step (before amplification); 0 for random
  double step_delta = 1e-7;        // delta'
};

struct Theorem3Result {
  double gaussian_epsilon = 0;          // eps_G = sqrt(2 log(1.25/delta'))/sigma (Lemma 3)
  double step_epsilon = 0;              // eps~ = ln(1 + q (e^eps0 - 1)), eps0 = eps' + eps_G
  double step_delta = 0;                // delta~
  double epsilon = 0;                   // strong composition (Lemma 2) of eps~: the guarantee
  double paper_step_epsilon = 0;        // paper's formula: q eps0 (its Lemma 1)
  double paper_epsilon = 0;             // paper's formula: strong composition of q eps0
  double epsilon_closed_form = 0;       // paper's formula: 4 (b/n) sqrt(T log(n/(2bT delta')))
                                        // (eps' + eps_G)
  double delta = 0;                     // 4 b T delta' / n
  bool assumption_holds = false;        // the paper's q eps0 <= 1/sqrt(T)
  bool gaussian_lemma_applies = false;  // eps_G <= 1
  bool sampling_lemma_applies = false;  // eps' + eps_G <= 1
};

Theorem3Result theorem3_epsilon(const Theorem3Input& input);

// The paper's calibration from the closed form: a budget split (epsilon_noise, epsilon_selection)
// at total delta gives delta' = delta n / (4 b T), F = 4 (b/n) sqrt(T log(n/(2bT delta'))),
// eps' = epsilon_selection / F and sigma = F sqrt(2 log(1.25/delta')) / epsilon_noise.
struct Theorem3Calibration {
  double step_delta = 0;         // delta'
  double selection_epsilon = 0;  // eps'
  double noise_multiplier = 0;   // sigma
};
Theorem3Calibration theorem3_calibrate(double dataset_size, double lot_size, std::int64_t steps,
                                       double epsilon_noise, double epsilon_selection,
                                       double delta);

enum class SelectionKind { kExponential, kSparseVector, kUniform, kAll };

struct SparseDpRdpInput {
  double sampling_rate = 0.001;   // q = b/n
  std::int64_t steps = 1;         // T
  double noise_multiplier = 0.5;  // sigma
  double lot_size = 20;           // b
  double clip1 = 15;              // S1
  double clip2 = 0.05;            // S2 (infinity: no second clipping, as DP-SGD)
  SelectionKind selection = SelectionKind::kExponential;
  double draw_epsilon = 0;  // eps'' per exponential-mechanism draw
  std::int64_t draws = 0;   // k
};

struct RdpEpsilon {
  double epsilon = 0;
  double delta = 0;
  double best_order = 0;
  bool available = false;                 // false for the sparse vector technique
  double effective_noise_multiplier = 0;  // s / Delta
};

// Zhu & Wang's general Poisson-subsampled RDP bound at integer order a >= 2, given the
// unsubsampled RDP eps(l) at l = 2..a (rdp[l]); rdp has size >= a + 1.
double poisson_subsampled_rdp_bound(const double* rdp, int order, double sampling_rate);

RdpEpsilon sparse_dp_rdp_epsilon(const SparseDpRdpInput& input, double delta);

}  // namespace dplab::privacy
