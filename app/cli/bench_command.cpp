// dplab-cli bench: where dplab's speed claims come from (docs/architecture.md "Numerics").
// In one run, on the same data, it measures per model (logistic 784->10, TLNN 784->100->10,
// Fashion-MNIST shapes, lot size L = 250, one thread):
//   - the DP step (Poisson lot, per-example clipping by the rank-1 norm identity, noise, DPSGD),
//   - the non-private step of the same model (same sampling, no clipping, no noise),
//   - the secure DP step (`tune --release private --secure`: lots from getrandom, exact discrete
//     Gaussian noise on the integer grid, docs/secure-noise.md), as a ratio to the seeded DP step,
//   - a naive DP step that materialises every per-example gradient (one backward per example),
//   - the step's own GEMMs alone, and a square SGEMM for the machine's peak,
// and, once per run, the gather of a Poisson lot alone (lots drawn by the real sampler, rows
// copied by the oracle's own gather_lot out of the full training matrix) and the Poisson
// sampling alone. The step's ceiling is gather + GEMMs: a DP step cannot be faster than
// copying its lot out of DRAM and multiplying it, so the DP step is reported as a share of that.
// The step, the non-private step, the gather and the GEMMs are timed in alternating rounds
// (bench_timing.h), so a change of the machine's speed cannot fall between a ratio's two terms.
// Image data are kept as bytes (data/feature_rows.h); for them the bench also gathers the same
// lots, and runs the DP step, on a float copy of the features (the storage dplab used before),
// so the gain of byte storage is a ratio measured in the same run.
// It reports steps/s, examples/s, GFLOP/s and ratios against the baselines of the same run.
// Then the sparse vector technique's fast scan against its full scan (bench_sparse.h) and the
// accountant: time of one epsilon cold and warm (see bench_accounting.h).
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/bench_accounting.h"
#include "cli/bench_conv.h"
#include "cli/bench_peak.h"
#include "cli/bench_sparse.h"
#include "cli/bench_stepper.h"
#include "cli/bench_timing.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/progress_line.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/random.h"
#include "core/validate.h"
#include "data/dataset.h"
#include "data/dataset_catalog.h"
#include "data/feature_rows.h"
#include "data/lot_gather.h"
#include "dp_gradient/noisy_gradient.h"
#include "models/model.h"
#include "optim/optimizer.h"
#include "privacy/mechanisms/poisson_sampler.h"
#include "training/trainer.h"

namespace dplab::cli {
namespace {

// Fashion-MNIST when the Debian package is installed, else random data of the same shape.
data::Dataset bench_data(std::string& description) {
  try {
    data::DatasetSource source;
    source.name = "fashion-mnist";
    data::Dataset real = data::load_dataset(source);
    description = "Fashion-MNIST train (" + std::to_string(real.size()) + " x " +
                  std::to_string(real.dim()) + ")";
    return real;
  } catch (const Error&) {
  }
  const Index n = 60000, d = 784;
  data::Dataset fake;
  fake.name = "random 60000 x 784";
  fake.num_classes = 10;
  fake.features.resize(n, d);
  fake.targets.resize(n);
  Rng rng(7);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < d; ++j) fake.features(i, j) = static_cast<float>(rng.uniform());
    fake.targets(i) = static_cast<float>(rng.below(10));
  }
  description = "random data of Fashion-MNIST shape (dataset-fashion-mnist not installed)";
  return fake;
}

// Per-lot fixed costs that do not depend on the model, measured once per run.
struct LotBench {
  double gather = 0;        // seconds to gather one lot (rows + targets) into the lot buffer
  double gather_float = 0;  // the same lots out of a float copy (0 unless the data are bytes)
  double sampling = 0;      // seconds to draw one lot's indices (PoissonSampler)
  double mean_rows = 0;     // mean lot size over the lots gathered
  double gather_bytes = 0;  // mean bytes of features read per lot
};

