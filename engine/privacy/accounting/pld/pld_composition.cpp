#include "privacy/accounting/pld/pld_composition.h"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <mutex>
#include <numbers>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::privacy::pld {
namespace {

// FFTW's planner is not thread-safe; execution of distinct plans is.
std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}

// Smallest n >= want whose prime factors are 2, 3, 5, 7 (FFTW's fast sizes).
std::size_t fast_size(std::size_t want) {
  std::size_t best = std::numeric_limits<std::size_t>::max();
  for (std::size_t p7 = 1; p7 < 2 * want; p7 *= 7) {
    for (std::size_t p5 = p7; p5 < 2 * want; p5 *= 5) {
      for (std::size_t p3 = p5; p3 < 2 * want; p3 *= 3) {
        std::size_t n = p3;
        while (n < want) n *= 2;
        best = std::min(best, n);
      }
    }
  }
  return best;
}

// One factor, seen through its grid offsets j = 0..len-1 (loss = (lower_index + j) d).
struct Factor {
  const PrivacyLossPmf* pmf;
  double times;
  double mean = 0.0, variance = 0.0;  // of j under the normalised finite part
  std::int64_t centre = 0;            // round(mean): placed at cyclic position 0
};

// ln sum_j p_j e^{t j}: exponentials by recurrence from the largest term down (no overflow).
double log_mgf(const std::vector<double>& p, double t) {
  const std::size_t n = p.size();
  const double step = std::exp(-std::abs(t));
  long double sum = 0.0L, w = 1.0L;
  if (t >= 0) {
    for (std::size_t j = n; j-- > 0; w *= step) sum += p[j] * w;
    return static_cast<double>(std::log(sum)) + t * static_cast<double>(n - 1);
  }
  for (std::size_t j = 0; j < n; ++j, w *= step) sum += p[j] * w;
  return static_cast<double>(std::log(sum));
}

// FFTW's double interface (long double was measured and is not needed: the tilt, below).
struct FftwDouble {
  using Real = double;
  using Complex = fftw_complex;
  using Plan = fftw_plan;
  static Real* alloc_real(std::size_t n) { return fftw_alloc_real(n); }
  static Complex* alloc_complex(std::size_t n) { return fftw_alloc_complex(n); }
  static Plan r2c(int n, Real* in, Complex* out) {
    return fftw_plan_dft_r2c_1d(n, in, out, FFTW_ESTIMATE);
  }
  static Plan c2r(int n, Complex* in, Real* out) {
    return fftw_plan_dft_c2r_1d(n, in, out, FFTW_ESTIMATE);
  }
  static void execute(Plan p) { fftw_execute(p); }
  static void destroy(Plan p) { fftw_destroy_plan(p); }
  static void free(void* p) { fftw_free(p); }
};

// prod_i DFT(p_i)^{T_i} on the cyclic grid of n cells, transformed back; returns the cells of
// the window s = lo .. lo + window - 1 (offsets from the sum of lower indices).
template <typename F>
std::vector<double> cyclic_product(const std::vector<Factor>& factors, std::size_t n,
                                   std::int64_t lo, std::size_t window) {
  using Real = typename F::Real;
  using C = std::complex<Real>;
  const std::size_t nc = n / 2 + 1;
  auto deleter = [](void* p) { F::free(p); };
  std::unique_ptr<Real, decltype(deleter)> real(F::alloc_real(n), deleter);
  std::unique_ptr<typename F::Complex, decltype(deleter)> spectrum(F::alloc_complex(nc), deleter);
  std::unique_ptr<typename F::Complex, decltype(deleter)> product(F::alloc_complex(nc), deleter);
  if (!real || !spectrum || !product) throw Error("PLD composition: out of memory for the FFT");
  typename F::Plan forward, backward;
  {
    std::lock_guard lock(planner_mutex());
    forward = F::r2c(static_cast<int>(n), real.get(), spectrum.get());
    backward = F::c2r(static_cast<int>(n), product.get(), real.get());
  }
  auto* prod = reinterpret_cast<C*>(product.get());
  auto* spec = reinterpret_cast<C*>(spectrum.get());
  std::fill(prod, prod + nc, C(1.0, 0.0));
  std::int64_t shift = 0;  // sum_i T_i centre_i: the offset of cyclic position 0
  const auto ni = static_cast<std::int64_t>(n);
  const Real two_pi = 2 * std::numbers::pi_v<Real>;
  for (const auto& f : factors) {
    // Centred at round(mean) so the phases raised to the power T stay small (accuracy).
    std::fill(real.get(), real.get() + n, Real(0));
    const auto& p = f.pmf->probs;
    for (std::size_t j = 0; j < p.size(); ++j) {
      std::int64_t pos = (static_cast<std::int64_t>(j) - f.centre) % ni;
      if (pos < 0) pos += ni;
      real.get()[pos] += p[j];
    }
    F::execute(forward);
    const Real times = f.times;
    for (std::size_t k = 0; k < nc; ++k) {
      if (prod[k] == Real(0)) continue;
      // |F|^T underflows for most high frequencies once T is large: skip their phases.
      const Real log_r = Real(0.5) * std::log(std::norm(spec[k])) * times;
      if (!(log_r > Real(-745))) {
        prod[k] = 0;
        continue;
      }
      const Real phase = std::remainder(std::arg(spec[k]) * times, two_pi);
      prod[k] *= std::polar(std::exp(log_r), phase);
    }
    shift += static_cast<std::int64_t>(f.times) * f.centre;
  }
  F::execute(backward);
  {
    std::lock_guard lock(planner_mutex());
    F::destroy(forward);
    F::destroy(backward);
  }
  std::vector<double> out(window);
  const Real scale = Real(1) / static_cast<Real>(n);
  for (std::size_t s = 0; s < window; ++s) {
    std::int64_t pos = (lo + static_cast<std::int64_t>(s) - shift) % ni;
    if (pos < 0) pos += ni;
    out[s] = std::max(0.0, static_cast<double>(real.get()[pos] * scale));
  }
  return out;
}

