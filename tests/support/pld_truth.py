#!/usr/bin/python3
"""Ground truth for the PLD accountant's edge tests (tests/data/pld_truth.json), computed without
any of dplab's code: the exact (epsilon, delta) curve of T compositions of the Poisson-subsampled
Gaussian, by numerical Laplace inversion of the privacy loss's moment generating function.

    git -C <clone of github.com/Felipe-Gomez/saddlepoint_accountant> show 7b39cdb:saddlepoint_accountant/other_accountants/mpmath_s2_q0p01_delta_1em15_n1500_4500_32.pkl > spa.pkl
    /usr/bin/python3 tests/support/pld_truth.py spa.pkl > tests/data/pld_truth.json   # ~1 min

(without spa.pkl: every third of the saddle-point compositions, and no check against theirs).

Method (Alghamdi et al., "The Saddle-Point Method in Differential Privacy", ICML 2023, Thm 3.1):
for a dominating pair (P, Q) with privacy loss L = ln(dP/dQ)(X), X ~ P, and any t > 0,

    delta(eps) = E[(1 - e^{eps - L_T})_+]
               = 1/(2 pi i) int_{t - i inf}^{t + i inf} M(z)^T e^{-eps z} / (z (z + 1)) dz,

M(z) = E[e^{z L}] = int p^{1+z} q^{-z} dx the moment generating function of one step (closing
the contour left picks the residues 1 and -e^{eps - l} at z = 0, -1 when l > eps, right picks
none when l < eps). With z = t + iy and conjugate symmetry,

    delta(eps) = (1/pi) int_0^inf Re G(y) dy,  G(y) = M(t+iy)^T e^{-eps(t+iy)} / ((t+iy)(t+1+iy)).

t is the saddle point (the minimum over t > 0 of ln G(0), convex), where G has no cancellation:
G(0) > 0 is of the size of delta. Both integrals are by the trapezoidal rule on uniform grids:
M(t+iy) = int w_t(x) e^{i y l(x)} dx over the noise coordinate x (w_t = p^{1+t} q^{-t}, l the
loss at x), and the y integral over [0, Y]. Both integrands are analytic in a strip and decay
faster than exponentially, where the trapezoidal rule converges geometrically in 1/h; every
value is recomputed with both steps halved and both ranges widened, and the relative change is
written beside it ("check"). M(z)^T = exp(T Log M(z)) holds with the principal Log because T is
an integer. epsilon(delta) is the root of ln delta(eps) = ln delta (regula falsi, Illinois, to
1e-13 relative). The pairs (sensitivity 1, noise sigma, rate q; N_m = N(m, sigma^2)):

    remove:     P = (1-q) N_0 + q N_1,   Q = N_0                   (Koskela et al. 2020, sec. 5.1)
    add:        P = N_0,                 Q = (1-q) N_0 + q N_1
    substitute: P = (1-q) N_0 + q N_1,   Q = (1-q) N_0 + q N_-1    (Koskela et al. 2020, sec. 5.2)

Checks written into the file: q = 1 against the closed form of mu-GDP (Dong, Roth & Su 2019,
Cor. 2.13), and the saddle-point accountant's own mpmath truth (their pickle, decoded) against
this method.
"""
import json
import math
import sys

import numpy as np

LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def log_mixture(q, u):
    """ln(1 - q + q e^u), elementwise, without overflow or cancellation."""
    if q == 1.0:
        return u.copy()
    out = np.empty_like(u)
    neg = u <= 0
    out[neg] = np.log1p(q * np.expm1(u[neg]))
    pos = ~neg
    out[pos] = u[pos] + np.log(q + (1 - q) * np.exp(-u[pos]))
    return out


class Pair:
    """One step's dominating pair in the noise coordinate x: ln w_t(x) = ln phi(x) + c(x) + t l(x),
    where phi is the N(0, sigma^2) density, c(x) = ln(p/phi) and l(x) = ln(p/q)."""

    def __init__(self, sigma, q, relation):
        self.sigma, self.q, self.relation = sigma, q, relation

    def parts(self, x):
        s2 = self.sigma**2
        up = log_mixture(self.q, (2 * x - 1) / (2 * s2))  # ln((1-q) + q N_1/N_0)
        if self.relation == "remove":
            return up, up
        if self.relation == "add":
            return np.zeros_like(x), -up
        down = log_mixture(self.q, (-2 * x - 1) / (2 * s2))  # ln((1-q) + q N_-1/N_0)
        return up, up - down

    def log_weight(self, x, t):
        c, loss = self.parts(x)
        return -x * x / (2 * self.sigma**2) - math.log(self.sigma) - LOG_SQRT_2PI + c + t * loss