// Lots drawn by the real sampler (q = L / n), enough of them (512 x L rows) to sweep the full
// training matrix several times, so a timed gather measures the copy alone and its rows come from
// DRAM as in training, not from cache.
class LotSource {
 public:
  LotSource(const data::Dataset& train, double lot_size)
      : sampler_(train.size(), std::min(1.0, lot_size / static_cast<double>(train.size()))),
        lots_(512) {
    Rng rng(5);
    Index largest = 0;
    double total_rows = 0;
    for (auto& lot : lots_) {
      sampler_.sample(rng, lot);
      largest = std::max(largest, static_cast<Index>(lot.size()));
      total_rows += static_cast<double>(lot.size());
    }
    mean_rows_ = total_rows / static_cast<double>(lots_.size());
    features_.resize(std::max<Index>(largest, 1), train.dim());
    targets_.resize(std::max<Index>(largest, 1));
  }

  // Copies the next lot's rows and targets out of `from` into the lot buffer.
  void gather_next(const data::Dataset& from) {
    data::gather_lot(from, lots_[next_], features_, targets_);
    next_ = (next_ + 1) % lots_.size();
  }

  const privacy::PoissonSampler& sampler() const { return sampler_; }
  double mean_rows() const { return mean_rows_; }

 private:
  privacy::PoissonSampler sampler_;
  std::vector<std::vector<Index>> lots_;
  Matrix features_;
  Vector targets_;
  std::size_t next_ = 0;
  double mean_rows_ = 0;
};

LotBench bench_lot(const data::Dataset& train, const data::Dataset* float_copy, LotSource& lots,
                   double seconds) {
  LotBench bench;
  bench.mean_rows = lots.mean_rows();
  bench.gather_bytes = bench.mean_rows * static_cast<double>(train.feature_bytes()) /
                       static_cast<double>(train.size());
  bench.gather = seconds_per_call(seconds / 2, [&] { lots.gather_next(train); });
  if (float_copy != nullptr)
    bench.gather_float = seconds_per_call(seconds / 2, [&] { lots.gather_next(*float_copy); });
  Rng rng(5);
  std::vector<Index> lot;
  lot.reserve(static_cast<std::size_t>(lots.sampler().suggested_capacity()));
  bench.sampling = seconds_per_call(seconds / 4, [&] { lots.sampler().sample(rng, lot); });
  return bench;
}

struct ModelBench {
  std::string model;
  Index params = 0;
  double dp_step = 0, nonprivate_step = 0, naive_step = 0, gemm_only = 0;
  double secure_step = 0;            // the DP step with secure noise, timed in the DP step's rounds
  double dp_step_float_storage = 0;  // DP step on the float copy (0 unless the data are bytes)
  double step_flops = 0;             // flops of the step's GEMMs (forward + backward)
  double ceiling_gather = 0;  // the lot gather, timed in the same rounds as the step (bench_model)
  // One run on `threads` cores (issue #49, models/batch_parallel_model.h): the DP step through the
  // fixed chunks on 1 and on `threads` threads (the same floats), and the chunks' per-example
  // work alone (the clipped sum of a gathered lot of L rows, 1 thread): the rest of the step
  // (Poisson sampling, gather, noise, update) is serial, so the speed-up is at most
  // chunked_1 / (serial + work / threads) with serial = chunked_1 - work (Amdahl).
  int threads = 1;
  double chunked_step_1 = 0, chunked_step_t = 0, chunked_work_1 = 0;
  double speedup_ceiling() const {
    const double serial = std::max(0.0, chunked_step_1 - chunked_work_1);
    return chunked_step_1 / (serial + chunked_work_1 / threads);
  }
};

// Naive per-example DP gradient: one backward pass per example (m = 1), explicit clip, sum.
class NaiveDpStep {
 public:
  NaiveDpStep(models::Model& model, const data::Dataset& train, double lot_size, double clip)
      : model_(model),
        train_(train),
        sampler_(train.size(), lot_size / static_cast<double>(train.size())),
        clip_(clip),
        sum_(model.num_params()),
        single_(model.num_params()),
        norm_(1),
        rng_(11) {
    lot_.reserve(static_cast<std::size_t>(sampler_.suggested_capacity()));
  }

  void step() {
    sum_.setZero();
    sampler_.sample(rng_, lot_);
    for (const Index i : lot_) {
      model_.clipped_gradient_sum(data::feature_rows(train_, i, 1, row_),
                                  train_.targets.segment(i, 1), models::kNoClipping, single_,
                                  norm_);
      const double norm = single_.norm();
      const float scale = norm > clip_ ? static_cast<float>(clip_ / norm) : 1.0f;
      sum_.noalias() += scale * single_;
    }
    model_.params().noalias() -= 1e-3f * sum_;
  }

