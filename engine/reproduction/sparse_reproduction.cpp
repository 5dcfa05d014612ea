#include "reproduction/sparse_reproduction.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/random.h"
#include "core/validate.h"
#include "models/cbow_negative_sampling.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/mechanisms/exponential_top_k.h"

namespace dplab::experiment {
namespace {

using training::WideMethod;

constexpr std::uint64_t kDataStream = 1;
constexpr std::uint64_t kTrainExamplesStream = 2;
constexpr std::uint64_t kTestExamplesStream = 3;
constexpr std::uint64_t kInitStream = 4;
constexpr std::uint64_t kRunStream = 5;
constexpr std::uint64_t kCanaryStream = 6;
constexpr std::uint64_t kInsertStream = 7;
constexpr std::uint64_t kAbsentStream = 8;

// CSV text is built in memory and written atomically (core/atomic_file.h): a full disk is an
// error with the system's reason, never a truncated or 0-byte file.
std::ostringstream open_csv(const std::string& /*path*/) {
  std::ostringstream out;
  out << std::setprecision(17);  // exact doubles: no epsilon is printed rounded down
  return out;
}

void close_csv(std::ostringstream& out, const std::string& path) {
  write_file_atomically(path, out.str());
}

training::WideRunConfig run_config(const SparsePreset& preset, const Calibration& calibration,
                                   const MethodPrivacy& privacy, std::uint64_t seed) {
  training::WideRunConfig c;
  c.method = privacy.method;
  c.learning_rate = preset.learning_rate;
  c.moments = preset.moments;
  c.lot_size = preset.lot_size;
  c.steps = calibration.steps;
  c.clip1 = preset.clip1;
  c.clip2 = preset.clip2;
  c.gamma = preset.gamma;
  c.clip0 = preset.clip0;
  c.noise_multiplier = privacy.noise_multiplier;
  c.selection_epsilon = privacy.selection_epsilon > 0 ? privacy.selection_epsilon : 1.0;
  c.selection_delta = privacy.selection_delta > 0 ? privacy.selection_delta : 1e-7;
  c.eval_every =
      std::max<std::int64_t>(1, calibration.steps / std::max<std::int64_t>(1, preset.eval_points));
  c.eval_examples = preset.eval_examples;
  c.seed = seed;
  return c;
}

}  // namespace

PreparedText prepare_text(const SparsePreset& preset, const std::vector<audit::Canary>& canaries,
                          int canary_repeats) {
  PreparedText out;
  out.corpus = text::load_text_corpus(preset.corpus_path, {preset.vocabulary_size, true});
  text::CbowDataOptions options;
  options.window = preset.window;
  options.negatives = preset.negatives;
  options.max_train_tokens = preset.train_tokens;
  options.max_test_tokens = preset.test_tokens;
  // Train and test from the same part of the corpus (the fixed 0.3 let the test stream read on
  // into later books at the paper's 25,000 + 25,000 tokens; issue #48).
  options.test_fraction = text::balanced_test_fraction(preset.train_tokens, preset.test_tokens);
  options.seed = derive_seed(preset.seed, kDataStream);
  out.streams = text::split_streams(out.corpus, options);
  std::vector<int> train_stream = out.streams.train;
  if (!canaries.empty() && canary_repeats > 0) {
    train_stream = audit::insert_canaries(
        train_stream, canaries, canary_repeats,
        derive_seed(preset.seed, kInsertStream, static_cast<std::uint64_t>(canary_repeats)));
  }
  out.train = text::make_cbow_examples(train_stream, out.corpus.counts, options,
                                       derive_seed(preset.seed, kTrainExamplesStream));
  out.test = text::make_cbow_examples(out.streams.test, out.corpus.counts, options,
                                      derive_seed(preset.seed, kTestExamplesStream));
  return out;
}

const MethodPrivacy& Calibration::of(WideMethod m) const {
  for (const auto& p : methods)
    if (p.method == m) return p;
  throw InvalidArgument("no calibration for method " + training::to_string(m));
}

Calibration calibrate(const SparsePreset& preset, std::int64_t train_examples) {
  require_positive("epochs", preset.epochs);
  require_run_size("epochs", preset.epochs, 0, kMaxEpochs);
  Calibration c;
  c.train_examples = train_examples;
  const double n = static_cast<double>(train_examples);
  // The steps these epochs give, held to the same cap as every run's T (before the cast).
  require_run_size("epochs * n / lot_size (the steps)",
                   std::ceil(preset.epochs * n / preset.lot_size), 1, kMaxTrainingSteps);
  c.steps = static_cast<std::int64_t>(std::ceil(preset.epochs * n / preset.lot_size));
  c.sampling_rate = preset.lot_size / n;
  const auto sparse = privacy::theorem3_calibrate(n, preset.lot_size, c.steps, preset.epsilon_noise,
                                                  preset.epsilon_selection, preset.delta);
  const Index p = static_cast<Index>(preset.vocabulary_size) * preset.embedding_dim;
  const Index k = privacy::selection_count(preset.gamma, p);
  const double total_epsilon = preset.epsilon_noise + preset.epsilon_selection;
  for (const WideMethod m :
       {WideMethod::kNonPrivate, WideMethod::kDpSgd, WideMethod::kSparseExponential,
        WideMethod::kSparseVector, WideMethod::kSparseRandom, WideMethod::kSparseOracle}) {
    MethodPrivacy mp;
    mp.method = m;
    privacy::SparseDpRdpInput rdp{c.sampling_rate,
                                  c.steps,
                                  0,
                                  preset.lot_size,
                                  preset.clip1,
                                  preset.clip2,
                                  privacy::SelectionKind::kUniform,
                                  0,
                                  0};
    switch (m) {
      case WideMethod::kNonPrivate:
      case WideMethod::kSparseOracle:  // not private: no noise, no account
        break;
      case WideMethod::kDpSgd:
        mp.noise_multiplier = privacy::calibrate_noise_multiplier(total_epsilon, preset.delta,
                                                                  c.sampling_rate, c.steps);
        rdp.noise_multiplier = mp.noise_multiplier;
        rdp.clip2 = std::numeric_limits<double>::infinity();
        rdp.selection = privacy::SelectionKind::kAll;
        mp.rdp = privacy::sparse_dp_rdp_epsilon(rdp, preset.delta);
        // The exact subsampled-Gaussian account (what the calibration used) is tighter.
        mp.rdp.epsilon = privacy::epsilon_for_delta({mp.noise_multiplier, c.sampling_rate, c.steps},
                                                    preset.delta)
                             .epsilon;
        break;
      case WideMethod::kSparseExponential:
      case WideMethod::kSparseVector:
      case WideMethod::kSparseRandom: {
        mp.sigma_given = preset.figure1_sparse_sigma >= 0;
        mp.noise_multiplier =
            mp.sigma_given ? preset.figure1_sparse_sigma : sparse.noise_multiplier;
        mp.selection_delta = sparse.step_delta;
        mp.selection_epsilon = m == WideMethod::kSparseRandom ? 0.0 : sparse.selection_epsilon;
        if (m == WideMethod::kSparseExponential)
          mp.draw_epsilon =
              privacy::exponential_top_k_draw_epsilon(mp.selection_epsilon, mp.selection_delta, k);
        if (mp.noise_multiplier == 0) break;  // no noise: no guarantee to compute
        mp.has_theorem3 = true;
        mp.theorem3 = privacy::theorem3_epsilon({n, preset.lot_size, c.steps, mp.noise_multiplier,
                                                 mp.selection_epsilon, mp.selection_delta});
        rdp.noise_multiplier = mp.noise_multiplier;
        if (m == WideMethod::kSparseExponential) {
          rdp.selection = privacy::SelectionKind::kExponential;
          rdp.draw_epsilon = mp.draw_epsilon;
          rdp.draws = k;
        } else if (m == WideMethod::kSparseVector) {
          rdp.selection = privacy::SelectionKind::kSparseVector;
        }
        mp.rdp = privacy::sparse_dp_rdp_epsilon(rdp, preset.delta);
        break;
      }
    }
    c.methods.push_back(mp);
  }
  return c;
}

std::vector<MethodCurve> run_figure1(const SparsePreset& preset, const PreparedText& data,
                                     const Calibration& calibration,
                                     const std::vector<WideMethod>& methods,
                                     const Progress& progress, const std::atomic<bool>* cancel) {
  std::vector<MethodCurve> curves;
  const double runs = static_cast<double>(std::max<std::size_t>(1, methods.size()));
  for (std::size_t r = 0; r < methods.size(); ++r) {
    const WideMethod m = methods[r];
    if (progress) progress("figure 1: training " + training::to_string(m), r / runs);
    models::CbowNegativeSampling model(static_cast<int>(data.corpus.vocabulary.size()),
                                       preset.embedding_dim);
    model.initialize(derive_seed(preset.seed, kInitStream), preset.init_std);
    const auto config =
        run_config(preset, calibration, calibration.of(m), derive_seed(preset.seed, kRunStream));
    const std::string what = "figure 1: training " + training::to_string(m);
    const double steps = static_cast<double>(config.steps);
    auto on_point = [&](const training::WidePoint& point) {
      if (progress) progress(what, (r + static_cast<double>(point.step) / steps) / runs);
    };
    curves.push_back(
        {m, training::run_wide_training(model, data.train, data.test, config, cancel, on_point)});
  }
  return curves;
}

std::vector<Table2Row> run_table2(const SparsePreset& preset, const Progress& progress,
                                  const std::atomic<bool>* cancel) {
  if (!std::isfinite(preset.table2_sigma) || preset.table2_sigma < 0)
    throw InvalidArgument("table2_sigma must be 0 (calibrated) or > 0, got " +
                          format_number(preset.table2_sigma));
  std::vector<Table2Row> rows;
  const int v = preset.vocabulary_size;
  const auto canaries =
      audit::make_canaries(preset.canaries, v, derive_seed(preset.seed, kCanaryStream));
  const auto absent =
      audit::make_canaries(preset.canaries, v, derive_seed(preset.seed, kAbsentStream));
  constexpr int kMethodsPerRow = 3;  // non-private, DP-SGD, sparse EM
  const double total_runs =
      static_cast<double>(std::max<std::size_t>(1, preset.canary_repeats.size()) * kMethodsPerRow);
  int done_runs = 0;
  for (std::size_t r = 0; r < preset.canary_repeats.size(); ++r) {
    const int repeats = preset.canary_repeats[r];
    const PreparedText data = prepare_text(preset, canaries, repeats);
    if (static_cast<int>(data.corpus.vocabulary.size()) != v) {
      throw InvalidArgument("the corpus has only " + std::to_string(data.corpus.vocabulary.size()) +
                            " distinct words; vocabulary_size must not exceed it");
    }
    const Calibration calibration = calibrate(preset, data.train.size());
    const bool given = preset.table2_sigma > 0;
    const double shared_sigma =
        given ? preset.table2_sigma
              : calibration.of(WideMethod::kSparseExponential).noise_multiplier;
    for (const WideMethod m :
         {WideMethod::kNonPrivate, WideMethod::kDpSgd, WideMethod::kSparseExponential}) {
      if (progress)
        progress(
            "table 2: n_c = " + std::to_string(repeats) + ", training " + training::to_string(m),
            static_cast<double>(done_runs) / total_runs);
      MethodPrivacy privacy = calibration.of(m);
      // Paper: DP-SGD at the sparse method's sigma; a given sigma replaces both.
      if (m != WideMethod::kNonPrivate) privacy.noise_multiplier = shared_sigma;
      models::CbowNegativeSampling model(v, preset.embedding_dim);
      model.initialize(derive_seed(preset.seed, kInitStream), preset.init_std);
      auto config = run_config(preset, calibration, privacy, derive_seed(preset.seed, kRunStream));
      config.eval_every = config.steps;  // no curve needed
      const auto run = training::run_wide_training(model, data.train, data.test, config, cancel);
      if (progress)
        progress("table 2: n_c = " + std::to_string(repeats) + ", ranking canaries of " +
                     training::to_string(m),
                 (done_runs + 0.9) / total_runs);
      const auto scores = audit::canary_scores(model, canaries);
      rows.push_back({repeats, training::to_string(m),
                      audit::rank_histogram(audit::rank_fractions(scores)),
                      audit::summarize_exposure(scores), run.wall_seconds, privacy.noise_multiplier,
                      given && m != WideMethod::kNonPrivate});
      if (m == WideMethod::kNonPrivate && r + 1 == preset.canary_repeats.size()) {
        const auto null_scores = audit::canary_scores(model, absent);
        rows.push_back({repeats, "never-inserted",
                        audit::rank_histogram(audit::rank_fractions(null_scores)),
                        audit::summarize_exposure(null_scores), run.wall_seconds, 0.0, false});
      }
      ++done_runs;
    }
  }
  if (progress) progress("table 2: done", 1.0);
  return rows;
}

double epoch_of_step(std::int64_t step, double lot_size, std::int64_t train_examples) {
  return static_cast<double>(step) * lot_size / static_cast<double>(train_examples);
}

void write_figure1_csv(const std::string& path, const std::vector<MethodCurve>& curves,
                       double lot_size, std::int64_t train_examples) {
  auto out = open_csv(path);
  out << "method,step,epoch,train_loss,test_loss\n";
  for (const auto& c : curves)
    for (const auto& p : c.run.curve)
      out << training::to_string(c.method) << ',' << p.step << ','
          << epoch_of_step(p.step, lot_size, train_examples) << ',' << p.train_loss << ','
          << p.test_loss << '\n';
  close_csv(out, path);
}

void write_table2_csv(const std::string& path, const std::vector<Table2Row>& rows) {
  auto out = open_csv(path);
  out << "n_c,method,chi2_distance,chi2_statistic,p_value,mean_exposure_bits,max_exposure_bits,"
         "canaries,train_wall_seconds,noise_multiplier,sigma_source\n";
  for (const auto& r : rows) {
    double total = 0;
    for (const double c : r.histogram.counts) total += c;
    out << r.repeats << ',' << r.method << ',' << r.histogram.test.distance << ','
        << r.histogram.test.statistic << ',' << r.histogram.test.p_value << ',' << r.exposure.mean
        << ',' << r.exposure.max << ',' << total << ',' << r.train_wall_seconds << ','
        << r.noise_multiplier << ','
        << (r.noise_multiplier == 0 ? "none"
            : r.sigma_given         ? "given"
                                    : "calibrated")
        << '\n';
  }
  close_csv(out, path);
}

void write_histograms_csv(const std::string& path, const std::vector<Table2Row>& rows) {
  auto out = open_csv(path);
  out << "n_c,method,bin_low,bin_high,count\n";
  for (const auto& r : rows) {
    const auto bins = static_cast<double>(r.histogram.counts.size());
    for (std::size_t b = 0; b < r.histogram.counts.size(); ++b)
      out << r.repeats << ',' << r.method << ',' << static_cast<double>(b) / bins << ','
          << static_cast<double>(b + 1) / bins << ',' << r.histogram.counts[b] << '\n';
  }
  close_csv(out, path);
}

void write_calibration_csv(const std::string& path, const Calibration& c, double delta) {
  auto out = open_csv(path);
  out << "method,noise_multiplier,selection_epsilon_per_step,draw_epsilon,step_delta,"
         "theorem3_epsilon,theorem3_paper_epsilon,theorem3_paper_closed_form,theorem3_delta,"
         "theorem3_assumption,"
         "gaussian_lemma_applies,sampling_lemma_applies,rdp_epsilon,rdp_delta,rdp_effective_"
         "sigma,sigma_source\n";
  for (const auto& m : c.methods) {
    out << training::to_string(m.method) << ',' << m.noise_multiplier << ',' << m.selection_epsilon
        << ',' << m.draw_epsilon << ',' << m.selection_delta << ',';
    if (m.has_theorem3) {
      out << m.theorem3.epsilon << ',' << m.theorem3.paper_epsilon << ','
          << m.theorem3.epsilon_closed_form << ',' << m.theorem3.delta << ','
          << m.theorem3.assumption_holds << ',' << m.theorem3.gaussian_lemma_applies << ','
          << m.theorem3.sampling_lemma_applies << ',';
    } else {
      out << ",,,,,,,";
    }
    if (m.rdp.available)
      out << m.rdp.epsilon << ',' << delta << ',' << m.rdp.effective_noise_multiplier << ',';
    else
      out << ",,,";
    // Empty for the runs without noise by design (non-private, oracle).
    out << (m.sigma_given ? "given" : m.noise_multiplier > 0 ? "calibrated" : "") << '\n';
  }
  close_csv(out, path);
}

}  // namespace dplab::experiment