// A factor's moments under its normalised finite part.
Factor make_factor(const PrivacyLossPmf* pmf, double times) {
  const auto& p = pmf->probs;
  long double m0 = 0, m1 = 0, m2 = 0;
  for (std::size_t j = 0; j < p.size(); ++j) {
    m0 += p[j];
    m1 += p[j] * static_cast<long double>(j);
    m2 += p[j] * static_cast<long double>(j) * static_cast<long double>(j);
  }
  if (!(m0 > 0)) throw InvalidArgument("compose: a distribution has no finite mass");
  Factor f{pmf, times};
  f.mean = static_cast<double>(m1 / m0);
  f.variance = std::max(0.0, static_cast<double>(m2 / m0 - (m1 / m0) * (m1 / m0)));
  f.centre = static_cast<std::int64_t>(std::llround(f.mean));
  return f;
}

// Chernoff window [lo, hi] of S = sum of the factors' offsets, each tail <= tail_mass / 2.
std::pair<std::int64_t, std::int64_t> chernoff_window(const std::vector<Factor>& factors,
                                                      double tail_mass, std::int64_t max_index) {
  double total_variance = 0.0;
  for (const auto& f : factors) total_variance += f.times * f.variance;
  const double log_two_over_tail = std::log(2.0 / tail_mass) + 1e-9;  // margin for round-off
  double lo = 0.0, hi = static_cast<double>(max_index);
  const double t0 = std::sqrt(2.0 * log_two_over_tail / std::max(total_variance, 1e-12));
  for (int k = -8; k <= 8; ++k) {
    const double t = t0 * std::pow(2.0, 0.5 * k);
    for (const double sign : {1.0, -1.0}) {
      double k_t = 0.0;
      for (const auto& f : factors) k_t += f.times * log_mgf(f.pmf->probs, sign * t);
      const double bound = (k_t + log_two_over_tail) / (sign * t);
      if (!std::isfinite(bound)) continue;
      if (sign > 0)
        hi = std::min(hi, std::ceil(bound));
      else
        lo = std::max(lo, std::floor(bound));
    }
  }
  if (hi < lo) hi = lo;
  return {static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi)};
}

// E[j] under p_j e^{tau j} / Z (log weights: no overflow for any tau).
double tilted_mean(const std::vector<double>& p, double tau) {
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < p.size(); ++j)
    if (p[j] > 0) top = std::max(top, std::log(p[j]) + tau * static_cast<double>(j));
  long double z = 0, m = 0;
  for (std::size_t j = 0; j < p.size(); ++j) {
    if (!(p[j] > 0)) continue;
    const long double w = std::exp(std::log(p[j]) + tau * static_cast<double>(j) - top);
    z += w;
    m += w * static_cast<long double>(j);
  }
  return static_cast<double>(m / z);
}