 private:
  models::Model& model_;
  const data::Dataset& train_;
  privacy::PoissonSampler sampler_;
  double clip_;
  Vector sum_, single_, norm_;
  Matrix row_;  // a pixel row as floats
  Rng rng_;
  std::vector<Index> lot_;
};

ModelBench bench_model(models::ModelKind kind, const data::Dataset& train,
                       const data::Dataset* float_copy, LotSource& lots, double lot_size,
                       double seconds, int threads) {
  ModelBench bench;
  bench.threads = threads;
  models::ModelSpec spec;
  spec.kind = kind;
  auto model = models::make_model(spec, train.dim(), train.num_classes);
  model->initialize(1);
  bench.model = model->name();
  bench.params = model->num_params();

  optim::OptimizerSpec sgd;
  sgd.kind = optim::OptimizerKind::kDpSgd;
  sgd.learning_rate = 1e-3;

  BenchStepper dp(*model, train, {1.0, 1.0, lot_size}, sgd);
  BenchStepper nonprivate(*model, train, {models::kNoClipping, 0.0, lot_size}, sgd);
  BenchStepper secure(*model, train, {1.0, 1.0, lot_size}, sgd, 0, true);
  // Issue #49: the chunked step on 1 and on `threads` threads (the same floats), and the chunks'
  // per-example work alone on a gathered lot of L rows.
  BenchStepper chunked_1(*model, train, {1.0, 1.0, lot_size}, sgd, 1);
  BenchStepper chunked_t(*model, train, {1.0, 1.0, lot_size}, sgd, threads);
  models::BatchParallelModel work_model(*model, 1);
  std::vector<Index> work_rows(
      static_cast<std::size_t>(std::min(static_cast<Index>(lot_size), train.size())));
  for (std::size_t i = 0; i < work_rows.size(); ++i) work_rows[i] = static_cast<Index>(i);
  Matrix work_x(static_cast<Index>(work_rows.size()), train.dim());
  Vector work_y(work_x.rows()), work_sum(model->num_params()), work_norms(work_x.rows());
  data::gather_lot(train, work_rows, work_x, work_y);

  // The step's own GEMMs on a lot of exactly L rows: forward X W and backward X^T E per layer.
  const Index m = static_cast<Index>(lot_size), d = train.dim(), k = train.num_classes;
  std::vector<std::pair<Index, Index>> layers;  // (in, out)
  if (kind == models::ModelKind::kTwoLayerNetwork) {
    layers = {{d, spec.hidden_units}, {spec.hidden_units, k}};
  } else {
    layers = {{d, k}};
  }
  std::vector<Matrix> inputs, weights, outputs, errors, grads;
  for (auto [in, out] : layers) {
    inputs.push_back(Matrix::Random(m, in));
    weights.push_back(Matrix::Random(in, out));
    outputs.push_back(Matrix(m, out));
    errors.push_back(Matrix::Random(m, out));
    grads.push_back(Matrix(in, out));
    bench.step_flops += 2.0 * 2.0 * static_cast<double>(m * in * out);
  }

  // The DP step, the non-private step, the secure DP step and the two parts of the ceiling
  // (gather, GEMMs) are the numerators and denominators of the table's ratios: timed in
  // alternating rounds.
  const std::array<std::function<void()>, 8> bodies{
      [&] { dp.step(); },
      [&] { nonprivate.step(); },
      [&] { lots.gather_next(train); },
      [&] {
        for (std::size_t l = 0; l < layers.size(); ++l) {
          outputs[l].noalias() = inputs[l] * weights[l];
          grads[l].noalias() = inputs[l].transpose() * errors[l];
        }
      },
      [&] { secure.step(); },
      [&] { chunked_1.step(); },
      [&] { chunked_t.step(); },
      [&] { work_model.clipped_gradient_sum(work_x, work_y, 1.0, work_sum, work_norms); }};
  // Eight bodies in the five's former 3 s: the bench's total time stays the same.
  const std::vector<double> timed = interleaved_seconds_per_call(3 * seconds, bodies, 6);
  bench.dp_step = timed[0];
  bench.nonprivate_step = timed[1];
  bench.ceiling_gather = timed[2];
  bench.gemm_only = timed[3];
  bench.secure_step = timed[4];
  bench.chunked_step_1 = timed[5];
  bench.chunked_step_t = timed[6];
  bench.chunked_work_1 = timed[7];

  if (float_copy != nullptr) {
    BenchStepper on_floats(*model, *float_copy, {1.0, 1.0, lot_size}, sgd);
    bench.dp_step_float_storage = seconds_per_call(seconds, [&] { on_floats.step(); });
  }
  {
    auto copy = model->clone();
    NaiveDpStep naive(*copy, train, lot_size, 1.0);
    bench.naive_step = seconds_per_call(seconds / 2, [&] { naive.step(); });
  }
  return bench;
}