class Quadrature:
    """Step and range of the x grid for tilt t; `fine` halves the step and widens the range."""

    def __init__(self, pair, t, fine=False):
        sigma = pair.sigma
        span = 45.0 * sigma + 3.0 * (1.0 + t)
        coarse = np.linspace(-span, span + 2.0 * (1.0 + t) * sigma**2, 20001)
        lw = pair.log_weight(coarse, t)
        keep = coarse[lw > lw.max() - (90.0 if fine else 75.0)]
        lo, hi = keep.min() - sigma, keep.max() + sigma
        self.h = min(sigma / 12.0, sigma * sigma / 6.0) / (2.0 if fine else 1.0)
        n = int(math.ceil((hi - lo) / self.h)) + 1
        self.x = lo + self.h * np.arange(n)
        c, self.loss = pair.parts(self.x)
        lw = pair.log_weight(self.x, t)
        self.log_scale = lw.max()
        self.w = np.exp(lw - self.log_scale)

    def log_mgf(self, y):
        """ln M(t + i y) for an array of y (principal branch)."""
        s = np.exp(1j * np.outer(y, self.loss)) @ self.w
        return np.log(s * self.h) + self.log_scale


def log_mgf_real(pair, t):
    return float(Quadrature(pair, t).log_mgf(np.array([0.0]))[0].real)


