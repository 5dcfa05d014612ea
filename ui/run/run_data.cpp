#include "run/run_data.h"

#include <QTime>
#include <limits>

namespace dplab::ui {

RunData::RunData(QObject* parent) : QObject(parent) {}

void RunData::touch(bool structural) {
  view_.reset();
  aggregates_.reset();
  ++changes_;
  emit changed(structural);
}

void RunData::beginLive(const tuning::SearchResults& plan) {
  results_ = plan;
  has_run_ = true;
  live_ = true;
  title_ = tr("“%1”, run started %2")
               .arg(QString::fromStdString(plan.config.name),
                    QTime::currentTime().toString(QStringLiteral("HH:mm:ss")));
  touch(true);
}

void RunData::apply(const tuning::MonitorUpdate& update) {
  if (!has_run_ || (update.new_points.empty() && update.new_finished.empty())) return;
  const int repeats = std::max(1, results_.config.repeats);
  for (const tuning::PointEvent& e : update.new_points) {
    const std::size_t i = static_cast<std::size_t>(e.candidate * repeats + e.repeat);
    if (i >= results_.jobs.size()) continue;
    auto& job = results_.jobs[i];
    if (job.status == tuning::JobStatus::kPending) job.status = tuning::JobStatus::kRunning;
    if (job.status == tuning::JobStatus::kRunning) job.curve.push_back(e.point);
  }
  for (const tuning::JobResult& job : update.new_finished) {
    const std::size_t i = static_cast<std::size_t>(job.candidate * repeats + job.repeat);
    if (i < results_.jobs.size()) results_.jobs[i] = job;
  }
  touch(false);
}

void RunData::setResults(const tuning::SearchResults& results, const QString& title) {
  results_ = results;
  has_run_ = true;
  // The end of a live run keeps its title ("…, run started 10:31:02").
  if (!title.isEmpty()) {
    title_ = title;
  } else if (!live_) {
    title_ = QStringLiteral("“%1”").arg(QString::fromStdString(results.config.name));
  }
  live_ = false;
  touch(true);
}

void RunData::clear() {
  results_ = {};
  has_run_ = false;
  live_ = false;
  touch(true);
}

const tuning::SearchResults& RunData::viewResults() const {
  if (!live_) return results_;
  if (!view_) {
    view_ = results_;
    for (auto& job : view_->jobs) {
      if (job.status == tuning::JobStatus::kRunning && !job.curve.empty()) {
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
