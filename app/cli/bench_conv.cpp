// Conv-model benchmark rows (see bench_conv.h).
#include "cli/bench_conv.h"

#include "cli/bench_peak.h"
#include "cli/bench_stepper.h"
#include "cli/bench_timing.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/random.h"
#include "data/feature_rows.h"
#include "dp_gradient/noisy_gradient.h"
#include "models/batch_parallel_model.h"
#include "models/conv_network.h"
#include "models/model.h"
#include "optim/optimizer.h"
#include "privacy/mechanisms/poisson_sampler.h"

namespace dplab::cli {
namespace {

// One example at a time: g_i materialised by a single-row backward, clipped, summed.
class NaivePerExampleStep {
 public:
  NaivePerExampleStep(models::Model& model, const data::Dataset& train, double lot_size)
      : model_(model),
        train_(train),
        sampler_(train.size(), lot_size / static_cast<double>(train.size())),
        sum_(model.num_params()),
        single_(model.num_params()),
        rng_(11) {
    lot_.reserve(static_cast<std::size_t>(sampler_.suggested_capacity()));
  }
  void step() {
    sum_.setZero();
    sampler_.sample(rng_, lot_);
    for (const Index i : lot_) {
      // No norms asked of the model (an empty span): the baseline takes ||g_i|| from the
      // materialised g_i below, as a per-example-gradient library does.
      model_.clipped_gradient_sum(data::feature_rows(train_, i, 1, row_),
                                  train_.targets.segment(i, 1), models::kNoClipping, single_,
                                  no_norms_);
      const double norm = single_.norm();
      sum_.noalias() += (norm > 1.0 ? static_cast<float>(1.0 / norm) : 1.0f) * single_;
    }
    model_.params().noalias() -= 1e-3f * sum_;
  }

