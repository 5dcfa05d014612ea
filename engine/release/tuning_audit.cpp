#include "release/tuning_audit.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "audit/black_box_canaries.h"
#include "audit/dirac_canaries.h"
#include "audit/reserved_coordinates_model.h"
#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"
#include "models/model_export.h"

namespace dplab::release {
namespace {

// Seed streams of the white-box canaries, derived from the audit seed (never the experiment's).
constexpr std::uint64_t kJobSamplingStream = 0x74756e6553ULL;  // + phase; "tuneS"
constexpr std::uint64_t kSubsetCoinStream = 0x74756e6558ULL;   // "tuneX": in X1 or not

// The phases of a search: a plain private search has one (kSearch); private-subsampled a tuning
// phase (kSearch) and the final run (kFinal), as SearchSessionHooks::on_runner tells them apart.
enum Phase : std::size_t { kSearch = 0, kFinal = 1 };

// White-box instrumentation of one run: pads its model with m reserved coordinates, adds the
// included (and present) canaries to its clipped sums, and keeps its final reserved coordinates.
class DiracJob final : public training::TrainingInstrumentation {
 public:
  DiracJob(int canaries, double norm, double sigma, double lot_size, std::uint64_t audit_seed,
           std::uint64_t sampling_seed, std::vector<bool> present)
      : canaries_(canaries),
        norm_(norm),
        sigma_(sigma),
        lot_size_(lot_size),
        audit_seed_(audit_seed),
        sampling_seed_(sampling_seed),
        present_(std::move(present)) {}

  std::unique_ptr<models::Model> wrap_model(std::unique_ptr<models::Model> model) override {
    auto padded = std::make_unique<audit::ReservedCoordinatesModel>(std::move(model), canaries_);
    first_ = padded->reserved_coordinate(0);
    std::vector<Index> coordinates;
    for (Index i = 0; i < padded->reserved(); ++i)
      coordinates.push_back(padded->reserved_coordinate(i));
    // The audit seed: the same canaries and inclusions S_i in every run; set_job: this run's
    // own lot memberships.
    dirac_.emplace(std::move(coordinates), padded->num_params(), norm_, sigma_, lot_size_,
                   audit_seed_);
    dirac_->set_job(sampling_seed_, present_);
    return padded;
  }
  privacy::ClippedSumHook* clipped_sum_hook() override { return dirac_ ? &*dirac_ : nullptr; }
  void on_trained(const models::Model& model) override {
    scores_.clear();
    for (Index i = 0; i < canaries_; ++i) {
      const double s = model.params()[first_ + i];  // theta_T - theta_0: reserved start at 0
      scores_.push_back(std::isfinite(s) ? s : -std::numeric_limits<double>::max());
    }
  }
  const std::vector<double>& scores() const { return scores_; }
  const std::vector<bool>& included() const { return dirac_->included(); }

 private:
  int canaries_;
  double norm_, sigma_, lot_size_;
  std::uint64_t audit_seed_, sampling_seed_;
  std::vector<bool> present_;
  Index first_ = 0;
  std::optional<audit::DiracCanaries> dirac_;
  std::vector<double> scores_;
};

// The white-box side of the audit: one DiracJob per run of each phase.
struct WhiteBoxState {
  const experiment::ExperimentConfig* config = nullptr;
  const audit::OneRunAuditOptions* options = nullptr;
  std::atomic<std::size_t> phase{kSearch};
  std::array<std::vector<std::shared_ptr<DiracJob>>, 2> jobs;
  std::vector<bool> included;                // S_i, drawn before anything runs
  std::array<std::vector<bool>, 2> present;  // per phase; empty = every included canary

