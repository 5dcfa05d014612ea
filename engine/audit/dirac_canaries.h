// White-box gradient canaries for the one-run audit (Steinke, Nasr & Jagielski 2023, section 6,
// "Dirac canaries" in gradient space). Two kinds of direction u_i:
//   Dirac (the default of the audit): u_i = e_{k_i}, a standard basis vector on a coordinate k_i
//     the data never moves — a reserved coordinate of audit/reserved_coordinates_model.h — so the
//     only competitor of the canary on its coordinate is the DP noise;
//   random: u_i a normalised standard Gaussian vector (seeded; the m directions are made
//     orthonormal when m <= d and that is cheap, see the .cpp). The data's clipped gradient then
//     has a component along u_i at every step, and since the data gradient keeps pointing roughly
//     the same way it adds up over the T steps (~T |G_t| / sqrt d) while the noise grows like
//     sqrt T and the canary like qT: on Adult and Fashion-MNIST with L = 1000 it swamps the canary
//     (docs/guide/audit.md, "Why random directions audit to 0").
//
// Canary i is
// included in the run with probability 1/2 (seeded, S_i). At every noisy-gradient query an
// included canary joins the lot with the oracle's probability q (its own seeded stream) and then
// adds the clipped gradient  g_i = -c u_i,  c = min(canary_norm, C_t), to the clipped sum
// (dp_gradient/noisy_gradient.h, ClippedSumHook): exactly one more clipped example, so the
// accountant's (q, sigma, T) covers it. Gradient descent moves theta along +u_i when canary i is in
// the lot.
//
// Scores (higher = "more likely included"), read from what the run releases:
//   all iterates — the released noisy mean gradient g^_t of every query (the iterates are a
//     post-processing of them; for DP-SGD g^_t = (theta_t - theta_{t+1}) / eta). Per query,
//     z_{i,t} = -<g^_t, u_i> L / c is ~ B + N(0, sigma^2) + (data term) with B ~ Bernoulli(q) for
//     an included canary and B = 0 otherwise; the score is the Poisson-mixture log-likelihood
//     ratio  sum_t log(1 - q + q exp((z_{i,t} - 1/2) / sigma^2))  (the Neyman-Pearson test
//     when the data term is 0 — exactly so for Dirac canaries on reserved coordinates; with
//     sigma = 0 the plain sum of z_{i,t}).
//   final model — <theta_T - theta_0, u_i> (the brief's sum over iterates of
//     <theta_{t+1} - theta_t, u_i>, which telescopes to this).
//
// Thread-safety: one instance per training job.
#pragma once

#include <cstdint>
#include <vector>

#include "core/random.h"
#include "core/types.h"
#include "dp_gradient/noisy_gradient.h"

namespace dplab::audit {

class DiracCanaries final : public privacy::ClippedSumHook {
 public:
  // m canaries in a d-parameter model; canary_norm > 0 caps c (c = min(canary_norm, C_t));
  // noise_multiplier sigma and lot_size L of the run normalise z. Throws InvalidArgument.
  DiracCanaries(int canaries, Index num_params, double canary_norm, double noise_multiplier,
                double lot_size, std::uint64_t seed);
  // Dirac canaries: canary i on coordinate coordinates[i] (distinct, each in [0, num_params)), one
  // canary per coordinate. Same inclusion and sampling streams as above. Throws InvalidArgument.
  DiracCanaries(std::vector<Index> coordinates, Index num_params, double canary_norm,
                double noise_multiplier, double lot_size, std::uint64_t seed);

  // One job of a search audited as a whole (release/tuning_audit.h): every job trains with the
  // SAME canaries and inclusions S_i (the constructor's seed), but draws its canaries' lot
  // memberships from its own stream `sampling_seed`, as each run draws its own lots. `present`
  // (empty = all): the included canaries that are in this job's data (private-subsampled: those
  // in the tuning subsample X1, or in X \ X1 for the final run); only they join lots. Scores
  // start from 0.
  void set_job(std::uint64_t sampling_seed, const std::vector<bool>& present = {});

  void add_to_clipped_sum(double sampling_rate, double clip, VectorSpan clipped_sum) override;
  void observe_release(VectorView noisy_mean) override;

  // The final-model score <theta_T - theta_0, u_i> for each canary.
  std::vector<double> final_model_scores(VectorView initial, VectorView final_params) const;

  const std::vector<bool>& included() const { return included_; }
  // The canaries that join lots in this job: the included ones (and present, see set_job).
  const std::vector<Index>& active() const { return included_rows_; }
  // Dirac canaries' coordinates (empty for random directions).
  const std::vector<Index>& coordinates() const { return coordinates_; }
  const std::vector<double>& all_iterate_scores() const { return llr_; }
  int included_count() const;
  // Times an included canary joined a lot, summed over canaries (for the run summary).
  std::int64_t canary_insertions() const { return insertions_; }

 private:
  DiracCanaries(int canaries, Index num_params, double canary_norm, double noise_multiplier,
                double lot_size, std::uint64_t seed, bool random_directions);
  void draw_inclusions(int canaries, std::uint64_t seed);
  // <v, u_i> for every canary into projections_.
  void project(VectorView v);

  Matrix directions_;               // random: m x d, unit rows; Dirac: empty
  std::vector<Index> coordinates_;  // Dirac: k_i; random: empty
  std::vector<bool> included_;
  std::vector<Index> included_rows_;
  double canary_norm_;
  double noise_multiplier_;
  double lot_size_;
  Rng sampling_;
  double last_rate_ = 0;
  double last_norm_ = 0;  // c of the current query
  std::vector<double> llr_;
  Vector projections_;  // m, scratch
  std::int64_t insertions_ = 0;
};

}  // namespace dplab::audit
