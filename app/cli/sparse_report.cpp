#include "cli/sparse_report.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>

namespace dplab::cli {

std::string epsilon_up(double epsilon) {
  if (!std::isfinite(epsilon)) return "inf";
  if (epsilon <= 0) return "0";
  const double scale = std::pow(10.0, 3 - std::floor(std::log10(epsilon)));
  const double up = std::ceil(epsilon * scale * (1 - 1e-15)) / scale;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.4g", up);
  // %.4g may round the last digit half-way; never print below the true value.
  if (std::strtod(buffer, nullptr) < epsilon) std::snprintf(buffer, sizeof buffer, "%.5g", up);
  return buffer;
}

void print_calibration(std::ostream& out, const experiment::Calibration& c,
                       const experiment::SparsePreset& preset) {
  char line[512];
  std::snprintf(line, sizeof line,
                "training pairs n = %lld, lot b = %g, q = b/n = %.3g, steps T = %lld\n",
                static_cast<long long>(c.train_examples), preset.lot_size, c.sampling_rate,
                static_cast<long long>(c.steps));
  out << line;
  std::snprintf(line, sizeof line,
                "Adam lr = %g (%s moments), gamma = %g, S1 = %g, S2 = %g, S0 = %g, embedding init "
                "N(0, %.3g^2)\n",
                preset.learning_rate, optim::to_string(preset.moments).c_str(), preset.gamma,
                preset.clip1, preset.clip2, preset.clip0,
                preset.init_std > 0
                    ? preset.init_std
                    : models::CbowNegativeSampling::default_init_std(preset.embedding_dim));
  out << line;
  out << "privacy (delta = " << preset.delta
      << "; what is released: the final embedding table of each run;\n"
      << "the vocabulary and the train/test split are treated as public):\n";
  for (const auto& m : c.methods) {
    const std::string name = training::to_string(m.method);
    if (m.method == training::WideMethod::kNonPrivate) {
      out << "  nonprivate  no privacy guarantee\n";
      continue;
    }
    if (m.method == training::WideMethod::kSparseOracle) {
      out << "  oracle      exact top-k selection, no noise: no privacy guarantee (diagnosis)\n";
      continue;
    }
    std::snprintf(line, sizeof line, "  %-10s  sigma = %.4g%s", name.c_str(), m.noise_multiplier,
                  m.sigma_given ? " (given by --sparse-sigma, not the budget's)" : "");
    out << line;
    if (m.sigma_given && m.noise_multiplier == 0) {
      out << ": no noise, no privacy guarantee (diagnosis)\n";
      continue;
    }
    if (m.method == training::WideMethod::kDpSgd) {
      out << "  RDP (subsampled Gaussian): epsilon <= " << epsilon_up(m.rdp.epsilon) << "\n";
      continue;
    }
    if (m.selection_epsilon > 0) {
      std::snprintf(line, sizeof line, ", eps' = %.4g/step, delta' = %.3g", m.selection_epsilon,
                    m.selection_delta);
      out << line;
    }
    if (m.draw_epsilon > 0) {
      std::snprintf(line, sizeof line, ", eps'' = %.4g/draw", m.draw_epsilon);
      out << line;
    }
    out << "\n      Theorem 3 route: epsilon <= " << epsilon_up(m.theorem3.epsilon)
        << " (strong composition, Poisson amplification ln(1 + q (e^eps - 1))), delta = "
        << m.theorem3.delta
        << "\n      paper's formula: epsilon <= " << epsilon_up(m.theorem3.paper_epsilon)
        << " (strong composition), " << epsilon_up(m.theorem3.epsilon_closed_form)
        << " (closed form) -- not a guarantee: its Lemma 1 amplifies eps as q eps,\n"
        << "      below ln(1 + q (e^eps - 1)) (by up to e - 1 at eps = 1, more above)"
        << "\n      paper's assumption q eps <= 1/sqrt(T): "
        << (m.theorem3.assumption_holds ? "holds" : "VIOLATED")
        << "; Lemma 3 (eps_G = " << epsilon_up(m.theorem3.gaussian_epsilon)
        << " <= 1): " << (m.theorem3.gaussian_lemma_applies ? "applies" : "does NOT apply")
        << "; Lemma 1 (per-step eps <= 1): "
        << (m.theorem3.sampling_lemma_applies ? "applies" : "does NOT apply")
        << "\n      dplab RDP (sensitivity min(S1/b, 2 S2), sigma_eff = "
        << m.rdp.effective_noise_multiplier << "): ";
    if (m.rdp.available) {
      out << "epsilon <= " << epsilon_up(m.rdp.epsilon) << "\n";
    } else {
      out << "not offered for the sparse vector technique (Theorem 3 only)\n";
    }
  }
}

}  // namespace dplab::cli