// The tilt tau >= 0 (per grid step) whose tilted composition has its mean at offset `target`:
// sum_i T_i E_tau[j_i] = target (increasing in tau; bisection). 0 when the plain mean is there.
double tilt_for(const std::vector<Factor>& factors, double target) {
  auto mean = [&](double tau) {
    double m = 0.0;
    for (const auto& f : factors) m += f.times * tilted_mean(f.pmf->probs, tau);
    return m;
  };
  if (!(mean(0.0) < target)) return 0.0;
  double lo = 0.0, hi = 1e-6;
  for (int i = 0; i < 80 && mean(hi) < target; ++i) {
    lo = hi;
    hi *= 2.0;
  }
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (mean(mid) < target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

ComposedPmf compose(std::span<const PmfPower> factors_in, double tail_mass, double accurate_at) {
  require_open_interval("tail_mass", tail_mass, 0.0, 1.0);
  std::vector<Factor> factors;
  double d = 0.0;
  for (const auto& f : factors_in) {
    if (f.pmf == nullptr || f.pmf->probs.empty())
      throw InvalidArgument("compose: empty privacy loss distribution");
    if (f.times < 0) fail_field("times", static_cast<double>(f.times), "must be >= 0");
    if (d == 0.0) d = f.pmf->discretization;
    if (f.pmf->discretization != d)
      throw InvalidArgument("compose: the distributions have different discretizations");
    if (f.times > 0) factors.push_back(make_factor(f.pmf, static_cast<double>(f.times)));
  }
  ComposedPmf out;
  out.pmf.discretization = d == 0.0 ? 1e-4 : d;
  if (factors.empty()) {  // the identity: all mass at loss 0
    out.pmf.probs = {1.0};
    return out;
  }

  // Infinity mass, index offset.
  double log_finite = 0.0;
  std::int64_t base_index = 0, max_index = 0;
  for (const auto& f : factors) {
    log_finite += f.times * std::log1p(-f.pmf->infinity_mass);
    base_index += static_cast<std::int64_t>(f.times) * f.pmf->lower_index;
    max_index +=
        static_cast<std::int64_t>(f.times) * static_cast<std::int64_t>(f.pmf->probs.size() - 1);
  }

  // The tilted factors p_j e^{tau j} / Z (header), when a loss above the plain bulk is asked for.
  const double tau = std::isfinite(accurate_at)
                         ? tilt_for(factors, accurate_at / d - static_cast<double>(base_index))
                         : 0.0;
  std::vector<PrivacyLossPmf> tilted_pmfs;
  std::vector<Factor> tilted;
  double log_z = 0.0;  // sum_i T_i ln Z_i
  if (tau > 0.0) {
    tilted_pmfs.reserve(factors.size());
    for (const auto& f : factors) {
      const double lz = log_mgf(f.pmf->probs, tau);
      PrivacyLossPmf t = *f.pmf;
      for (std::size_t j = 0; j < t.probs.size(); ++j) {
        if (t.probs[j] > 0)
          t.probs[j] = std::exp(std::log(t.probs[j]) + tau * static_cast<double>(j) - lz);
      }
      tilted_pmfs.push_back(std::move(t));
      tilted.push_back(make_factor(&tilted_pmfs.back(), f.times));
      log_z += f.times * lz;
    }
  }

  // One window holds both: the plain composition's and the tilted one's Chernoff windows.
  auto [lo, hi] = chernoff_window(factors, tail_mass, max_index);
  if (tau > 0.0) {
    const auto [tlo, thi] = chernoff_window(tilted, tail_mass, max_index);
    lo = std::min(lo, tlo);
    hi = std::max(hi, thi);
  }
  const auto window = static_cast<std::size_t>(hi - lo) + 1;
  constexpr std::size_t kMaxCells = std::size_t{1} << 27;
  if (window > kMaxCells) {
    throw Error("PLD composition needs " + std::to_string(window) +
                " grid cells (more than 2^27): use a coarser discretization");
  }
  const std::size_t n = fast_size(std::max<std::size_t>(window, 2));
  out.fft_size = n;
  out.pmf.lower_index = base_index + lo;
  out.pmf.probs = cyclic_product<FftwDouble>(factors, n, lo, window);
  if (tau > 0.0) {
    // Cell S of the tilted composition, untilted: P_S = Pt_S e^{log_z - tau S}. Its round-off is
    // ~ max(Pt) e^{log_z - tau S}, the plain one's ~ max(P): each cell from the smaller.
    const auto pt = cyclic_product<FftwDouble>(tilted, n, lo, window);
    const double log_plain_floor =
        std::log(*std::max_element(out.pmf.probs.begin(), out.pmf.probs.end()));
    const double log_tilted_max = std::log(*std::max_element(pt.begin(), pt.end()));
    for (std::size_t s = 0; s < window; ++s) {
      const double log_untilt =
          log_z - tau * static_cast<double>(lo + static_cast<std::int64_t>(s));
      if (log_tilted_max + log_untilt <= log_plain_floor)
        out.pmf.probs[s] = pt[s] > 0 ? std::exp(std::log(pt[s]) + log_untilt) : 0.0;
    }
  }
  out.truncated_mass = tail_mass;
  out.pmf.infinity_mass = std::min(1.0, -std::expm1(log_finite) + tail_mass);
  return out;
}

}  // namespace dplab::privacy::pld
