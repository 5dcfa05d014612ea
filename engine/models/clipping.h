// Clipping: the per-example rule of the DP gradient sum S = sum_i c_i g_i, each contribution of
// norm <= C, the sensitivity the noise sigma C is calibrated for (Bu et al. 2023, eq. 1.1:
// "private gradient" sum_i g_i Clip(||g_i||; R) + sigma R N(0, I), R = C here):
//   kFlat       c_i = min(1, C / ||g_i||)               (Abadi et al. 2016, Alg. 1)
//   kAutomatic  c_i = C / (||g_i|| + gamma), gamma > 0   (Bu, Wang, Zha & Karypis, "Automatic
//               Clipping: Differentially Private Deep Learning Made Easier and Stronger",
//               NeurIPS 2023, arXiv 2206.07136, section 4: AUTO-S, the normalisation with a
//               stability constant gamma; gamma = 0.01 is the authors' default, fastDP's
//               numerical_stability_constant with max_grad_norm = 1).
// Under kAutomatic every contribution has norm C ||g_i|| / (||g_i|| + gamma) < C whatever the
// data, so C is only a scale: the paper fixes it to 1 (sensitivity 1, noise sigma * 1), and dplab's
// experiment layer does the same (C is reported as 1 wherever the noise or the accountant uses it).
// Non-finite norms (diverged examples) get c_i = 0 under both rules: dropped, never scaled.
//
// Both factors are computed in double from the float norm and shrunk by kFloatSafety: the float
// kernels know ||g_i|| only to ~1e-6 relative, so c_i ||g_i|| could otherwise land a hair above C.
#pragma once

#include <limits>
#include <string>

namespace dplab::models {

inline constexpr double kNoClipping = std::numeric_limits<double>::infinity();

// The factor every c_i is multiplied by: true norm of each contribution <= C (1 - 1e-5)(1 + 1e-6).
inline constexpr double kFloatSafety = 1.0 - 1e-5;

enum class ClippingMode { kFlat, kAutomatic };
// Bu et al.'s gamma (their code's default for automatic clipping).
inline constexpr double kDefaultClipStability = 0.01;

std::string to_string(ClippingMode mode);  // "flat" | "automatic"
// Throws InvalidArgument for any other text (the caller adds the key path).
ClippingMode parse_clipping_mode(const std::string& text);

struct Clipping {
  double clip = kNoClipping;  // C: the sensitivity of the sum
  ClippingMode mode = ClippingMode::kFlat;
  double stability = kDefaultClipStability;  // gamma, kAutomatic only

  // Flat clipping to C (implicit: every caller that passed a number C still does).
  Clipping(double c = kNoClipping) : clip(c) {}
  Clipping(double c, ClippingMode m, double gamma) : clip(c), mode(m), stability(gamma) {}

  bool is_automatic() const { return mode == ClippingMode::kAutomatic; }
  // Whether the per-example norms are needed (false only for flat clipping with C = infinity).
  bool needs_norms() const { return is_automatic() || clip != kNoClipping; }
  // c_i for a per-example norm ||g_i|| (float-safe, see above): 1 for flat clipping below C or
  // with C = infinity, 0 for a non-finite norm whenever the rule bounds the sensitivity.
  double factor(double norm) const {
    if (!(norm < std::numeric_limits<double>::infinity()) && needs_norms()) return 0.0;
    if (is_automatic()) return clip * kFloatSafety / (norm + stability);
    const double target = clip * kFloatSafety;
    return norm > target ? target / norm : 1.0;  // false for C = infinity and for norm = 0
  }
};

// Throws InvalidArgument naming `what` (the model) unless C > 0 (flat: kNoClipping allowed) and,
// for kAutomatic, C finite and gamma finite and > 0.
void check_clipping(const std::string& what, const Clipping& clipping);

}  // namespace dplab::models