 private:
  models::Model& model_;
  const data::Dataset& train_;
  privacy::PoissonSampler sampler_;
  Vector sum_, single_, no_norms_;
  Matrix row_;  // a pixel row as floats
  Rng rng_;
  std::vector<Index> lot_;
};

}  // namespace

nlohmann::json bench_conv(const data::Dataset& train, double bench_lot_size, double seconds,
                          int threads, std::ostream* table_out) {
  nlohmann::json rows = nlohmann::json::array();
  if (table_out) {
    char line[256];
    std::snprintf(line, sizeof line, "%-18s %8s %11s %13s %11s %9s %9s %9s %8s %9s %8s\n",
                  "conv model", "params", "DP steps/s", "nonpriv st/s", "naive st/s", "DP/nonp",
                  "naive/DP", "DP GF/s", "of peak", "np GF/s", "of peak");
    *table_out << line;
  }
  for (auto kind : {models::ModelKind::kCnn, models::ModelKind::kConvAutoencoder,
                    models::ModelKind::kWideCnn}) {
    // The wide-cnn's step costs ~11x the conv-autoencoder's per example: at most kWideCnnLotSize
    // rows keep its row as short as the others' (bench_conv.h).
    const double lot_size = kind == models::ModelKind::kWideCnn
                                ? std::min(bench_lot_size, kWideCnnLotSize)
                                : bench_lot_size;
    models::ModelSpec spec;
    spec.kind = kind;
    auto model = models::make_model(spec, train.dim(), train.num_classes);
    model->initialize(1);
    optim::OptimizerSpec sgd;
    sgd.kind = optim::OptimizerKind::kDpSgd;
    sgd.learning_rate = 1e-3;
    // The DP step, the non-private step and the SGEMM peak, in alternating rounds: the two
    // "of peak" shares divide timings taken in the same seconds.
    // on_threads 0: the model itself, with the SGEMM peak; >= 1: the fixed chunks of
    // BatchParallelModel on that many threads, with the chunked DP step on 1 thread as the third
    // body (issue #49: what the chunks cost at T = 1; the same floats as on T threads).
    const auto time_steps = [&](int on_threads) {
      const bool with_peak = on_threads == 0;
      BenchStepper dp_stepper(*model, train, {1.0, 1.0, lot_size}, sgd, on_threads);
      BenchStepper plain_stepper(*model, train, {models::kNoClipping, 0.0, lot_size}, sgd,
                                 on_threads);
      BenchStepper chunked_1(*model, train, {1.0, 1.0, lot_size}, sgd, 1);
      SquareSgemm sgemm;
      const std::array<std::function<void()>, 3> bodies{
          [&] { dp_stepper.step(); }, [&] { plain_stepper.step(); },
          [&] { with_peak ? sgemm.multiply() : chunked_1.step(); }};
      return interleaved_seconds_per_call(2.5 * seconds, std::span(bodies.data(), 3), 3,
                                          /*warmup_calls=*/1);
    };
    const std::vector<double> one_thread = time_steps(0);  // the model itself
    const double dp = one_thread[0], nonprivate = one_thread[1];
    const double sgemm_gflops = SquareSgemm::kFlops / one_thread[2] / 1e9;
    auto copy = model->clone();
    NaivePerExampleStep naive_step(*copy, train, lot_size);
    const double naive = seconds_per_call(
        seconds, [&] { naive_step.step(); }, /*warmup_calls=*/1);
    nlohmann::json row;
    row["model"] = model->name();
    row["params"] = model->num_params();
    row["lot_size"] = lot_size;
    row["dp_steps_per_second"] = 1 / dp;
    row["nonprivate_steps_per_second"] = 1 / nonprivate;
    row["naive_dp_steps_per_second"] = 1 / naive;
    row["dp_cost_vs_nonprivate"] = dp / nonprivate;
    row["speedup_vs_naive"] = naive / dp;
    row["layers"] = model->description();
    // GEMM FLOPs of one step (bench_conv.h): per example, times the expected lot size.
    const auto& network = dynamic_cast<const models::ConvNetwork&>(*model);
    const double dp_flops = network.gemm_flops_per_example(true) * lot_size;
    const double plain_flops = network.gemm_flops_per_example(false) * lot_size;
    row["flop_count"] = "GEMMs only, 2 M N K each, per layer (Layer::gemm_flops) x L";
    row["dp_step_gemm_flops"] = dp_flops;
    row["nonprivate_step_gemm_flops"] = plain_flops;
    row["dp_gflops"] = dp_flops / dp / 1e9;
    row["nonprivate_gflops"] = plain_flops / nonprivate / 1e9;
    row["naive_gflops"] = plain_flops / naive / 1e9;
    row["sgemm_peak_gflops"] = sgemm_gflops;
    row["dp_fraction_of_sgemm_peak"] = dp_flops / dp / 1e9 / sgemm_gflops;
    row["nonprivate_fraction_of_sgemm_peak"] = plain_flops / nonprivate / 1e9 / sgemm_gflops;
    // 1 vs `threads` threads: the same DP and non-private steps, the lot split over threads.
    nlohmann::json by_threads = nlohmann::json::array();
    by_threads.push_back({{"threads", 1},
                          {"dp_steps_per_second", 1 / dp},
                          {"nonprivate_steps_per_second", 1 / nonprivate},
                          {"dp_gflops", dp_flops / dp / 1e9},
                          {"nonprivate_gflops", plain_flops / nonprivate / 1e9}});
    double dp_parallel = 0, nonprivate_parallel = 0, dp_chunked_1 = 0;
    if (threads > 1) {
      const std::vector<double> parallel = time_steps(threads);
      dp_parallel = parallel[0];
      nonprivate_parallel = parallel[1];
      dp_chunked_1 = parallel[2];
      by_threads.push_back(
          {{"threads", threads},
           {"dp_steps_per_second", 1 / dp_parallel},
           {"nonprivate_steps_per_second", 1 / nonprivate_parallel},
           {"dp_gflops", dp_flops / dp_parallel / 1e9},
           {"nonprivate_gflops", plain_flops / nonprivate_parallel / 1e9},
           {"dp_speedup_vs_one_thread", dp / dp_parallel},
           {"chunked_one_thread_dp_steps_per_second", 1 / dp_chunked_1},
           {"dp_speedup_vs_chunked_one_thread", dp_chunked_1 / dp_parallel},
           {"nonprivate_speedup_vs_one_thread", nonprivate / nonprivate_parallel}});
    }
    row["by_threads"] = by_threads;
    nlohmann::json per_layer = nlohmann::json::array();
    for (std::size_t l = 0; l < network.layers().size(); ++l) {
      const auto& layer = *network.layers()[l];
      if (layer.gemm_flops(true, l > 0) == 0) continue;
      per_layer.push_back({{"layer", layer.describe()},
                           {"dp_flops_per_example", layer.gemm_flops(true, l > 0)},
                           {"nonprivate_flops_per_example", layer.gemm_flops(false, l > 0)}});
    }
    row["gemm_flops_by_layer"] = per_layer;
    rows.push_back(row);
    if (table_out) {
      // The name, and the lot size where it is not the run's.
      char lot[32];
      std::snprintf(lot, sizeof lot, " L=%g", lot_size);
      const std::string label = model->name() + (lot_size < bench_lot_size ? lot : "");
      char line[256];
      std::snprintf(line, sizeof line,
                    "%-18s %8lld %11.2f %13.2f %11.2f %8.2fx %8.2fx %9.1f %7.0f%% %9.1f %7.0f%%\n",
                    label.c_str(), static_cast<long long>(model->num_params()), 1 / dp,
                    1 / nonprivate, 1 / naive, dp / nonprivate, naive / dp, dp_flops / dp / 1e9,
                    100 * dp_flops / dp / 1e9 / sgemm_gflops, plain_flops / nonprivate / 1e9,
                    100 * plain_flops / nonprivate / 1e9 / sgemm_gflops);
      *table_out << line;
      if (threads > 1) {
        std::snprintf(line, sizeof line,
                      "%-18s %8s %11.2f %13.2f %11s %8.2fx %8.2fx %9.1f   (%d threads; speed-up "
                      "DP %.2fx, non-private %.2fx; chunks on 1 thread %.2f DP st/s)\n",
                      "", "", 1 / dp_parallel, 1 / nonprivate_parallel, "",
                      dp_parallel / nonprivate_parallel, naive / dp_parallel,
                      dp_flops / dp_parallel / 1e9, threads, dp / dp_parallel,
                      nonprivate / nonprivate_parallel, 1 / dp_chunked_1);
        *table_out << line;
      }
    }
  }
  if (table_out) {
    *table_out << "DP/nonp: DP step cost over the non-private step (target <= 1.2x); naive/DP: "
                  "speed-up over one backward per example.\nGF/s: the step's GEMM FLOPs (2 M N K "
                  "each, per layer, x L; JSON gemm_flops_by_layer) per second; of peak: share of "
                  "the SGEMM 512x512 peak timed in the same rounds (target >= 40%), one "
                  "thread.\nIndented row: the same steps with the lot split over --threads "
                  "threads (BatchParallelModel's fixed chunks: the same floats on 1 thread, whose "
                  "DP steps/s\nend "
                  "the row).\n\n";
  }
  return rows;
}

}  // namespace dplab::cli