def saddle(pair, steps, eps):
    """argmin_{t > 0} of T ln M(t) - eps t - ln t - ln(1 + t) (convex): golden section in ln t."""
    f = lambda lt: steps * log_mgf_real(pair, math.exp(lt)) - eps * math.exp(lt) - lt - math.log1p(
        math.exp(lt))
    a, b = math.log(1e-4), math.log(1e-4)
    while True:  # bracket the minimum
        b += 1.0
        if f(b) > f(b - 1.0) or b > math.log(1e4):
            break
    a = b - 3.0
    g = (math.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    while b - a > 1e-7:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return math.exp(0.5 * (a + b))


def log_delta(pair, steps, eps, fine=False):
    """ln delta(eps) for T = steps compositions, by the contour integral at the saddle point."""
    t = saddle(pair, steps, eps)
    quad = Quadrature(pair, t, fine)
    w = quad.w / quad.w.sum()
    mean = float(w @ quad.loss)
    var = max(float(w @ (quad.loss - mean) ** 2) * steps, 1e-300)
    hy = min(t / 12.0, 0.1 / math.sqrt(var)) / (2.0 if fine else 1.0)
    ymax = math.sqrt(2.0 * (90.0 if fine else 75.0) / var)

    def log_g(y):
        z = t + 1j * y
        return steps * quad.log_mgf(y) - eps * z - np.log(z) - np.log(z + 1)

    g0 = float(log_g(np.array([0.0]))[0].real)
    total, k = 0.5, 1
    while True:  # trapezoid until the integrand stays below e^-75 of G(0) for 64 steps
        y = hy * np.arange(k, k + 64)
        vals = np.exp(log_g(y) - g0)
        total += float(vals.real.sum())
        k += 64
        if y[-1] > ymax and np.abs(vals).max() < math.exp(-75.0):
            break
        if k > 4_000_000:
            raise RuntimeError("contour integral does not converge")
    return g0 + math.log(hy * total / math.pi)


def epsilon_for_delta(pair, steps, delta, lo, hi, fine=False):
    """The eps with delta(eps) = delta (delta decreases in eps); regula falsi (Illinois)."""
    target = math.log(delta)
    if pair.relation == "add" and pair.q < 1:  # the add loss is at most -ln(1-q) per step
        hi = min(hi, -steps * math.log1p(-pair.q) * (1 - 1e-9))
    def f(e):
        try:
            return log_delta(pair, steps, e, fine) - target
        except ValueError:  # delta below the double range (beyond the loss's support)
            return -math.inf

    flo, fhi = f(lo), f(hi)
    while flo < 0:
        lo, flo = lo / 2, f(lo / 2)
    while fhi > 0:
        hi, fhi = hi * 2, f(hi * 2)
    while math.isinf(fhi):
        hi = 0.5 * (lo + hi)
        fhi = f(hi)
        if fhi > 0:
            lo, flo, hi, fhi = hi, fhi, 2 * hi - lo, -math.inf
    side = 0
    for _ in range(200):
        e = (lo * fhi - hi * flo) / (fhi - flo)
        fe = f(e)
        if abs(hi - lo) < 1e-13 * e or fe == 0:
            break
        if fe > 0:
            lo, flo = e, fe
            if side == -1:
                fhi /= 2
            side = -1
        else:
            hi, fhi = e, fe
            if side == 1:
                flo /= 2
            side = 1
        if abs(fe) < 1e-14:
            break
    return e


def rel(a, b):
    return abs(a - b) / abs(b)


def gdp_delta(mu, eps):
    phi = lambda z: 0.5 * math.erfc(-z / math.sqrt(2))
    return phi(-eps / mu + mu / 2) - math.exp(eps) * phi(-eps / mu - mu / 2)


def delta_entry(sigma, q, steps, eps, relation):
    pair = Pair(sigma, q, relation)
    d = math.exp(log_delta(pair, steps, eps))
    check = rel(math.exp(log_delta(pair, steps, eps, fine=True)), d)
    return {"query": "delta_for_epsilon", "noise_multiplier": sigma, "sampling_rate": q,
            "steps": steps, "relation": relation, "epsilon": eps, "delta": d, "check": check}


def epsilon_entry(sigma, q, steps, delta, relation, lo, hi):
    pair = Pair(sigma, q, relation)
    e = epsilon_for_delta(pair, steps, delta, lo, hi)
    check = rel(epsilon_for_delta(pair, steps, delta, e * 0.999, e * 1.001, fine=True), e)
    return {"query": "epsilon_for_delta", "noise_multiplier": sigma, "sampling_rate": q,
            "steps": steps, "relation": relation, "delta": delta, "epsilon": e, "check": check}


# The saddle-point accountant's truth (github.com/Felipe-Gomez/saddlepoint_accountant, commit
# 7b39cdb, saddlepoint_accountant/other_accountants/mpmath_s2_q0p01_delta_1em15_n1500_4500_32.pkl:
# mpmath's compute_epsilon_mp at 20 digits, remove direction, sigma 2, q 0.01, delta 1e-15,
# T = int(linspace(1.5, 4.5, 32) * 1000)). Each mpf is pickled as (sign, mantissa in hex,
# exponent, bits); value = (-1)^sign mantissa 2^exponent, decoded without mpmath.
SPA_TRUTH_MPF = None  # filled by decode_spa_pickle() when the pickle is given on the command line


def decode_spa_pickle(path):
    import pickle
    from fractions import Fraction

    class Mpf:
        def __setstate__(self, state):
            sign, man, exp, _ = state
            self.value = float(Fraction(int(man, 16)) * Fraction(2) ** exp * (-1 if sign else 1))

    class Unpickler(pickle.Unpickler):
        def find_class(self, module, name):
            if (module, name) == ("mpmath.ctx_mp_python", "mpf"):
                return Mpf
            raise pickle.UnpicklingError(f"unexpected class {module}.{name}")

    with open(path, "rb") as f:
        return [m.value for m in Unpickler(f).load()]


def spa_compositions():
    step = (4.5 - 1.5) / 31  # numpy.linspace(1.5, 4.5, 32), then int(x * 1000)
    xs = [i * step + 1.5 for i in range(32)]
    xs[-1] = 4.5
    return [int(x * 1000) for x in xs]


def main():
    spa = decode_spa_pickle(sys.argv[1]) if len(sys.argv) > 1 else None
    out = {
        "about": "Exact privacy curves of T compositions of the Poisson-subsampled Gaussian "
                 "(sensitivity 1, noise multiplier sigma, rate q), generated by "
                 "tests/support/pld_truth.py (numerical Laplace inversion of the privacy loss's "
                 "moment generating function at the saddle point, Alghamdi et al. ICML 2023 "
                 "Thm 3.1; trapezoidal rule in double precision); independent of dplab's code. "
                 "'check' is each value's relative change when both quadrature steps are halved "
                 "and both ranges widened. relation: remove P = (1-q)N(0)+qN(1) vs Q = N(0); add "
                 "the reverse pair; substitute P = (1-q)N(0)+qN(1) vs Q = (1-q)N(0)+qN(-1). "
                 "dplab's add/remove value is the larger of remove and add.",
        "generated_by": "/usr/bin/python3 tests/support/pld_truth.py spa.pkl (numpy "
                        + np.__version__ + "); spa.pkl: the saddle-point accountant's mpmath "
                        "truth, github.com/Felipe-Gomez/saddlepoint_accountant commit 7b39cdb, "
                        "saddlepoint_accountant/other_accountants/"
                        "mpmath_s2_q0p01_delta_1em15_n1500_4500_32.pkl, decoded without mpmath",
        "generator_checks": {},
        "cases": [],
    }
    # q = 1: T Gaussians of sigma are mu-GDP with mu = sqrt(T)/sigma (closed form).
    gdp = []
    for sigma, steps, eps in [(2.0, 16, 1.0), (1.0, 100, 30.0), (0.5, 4, 50.0)]:
        d = math.exp(log_delta(Pair(sigma, 1.0, "remove"), steps, eps))
        exact = gdp_delta(math.sqrt(steps) / sigma, eps)
        gdp.append({"noise_multiplier": sigma, "steps": steps, "epsilon": eps, "delta": d,
                    "closed_form": exact, "relative_error": rel(d, exact)})
    out["generator_checks"]["q1_vs_gdp_closed_form"] = gdp

    cases = out["cases"]
    # DPBayes PLD-Accountant README (sigma 4, q 0.01; printed values 4.243484012034273e-06 and
    # 1.9931200626285734; the README's ncomp read 1e4, then 1000, then 10000 with the same values).
    for steps in (1000, 10000):
        for relation in ("remove", "add"):
            cases.append(delta_entry(4.0, 0.01, steps, 1.0, relation) | {"id": f"dpbayes_T{steps}"})
        cases.append(epsilon_entry(4.0, 0.01, steps, 1e-5, "substitute", 0.5, 4.0)
                     | {"id": f"dpbayes_T{steps}"})
    # Saddle-point accountant's setting: sigma 2, q 0.01, delta 1e-15, T 1500..4500.
    spa_checks = []
    comps = spa_compositions()
    for i, steps in enumerate(comps):
        if i % 3 and i != len(comps) - 1 and spa is None:
            continue
        for relation in ("remove", "add"):
            guess = spa[i] if spa else 2.0
            e = epsilon_entry(2.0, 0.01, steps, 1e-15, relation, guess * 0.8, guess * 1.2)
            cases.append(e | {"id": f"spa_T{steps}"})
            if relation == "remove" and spa:
                spa_checks.append({"steps": steps, "spa_mpmath": spa[i], "this": e["epsilon"],
                                   "relative_difference": rel(e["epsilon"], spa[i])})
    if spa:
        out["generator_checks"]["saddlepoint_accountant_mpmath_truth"] = spa_checks
    # Large epsilon and small delta (the accountant's edges): epsilon up to ~50 (and one ~200),
    # delta down to 1e-15 (and 1e-30, Liu-Talwar's per-run deltas are ~1e-16 and below).
    for sigma, q, steps, delta in [(0.8, 0.1, 500, 1e-15), (0.5, 0.02, 1000, 1e-10),
                                   (0.7, 0.02, 2000, 1e-15), (1.0, 0.01, 10000, 1e-15),
                                   (0.6, 0.05, 1000, 1e-5), (1.0, 0.01, 10000, 1e-30),
                                   (0.5, 0.1, 1000, 1e-15)]:
        for relation in ("remove", "add"):
            cases.append(epsilon_entry(sigma, q, steps, delta, relation, 1.0, 250.0)
                         | {"id": f"edge_s{sigma}_q{q}_T{steps}"})
    for sigma, q, steps, eps in [(0.8, 0.1, 500, 40.0), (1.0, 0.01, 10000, 11.0),
                                 (2.0, 0.01, 3000, 2.2)]:
        for relation in ("remove", "add"):
            cases.append(delta_entry(sigma, q, steps, eps, relation)
                         | {"id": f"edge_s{sigma}_q{q}_T{steps}"})
    out["generator_checks"]["largest_check"] = max(c["check"] for c in cases)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