double square_sgemm_gflops(double seconds) {
  SquareSgemm sgemm;
  return SquareSgemm::kFlops / seconds_per_call(seconds / 2, [&] { sgemm.multiply(); }) / 1e9;
}

int run_bench(const Arguments& args) {
  const double seconds = args.number_or("seconds", kDefaultSeconds);
  const double lot_size = args.number_or("lot-size", kDefaultLotSize);
  // An hour per variant is far more than a stable timing needs; 1e15 is a typo, not a request.
  if (!(seconds > 0 && seconds <= 3600))
    throw UsageError("--seconds = " + format_number(seconds) + " must be in (0, 3600]");
  if (!(lot_size >= 1))
    throw UsageError("--lot-size = " + format_number(lot_size) + " must be >= 1");
  // Threads of the conv models' batch-parallel rows (bench_conv.h); the rest is one thread.
  const int threads = args.int_or("threads", kDefaultConvThreads);
  training::require_lot_threads("--threads", threads);  // the trainer's rule (exit status 2)
  const bool as_json = args.has("json");
  // Ctrl-C / SIGTERM: the measurement in progress finishes (at most --seconds per variant), what
  // is measured so far is printed (the table rows, or the JSON with "interrupted": true), and
  // the exit status is 130 / 143 (cli/interrupt.h).
  const InterruptScope interrupt;
  // The stages measured, as a progress line with ETA on stderr (cli/progress_line.h); redrawn in
  // place only when the table does not go to the same terminal.
  const bool accounting = !args.has("skip-accounting");
  const double stages = accounting ? 7 : 6;
  double stages_done = 0;
  ProgressLine progress("bench", "stages", stderr_is_terminal() && isatty(STDOUT_FILENO) == 0);
  const auto next_stage = [&](const std::string& what) {
    progress.update(stages_done, stages, what);
    ++stages_done;
  };

  nlohmann::json report;
  const auto stop_here = [&] {
    progress.finish();
    report["interrupted"] = true;
    if (as_json) std::cout << json_text(report, 2) << "\n";
    std::cout.flush();
    std::fflush(stdout);
    std::cerr << "dplab-cli bench: " << interrupt.what_happened()
              << "; printed the measurements finished so far\n";
    return interrupt.exit_status();
  };

  std::string data_description;
  const data::Dataset train = bench_data(data_description);
  if (lot_size > static_cast<double>(train.size())) throw UsageError("--lot-size exceeds n");
  report["data"] = data_description;
  report["lot_size"] = lot_size;
  report["threads"] = 1;
  report["eigen_simd"] = Eigen::SimdInstructionSetsInUse();
  // Byte storage of image data: a float copy (the former storage) for in-run ratios.
  std::unique_ptr<data::Dataset> float_copy;
  if (train.stores_pixels()) {
    float_copy = std::make_unique<data::Dataset>(train);
    data::store_as_floats(*float_copy);
  }
  report["data_storage"] = {
      {"kind", train.stores_pixels() ? "uint8 pixels" : "float"},
      {"feature_bytes", train.feature_bytes()},
      {"float_feature_bytes", static_cast<double>(train.size() * train.dim()) * sizeof(float)}};
  next_stage("SGEMM");
  const double peak = square_sgemm_gflops(seconds);
  report["sgemm_512_gflops"] = peak;
  next_stage("lot gather");
  LotSource lots(train, lot_size);
  const LotBench lot = bench_lot(train, float_copy.get(), lots, seconds);
  report["lot_gather"] = {{"seconds_per_lot", lot.gather},
                          {"lots_per_second", 1 / lot.gather},
                          {"mean_rows", lot.mean_rows},
                          {"gigabytes_per_second", lot.gather_bytes / lot.gather / 1e9},
                          {"poisson_sampling_seconds_per_lot", lot.sampling}};
  if (float_copy) {
    report["lot_gather"]["float_storage_seconds_per_lot"] = lot.gather_float;
    report["lot_gather"]["speedup_vs_float_storage"] = lot.gather_float / lot.gather;
  }
  if (interrupt.interrupted()) return stop_here();

  if (!as_json) {
    std::printf("dplab bench — %s, L = %.0f, one thread, SIMD: %s\n", data_description.c_str(),
                lot_size, Eigen::SimdInstructionSetsInUse());
    std::printf("Eigen SGEMM 512x512: %.1f GFLOP/s\n", peak);
    std::printf(
        "Lot gather alone (Poisson, mean %.0f rows x %lld features of %lld): %.1f us per lot "
        "(%.2f GB/s); Poisson sampling alone: %.1f us per lot\n",
        lot.mean_rows, static_cast<long long>(train.dim()), static_cast<long long>(train.size()),
        lot.gather * 1e6, lot.gather_bytes / lot.gather / 1e9, lot.sampling * 1e6);
    if (float_copy) {
      std::printf(
          "Features stored as bytes (%.1f MB; as floats %.1f MB): the same lots out of "
          "floats take %.1f us (%.2fx)\n",
          static_cast<double>(train.feature_bytes()) / 1e6,
          static_cast<double>(float_copy->feature_bytes()) / 1e6, lot.gather_float * 1e6,
          lot.gather_float / lot.gather);
    }
    std::printf("\n");
    std::printf("%-22s %9s %12s %12s %12s %12s %9s %10s %10s %9s %10s %9s\n", "model", "params",
                "DP steps/s", "DP ex/s", "nonpriv st/s", "naive st/s", "DP/nonp", "DP/naive",
                "GEMM-only", "of GEMM", "gather+G", "of g+G");
  }
  for (auto kind : {models::ModelKind::kLogisticRegression, models::ModelKind::kTwoLayerNetwork}) {
    if (interrupt.interrupted()) return stop_here();
    next_stage(models::to_string(kind));
    const ModelBench b =
        bench_model(kind, train, float_copy.get(), lots, lot_size, seconds, threads);
    nlohmann::json row;
    row["model"] = b.model;
    row["params"] = b.params;
    row["dp_steps_per_second"] = 1 / b.dp_step;
    row["dp_examples_per_second"] = lot_size / b.dp_step;
    row["nonprivate_steps_per_second"] = 1 / b.nonprivate_step;
    row["naive_dp_steps_per_second"] = 1 / b.naive_step;
    row["dp_cost_vs_nonprivate"] = b.dp_step / b.nonprivate_step;
    row["speedup_vs_naive"] = b.naive_step / b.dp_step;
    row["gemm_only_steps_per_second"] = 1 / b.gemm_only;
    row["fraction_of_gemm_ceiling"] = b.gemm_only / b.dp_step;
    // The ceiling of a step: gather its lot, then its GEMMs, both timed in the step's rounds.
    const double ceiling = b.ceiling_gather + b.gemm_only;
    row["ceiling_gather_seconds_per_lot"] = b.ceiling_gather;
    row["ceiling_steps_per_second"] = 1 / ceiling;
    row["fraction_of_ceiling"] = ceiling / b.dp_step;
    row["nonprivate_fraction_of_ceiling"] = ceiling / b.nonprivate_step;
    row["dp_step_gflops"] = b.step_flops / b.dp_step / 1e9;
    if (float_copy) {
      row["dp_steps_per_second_float_storage"] = 1 / b.dp_step_float_storage;
      row["speedup_vs_float_storage"] = b.dp_step_float_storage / b.dp_step;
    }
    row["gemm_only_gflops"] = b.step_flops / b.gemm_only / 1e9;
    row["secure_dp_steps_per_second"] = 1 / b.secure_step;
    row["secure_cost_vs_seeded"] = b.secure_step / b.dp_step;
    // One run on `threads` cores (issue #49): the fixed chunks on 1 and on `threads` threads.
    row["by_threads"] =
        nlohmann::json::array({{{"threads", 1},
                                {"dp_steps_per_second", 1 / b.chunked_step_1},
                                {"cost_vs_unchunked_step", b.chunked_step_1 / b.dp_step},
                                {"per_example_work_seconds", b.chunked_work_1}},
                               {{"threads", threads},
                                {"dp_steps_per_second", 1 / b.chunked_step_t},
                                {"dp_speedup_vs_one_thread", b.chunked_step_1 / b.chunked_step_t},
                                {"speedup_ceiling", b.speedup_ceiling()}}});
    report["models"].push_back(row);
    if (!as_json) {
      std::printf(
          "%-22s %9lld %12.0f %12.0f %12.0f %12.1f %8.2fx %9.1fx %10.0f %8.0f%% %10.0f %8.0f%%\n",
          b.model.c_str(), static_cast<long long>(b.params), 1 / b.dp_step, lot_size / b.dp_step,
          1 / b.nonprivate_step, 1 / b.naive_step, b.dp_step / b.nonprivate_step,
          b.naive_step / b.dp_step, 1 / b.gemm_only, 100 * b.gemm_only / b.dp_step, 1 / ceiling,
          100 * ceiling / b.dp_step);
      std::printf(
          "%-22s %9s %12.0f   (the DP step with secure noise: %.2fx the seeded step's time)\n",
          "  secure noise", "", 1 / b.secure_step, b.secure_step / b.dp_step);
      std::printf(
          "%-22s %9s %12.0f   (fixed chunks, 1 thread: %.2fx the step's time; per-example work "
          "%.0f%% of it)\n",
          "  chunks, 1 thread", "", 1 / b.chunked_step_1, b.chunked_step_1 / b.dp_step,
          100 * b.chunked_work_1 / b.chunked_step_1);
      std::printf(
          "%-22s %9s %12.0f   (%d threads, the same floats: speed-up %.2fx of at most %.2fx, the "
          "serial rest)\n",
          ("  chunks, " + std::to_string(threads) + " threads").c_str(), "", 1 / b.chunked_step_t,
          threads, b.chunked_step_1 / b.chunked_step_t, b.speedup_ceiling());
      if (float_copy) {
        std::printf("%-22s %9s %12.0f   (the DP step with float storage; bytes %.2fx faster)\n",
                    "  float storage", "", 1 / b.dp_step_float_storage,
                    b.dp_step_float_storage / b.dp_step);
      }
    }
  }
  if (!as_json) {
    std::printf(
        "\nDP/nonp: cost of a DP step relative to the non-private step (target ~2x).\n"
        "of GEMM: DP step speed as a share of the step's own GEMMs alone.\n"
        "gather+G: the step's ceiling, steps/s of gathering its lot plus its GEMMs; of g+G: the "
        "DP\n"
        "step as a share of that ceiling (target >= 80%%).\n"
        "chunks: the lot cut into BatchParallelModel's fixed chunks (issue #49), on 1 and on "
        "--threads\nthreads; at most: Amdahl's bound, the sampling, gather, noise and update "
        "being serial.\n\n");
  }
  if (interrupt.interrupted()) return stop_here();
  next_stage("conv models");
  report["conv_models"] =
      bench_conv(train, lot_size, seconds, threads, as_json ? nullptr : &std::cout);
  if (interrupt.interrupted()) return stop_here();
  next_stage("sparse vector");
  report["sparse_vector"] = bench_sparse_selection(seconds, as_json ? nullptr : &std::cout);
  if (interrupt.interrupted()) return stop_here();
  if (accounting) {
    next_stage("accounting");
    report["accounting"] = bench_accounting(as_json ? std::cerr : std::cout);
  }
  progress.finish(stages, stages);
  if (as_json) std::cout << json_text(report, 2) << "\n";
  return 0;
}

}  // namespace

void add_bench_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_bench_flags(cli, *args), [args] { return run_bench(*args); });
}

}  // namespace dplab::cli