  std::shared_ptr<training::TrainingInstrumentation> instrument(std::size_t job) {
    const std::size_t p = phase.load();
    const double norm =
        options->canary_norm > 0 ? options->canary_norm : std::numeric_limits<double>::max();  // C
    auto j = std::make_shared<DiracJob>(
        options->canaries, norm, config->privacy.noise_multiplier, config->privacy.lot_size,
        options->seed, derive_seed(options->seed, kJobSamplingStream + p, job), present[p]);
    jobs[p].at(job) = j;  // each run writes its own slot (sized before the runner runs)
    return j;
  }
};

// S_i of the white-box canaries: what every run's DiracCanaries draws from the audit seed
// (audit/dirac_canaries.h), drawn once here before anything runs.
std::vector<bool> white_box_inclusions(const audit::OneRunAuditOptions& options) {
  std::vector<Index> coordinates;
  for (Index i = 0; i < options.canaries; ++i) coordinates.push_back(i);
  return audit::DiracCanaries(std::move(coordinates), options.canaries, 1, 0, 1, options.seed)
      .included();
}

void check_auditable(const experiment::ExperimentConfig& config,
                     const audit::OneRunAuditOptions& options) {
  if (config.release.mode != experiment::ReleaseMode::kPrivate) {
    throw InvalidArgument(
        "the audit of a tuning release needs a private release (release mode private or "
        "private-subsampled): explore releases every run");
  }
  if (config.release.linear_scaling) {
    // Its trials train at other noise multipliers and its final run at an extrapolated learning
    // rate: the mechanism audited here (one search, one final phase) is not that procedure.
    throw InvalidArgument(
        "release mode private-linear-scaling: the audit of a tuning release covers private and "
        "private-subsampled; audit a linear-scaling release's final run with dplab-cli audit "
        "(one run) at its sigma");
  }
  if (config.release.secure)
    throw InvalidArgument("the audit of a tuning release needs seeded noise: turn secure off");
  if (config.repeats != 1) {
    throw InvalidArgument("repeats = " + std::to_string(config.repeats) +
                          ": the audit of a tuning release scores one released model; set "
                          "repeats to 1");
  }
  require_at_least("canaries", options.canaries, 2);
  require_open_interval("confidence", options.confidence, 0, 1);
  require_non_negative("canary_norm", options.canary_norm);
  if (options.mode == audit::AuditMode::kWhiteBox &&
      options.whitebox_canaries != audit::WhiteBoxCanaries::kReservedCoordinates) {
    throw InvalidArgument(
        "whitebox canaries = random: the audit of a tuning release uses reserved-coordinate "
        "canaries (random directions audit to 0 on real data, docs/guide/audit.md)");
  }
}

// Subsample coins of the white-box canaries (private-subsampled): in X1 with the tuning fraction.
void draw_subset_presence(const experiment::ExperimentConfig& config,
                          const audit::OneRunAuditOptions& options, WhiteBoxState& state) {
  if (!config.release.subsampled) return;
  Rng coin(derive_seed(options.seed, kSubsetCoinStream));
  std::vector<bool> in_subset;
  for (int i = 0; i < options.canaries; ++i)
    in_subset.push_back(coin.uniform() < config.release.tuning_fraction);
  state.present[kSearch] = in_subset;
  if (config.release.final_data == privacy::FinalRunData::kComplement) {
    for (std::size_t i = 0; i < in_subset.size(); ++i) in_subset[i] = !in_subset[i];
    state.present[kFinal] = in_subset;
  }
}

}  // namespace

TuningAuditResult run_tuning_release_audit(const experiment::ExperimentConfig& config,
                                           const audit::OneRunAuditOptions& options,
                                           tuning::RunOptions run_options,
                                           const SearchSessionHooks& hooks) {
  check_auditable(config, options);
  const auto started = std::chrono::steady_clock::now();
  const bool white = options.mode == audit::AuditMode::kWhiteBox;
  run_options.keep_models = true;  // the winner's model is what is scored

  SearchSessionHooks audited = hooks;
  std::optional<audit::BlackBoxCanarySet> black;
  WhiteBoxState state;
  state.config = &config;
  state.options = &options;
  if (white) {
    state.included = white_box_inclusions(options);
    draw_subset_presence(config, options, state);
    run_options.instrument = [&state](std::size_t job) { return state.instrument(job); };
    audited.on_runner = [&state, &hooks](tuning::Runner* runner, bool final_phase) {
      if (runner) {
        const std::size_t p = final_phase ? kFinal : kSearch;
        state.phase = p;
        state.jobs[p].assign(static_cast<std::size_t>(runner->total_jobs()), nullptr);
      }
      if (hooks.on_runner) hooks.on_runner(runner, final_phase);
    };
  } else {
    // Before anything is drawn or trained: the canaries join the rows every run samples from.
    audited.prepare_data = [&](std::shared_ptr<const data::TrainValidationSplit> data) {
      if (hooks.prepare_data) data = hooks.prepare_data(std::move(data));
      black.emplace(audit::make_black_box_canaries(
          *data, options.canaries, options.blackbox_canaries, config.model.spec(), options.seed));
      return std::make_shared<const data::TrainValidationSplit>(std::move(black->data));
    };
  }
  const SearchSession session = run_search_session(config, run_options, audited);

  TuningAuditResult result;
  result.mode = options.mode;
  result.blackbox_canaries = options.blackbox_canaries;
  result.canaries = options.canaries;
  result.cancelled = session.cancelled;
  const tuning::SearchResults& runs = session.results;
  // private-subsampled without a final run (K = 0 or cancelled) has no results to cost.
  if (!(config.release.subsampled && runs.jobs.empty())) {
    result.cost = tuning::release_cost(runs);
  } else {
    result.cost.epsilon = std::numeric_limits<double>::quiet_NaN();  // subsampled, K = 0
  }
  result.runs_trained = static_cast<std::int64_t>(runs.jobs.size());
  // The scores of every run of the released phase (curator only), the winner's among them.
  const std::size_t phase = config.release.subsampled ? kFinal : kSearch;
  for (std::size_t j = 0; j < runs.jobs.size(); ++j) {
    std::vector<double> scores;
    if (white) {
      const auto& job = state.jobs[phase].at(j);
      if (job) scores = job->scores();
    } else if (runs.jobs[j].model) {
      const auto model = models::import_model(*runs.jobs[j].model);
      scores = audit::black_box_scores(*model, black->canaries);
    }
    result.job_scores.push_back(std::move(scores));
  }
  result.included = white ? state.included : black->included;
  result.canaries_included =
      static_cast<int>(std::count(result.included.begin(), result.included.end(), true));
  if (!session.selection.replicates.empty())
    result.winner_job = session.selection.replicates.front().winner_job;
  result.released = !session.cancelled && result.winner_job >= 0 &&
                    !result.job_scores.at(static_cast<std::size_t>(result.winner_job)).empty();
  if (result.released) {
    const auto winner = static_cast<std::size_t>(result.winner_job);
    result.scores = result.job_scores[winner];
    result.released_validation_accuracy = runs.jobs[winner].final_val_accuracy;
    const auto sets =
        options.guess_sets.empty()
            ? audit::default_guess_sets(static_cast<std::int64_t>(result.scores.size()))
            : options.guess_sets;
    result.bound = audit::best_bound_over_guess_sets(result.scores, result.included, sets,
                                                     result.cost.delta, options.confidence);
  }
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace dplab::release
