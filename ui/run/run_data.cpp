#include "run/run_data.h"

#include <QTime>
#include <algorithm>
#include <limits>

#include "store/run_history.h"
#include "tuning/private_release_view.h"

namespace dplab::ui {

RunData::RunData(QObject* parent) : QObject(parent) {}

void RunData::touch(bool structural) {
  shown_.reset();
  view_.reset();
  aggregates_.reset();
  ++changes_;
  emit changed(structural);
}

bool RunData::isPrivate() const {
  return has_run_ && results_.config.release.mode == experiment::ReleaseMode::kPrivate;
}

std::size_t RunData::jobIndex(int candidate, int repeat) const {
  // Private modes: the runner's job slot `repeat` is the global run index.
  if (results_.config.release.mode == experiment::ReleaseMode::kPrivate)
    return static_cast<std::size_t>(repeat);
  return static_cast<std::size_t>(candidate * std::max(1, results_.config.repeats) + repeat);
}

void RunData::beginLive(const tuning::SearchResults& plan, const QString& title) {
  results_ = plan;
  release_.reset();
  spent_.reset();
  has_run_ = true;
  live_ = true;
  from_form_ = title.isEmpty();
  title_ = !title.isEmpty() ? title
                            : tr("“%1”, run started %2")
                                  .arg(QString::fromStdString(plan.config.name),
                                       QTime::currentTime().toString(QStringLiteral("HH:mm:ss")));
  setRevealAll(false);
  touch(true);
}

void RunData::apply(const tuning::MonitorUpdate& update) {
  if (!has_run_ || (update.new_points.empty() && update.new_finished.empty())) return;
  for (const tuning::PointEvent& e : update.new_points) {
    const std::size_t i = jobIndex(e.candidate, e.repeat);
    if (i >= results_.jobs.size()) continue;
    auto& job = results_.jobs[i];
    if (job.status == tuning::JobStatus::kPending) job.status = tuning::JobStatus::kRunning;
    if (job.status == tuning::JobStatus::kRunning) job.curve.push_back(e.point);
  }
  for (const tuning::JobResult& job : update.new_finished) {
    const std::size_t i = jobIndex(job.candidate, job.repeat);
    if (i < results_.jobs.size()) results_.jobs[i] = job;
  }
  touch(false);
}

void RunData::setResults(const tuning::SearchResults& results, const QString& title,
                         const std::optional<tuning::PrivateRelease>& release,
                         const std::optional<store::SpentBudget>& spent) {
  const bool new_run = !live_;
  results_ = results;
  release_ = release;
  spent_ = spent;
  has_run_ = true;
  // The end of a live run keeps its title ("…, run started 10:31:02").
  if (!title.isEmpty()) {
    title_ = title;
    from_form_ = false;
  } else if (!live_) {
    from_form_ = false;
    title_ = QStringLiteral("“%1”").arg(QString::fromStdString(results.config.name));
  }
  live_ = false;
  if (new_run && reveal_all_) {
    reveal_all_ = false;  // a new run starts hidden (one redraw below)
    emit revealChanged(false);
  }
  touch(true);
}

void RunData::setRevealAll(bool reveal) {
  if (reveal == reveal_all_) return;
  reveal_all_ = reveal;
  emit revealChanged(reveal);
  if (has_run_) touch(true);
}

void RunData::clear() {
  results_ = {};
  release_.reset();
  spent_.reset();
  has_run_ = false;
  live_ = false;
  setRevealAll(false);
  touch(true);
}

const tuning::SearchResults& RunData::results() const {
  if (!isPrivate()) return results_;
  if (!shown_) {
    // Only what was released, unless the teaching switch is on (then every run trained).
    const std::vector<std::int64_t> jobs =
        reveal_all_ ? tuning::trained_jobs(results_)
                    : (release_ ? tuning::released_jobs(*release_) : std::vector<std::int64_t>{});
    try {
      shown_ = tuning::grid_shaped_runs(results_, jobs);
    } catch (const std::exception&) {
      shown_ = tuning::grid_shaped_runs(results_, {});  // a stale release: show nothing
    }
  }
  return *shown_;
}

namespace {

// A job cut short with points: running (live) or cancelled (the run was cancelled). Its curve is
// drawn as it stands; the engine's aggregates count finished jobs only.
bool partial(const tuning::JobResult& job) {
  return (job.status == tuning::JobStatus::kRunning ||
          job.status == tuning::JobStatus::kCancelled) &&
         !job.curve.empty();
}

}  // namespace

bool RunData::hasPartialCurves() const {
  const auto& jobs = results().jobs;
  return std::any_of(jobs.begin(), jobs.end(), partial);
}

const tuning::SearchResults& RunData::viewResults() const {
  const tuning::SearchResults& shown = results();
  // A finished run as it is; a cancelled one keeps the curves it had while live.
  if (!live_ && !hasPartialCurves()) return shown;
  if (!view_) {
    view_ = shown;
    for (auto& job : view_->jobs) {
      if (partial(job)) {
        job.status = tuning::JobStatus::kFinished;
        job.final_val_accuracy = job.curve.back().val_accuracy;
        // Not the last lot's loss: the final loss is over the whole training set and only a
        // finished job has it (the α–C loss map must not mix the two).
        job.final_train_loss = std::numeric_limits<double>::quiet_NaN();
      }
    }
  }
  return *view_;
}

tuning::ReleaseCost RunData::releaseCost() const {
  if (!live_ && spent_) return store::with_spent_budget(tuning::release_cost(results_), *spent_);
  if (!live_ || isPrivate()) return tuning::release_cost(results_);
  // A copy without the curves (this runs on GUI refreshes): what the cost reads of each job.
  tuning::SearchResults so_far;
  so_far.config = results_.config;
  so_far.candidates = results_.candidates;
  so_far.mechanism = results_.mechanism;
  so_far.training_size = results_.training_size;
  so_far.validation_size = results_.validation_size;
  so_far.is_regression = results_.is_regression;
  so_far.jobs.reserve(results_.jobs.size());
  for (const tuning::JobResult& job : results_.jobs) {
    tuning::JobResult j;
    j.candidate = job.candidate;
    j.repeat = job.repeat;
    j.seed = job.seed;
    j.status = job.status;
    j.queries = job.queries;
    if (job.status == tuning::JobStatus::kRunning && !job.curve.empty())
      j.queries = std::max(j.queries, job.curve.back().iteration);
    so_far.jobs.push_back(std::move(j));
  }
  tuning::ReleaseCost cost = tuning::release_cost(so_far);
  cost.covers += " so far (the run goes on)";
  return cost;
}

std::int64_t RunData::settledIteration(int optimizer_index) const {
  std::int64_t settled = std::numeric_limits<std::int64_t>::max();
  const tuning::SearchResults& r = results();
  for (const tuning::JobResult& job : r.jobs) {
    // Live: the jobs still to come or going on. Ended: the cancelled jobs' partial curves (a
    // job never started is in no aggregate).
    const bool bounds = live_ ? job.status == tuning::JobStatus::kPending ||
                                    job.status == tuning::JobStatus::kRunning
                              : job.status == tuning::JobStatus::kCancelled && !job.curve.empty();
    if (!bounds) continue;
    const auto c = static_cast<std::size_t>(job.candidate);
    if (job.candidate < 0 || c >= r.candidates.size() ||
        r.candidates[c].optimizer_index != optimizer_index) {
      continue;
    }
    settled = std::min(settled, job.curve.empty() ? std::int64_t{-1} : job.curve.back().iteration);
  }
  return settled;
}

const std::vector<tuning::OptimizerAggregates>& RunData::aggregates() const {
  if (!aggregates_) {
    aggregates_.emplace();
    if (has_run_ && !results_.candidates.empty()) {
      try {
        *aggregates_ = tuning::aggregate_all(viewResults());
      } catch (const std::exception&) {
        aggregates_->clear();  // partial data the aggregates cannot use yet
      }
    }
  }
  return *aggregates_;
}

}  // namespace dplab::ui
