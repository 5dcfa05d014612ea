#include "tuning/objpert_search.h"

#include <chrono>
#include <cmath>

#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"
#include "objective_perturbation/algorithm1.h"
#include "objective_perturbation/glm_data.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/accounting/rdp_conversion.h"

namespace dplab::tuning {
namespace {

// The smoothness beta of the logistic loss on rows of norm <= sqrt 2 (algorithm1.h).
constexpr double kLogisticSmoothness = 0.25 * 2.0;

}  // namespace

std::string ObjpertCandidate::label() const {
  return "objpert lr=" + format_number(learning_rate) + " iters=" + std::to_string(max_iterations);
}

std::vector<ObjpertCandidate> expand_objpert_candidates(
    const experiment::ExperimentConfig& config) {
  std::vector<ObjpertCandidate> out;
  for (std::size_t e = 0; e < config.objective_perturbation.size(); ++e) {
    const auto& entry = config.objective_perturbation[e];
    for (const double lr : entry.learning_rates) {
      for (const std::int64_t iterations : entry.max_iterations) {
        ObjpertCandidate c;
        c.index = static_cast<int>(out.size());
        c.entry = static_cast<int>(e);
        c.learning_rate = lr;
        c.max_iterations = iterations;
        out.push_back(c);
      }
    }
  }
  return out;
}

objpert::ObjPertPrivacy objpert_privacy(const experiment::ObjpertEntry& entry) {
  objpert::ObjPertPrivacy p;
  p.noise_std = entry.noise_std;
  p.regularization = entry.regularization;
  p.smoothness = kLogisticSmoothness;
  p.gradient_bound = entry.clip;
  p.tau = entry.tau;
  p.output_noise_std = entry.output_noise_std;
  objpert::validate(p);
  return p;
}

ObjpertSearch run_objpert_search(const experiment::ExperimentConfig& config,
                                 const data::TrainValidationSplit& data,
                                 const std::atomic<bool>* cancel) {
  ObjpertSearch search;
  search.candidates = expand_objpert_candidates(config);
  if (search.candidates.empty()) return search;
  if (data.train.num_classes != 2) {
    throw InvalidArgument("objpert entries need binary classification data (logistic loss); '" +
                          data.train.name + "' has " +
                          (data.train.is_regression()
                               ? std::string("regression targets")
                               : std::to_string(data.train.num_classes) + " classes"));
  }
  const objpert::GlmData train = objpert::make_glm_data(data.train);
  const objpert::GlmData validation = objpert::make_glm_data(data.validation);
  const int repeats = config.repeats;
  search.jobs.resize(search.candidates.size() * static_cast<std::size_t>(repeats));
  std::vector<double> sum(search.candidates.size(), 0.0), count(search.candidates.size(), 0.0);
  for (std::size_t i = 0; i < search.jobs.size(); ++i) {
    ObjpertJob& job = search.jobs[i];
    job.candidate = static_cast<int>(i) / repeats;
    job.repeat = static_cast<int>(i) % repeats;
    if (cancel && cancel->load()) continue;  // stays kPending: never touched the data
    const ObjpertCandidate& c = search.candidates[static_cast<std::size_t>(job.candidate)];
    const auto& entry = config.objective_perturbation[static_cast<std::size_t>(c.entry)];
    objpert::Algorithm1Settings s;
    s.loss = objpert::GlmLoss::kLogistic;
    s.clip = entry.clip;
    s.noise_std = entry.noise_std;
    s.regularization = entry.regularization;
    s.tau = entry.tau;
    s.output_noise_std = entry.output_noise_std;
    s.solver.kind = objpert::SolverKind::kGradientDescent;
    s.solver.learning_rate = c.learning_rate;
    s.solver.max_iterations = static_cast<long>(c.max_iterations);
    s.seed = derive_seed(config.seed, kObjpertSeedStream + static_cast<std::uint64_t>(c.index),
                         static_cast<std::uint64_t>(job.repeat));
    const auto started = std::chrono::steady_clock::now();
    try {
      objpert::Algorithm1Result r;
      try {
        r = objpert::run_algorithm1(train, s);
      } catch (const InvalidArgument&) {
        throw;
      } catch (const Error&) {
        // Gradient descent did not reach tau within its budget: L-BFGS finishes the same solve
        // (same seed, so the same perturbation b and output noise): one release.
        const long spent = s.solver.max_iterations;
        s.solver.kind = objpert::SolverKind::kLbfgs;
        s.solver.max_iterations = 100000;
        r = objpert::run_algorithm1(train, s);
        r.iterations += spent;
        job.finished_by_lbfgs = true;
      }
      job.val_accuracy = objpert::glm_accuracy(validation, r.theta);
      job.iterations = r.iterations;
      job.status = JobStatus::kFinished;
      sum[static_cast<std::size_t>(job.candidate)] += job.val_accuracy;
      count[static_cast<std::size_t>(job.candidate)] += 1;
    } catch (const Error& e) {
      job.status = JobStatus::kFailed;
      job.error = e.what();
    }
    job.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  for (std::size_t c = 0; c < search.candidates.size(); ++c) {
    if (count[c] == 0) continue;
    const double mean = sum[c] / count[c];
    if (search.best_candidate < 0 || mean > search.best_accuracy) {
      search.best_candidate = static_cast<int>(c);
      search.best_accuracy = mean;
    }
  }
  return search;
}

ReleaseCost release_cost_with_objpert(const SearchResults& dpsgd, const ObjpertSearch& objpert) {
  std::int64_t objpert_runs = 0;
  for (const ObjpertJob& job : objpert.jobs) objpert_runs += job.status != JobStatus::kPending;
  const bool explore = dpsgd.config.release.mode == experiment::ReleaseMode::kExplore;
  if (objpert_runs == 0) return release_cost(dpsgd);
  if (!explore) {
    throw InvalidArgument(
        "objpert entries are searched in explore mode only: the private "
        "release modes do not draw objective-perturbation candidates yet");
  }
  ReleaseCost cost = explore_release_cost(dpsgd);
  const RunMechanism& m = dpsgd.mechanism;
  const std::vector<double> orders = privacy::rdp_orders();
  std::vector<double> total(orders.size(), 0.0);
  if (cost.total_queries > 0) {
    const auto curve = privacy::rdp_curve(m.noise_multiplier, m.sampling_rate);
    for (std::size_t i = 0; i < orders.size(); ++i)
      total[i] += static_cast<double>(cost.total_queries) * curve->rdp_per_step[i];
  }
  for (const ObjpertJob& job : objpert.jobs) {
    if (job.status == JobStatus::kPending) continue;
    const auto& c = objpert.candidates[static_cast<std::size_t>(job.candidate)];
    const auto p =
        objpert_privacy(dpsgd.config.objective_perturbation[static_cast<std::size_t>(c.entry)]);
    for (std::size_t i = 0; i < orders.size(); ++i)
      total[i] += objpert::algorithm1_rdp(p, orders[i]);
  }
  cost.epsilon = privacy::epsilon_from_rdp(orders, total, cost.delta).epsilon;
  cost.num_candidates += static_cast<int>(objpert.candidates.size());
  cost.runs_charged += objpert_runs;
  cost.expected_runs += static_cast<double>(objpert_runs);
  cost.covers += " and " + std::to_string(objpert_runs) +
                 " objective-perturbation runs (Algorithm 1, Theorem 4.1; " +
                 std::to_string(objpert.candidates.size()) + " candidates), composed in RDP";
  return cost;
}

}  // namespace dplab::tuning
