// Candidate ranking for Figure 3 (see candidate_ranking.h).
#include "tuning/candidate_ranking.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"

namespace dplab::tuning {
namespace {

bool is_default_candidate(const experiment::ExperimentConfig& config,
                          const experiment::Candidate& c) {
  const optim::OptimizerSpec d = optim::default_spec(c.optimizer.kind);
  const auto& grid = config.optimizers[static_cast<std::size_t>(c.optimizer_index)].grid;
  for (int p = 0; p < experiment::kNumParams; ++p) {
    const auto param = static_cast<experiment::Param>(p);
    if (param == experiment::Param::kClip || !grid[p]) continue;
    experiment::Candidate reference = c;
    reference.optimizer = d;
    if (c.value(param) != reference.value(param)) return false;
  }
  return true;
}

}  // namespace

CandidateRanking rank_candidates(const SearchResults& results, int optimizer_index) {
  if (results.is_regression)
    throw InvalidArgument("a ranking by accuracy needs a classification search");
  CandidateRanking out;
  out.optimizer_index = optimizer_index;
  out.optimizer = experiment::entry_name(
      results.config.optimizers.at(static_cast<std::size_t>(optimizer_index)));
  out.default_accuracy = std::numeric_limits<double>::quiet_NaN();
  for (int c : experiment::candidates_of(results.candidates, optimizer_index)) {
    RankedCandidate row;
    row.candidate = c;
    double sum = 0, sum_sq = 0;
    for (int r = 0; r < results.config.repeats; ++r) {
      const JobResult& job = results.job(c, r);
      if (job.status != JobStatus::kFinished) continue;
      ++row.repeats_finished;
      sum += job.final_val_accuracy;
      sum_sq += job.final_val_accuracy * job.final_val_accuracy;
    }
    if (row.repeats_finished == 0) continue;
    const double n = row.repeats_finished;
    row.mean_accuracy = sum / n;
    row.sd_accuracy =
        n > 1 ? std::sqrt(
                    std::max(0.0, (sum_sq - n * row.mean_accuracy * row.mean_accuracy) / (n - 1)))
              : 0.0;
    row.is_default =
        is_default_candidate(results.config, results.candidates[static_cast<std::size_t>(c)]);
    out.rows.push_back(row);
  }
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [](const RankedCandidate& a, const RankedCandidate& b) {
                     return a.mean_accuracy > b.mean_accuracy;
                   });
  for (std::size_t i = 0; i < out.rows.size(); ++i) {
    out.rows[i].rank = static_cast<int>(i) + 1;
    if (out.rows[i].is_default && out.default_rank == 0) {
      out.default_rank = out.rows[i].rank;
      out.default_accuracy = out.rows[i].mean_accuracy;
    }
  }
  if (!out.rows.empty()) out.best_accuracy = out.rows.front().mean_accuracy;
  return out;
}

void write_ranking_csv(const CandidateRanking& ranking, const SearchResults& results,
                       std::ostream& out) {
  out << "rank,candidate,optimizer,learning_rate,beta1,beta2,momentum,clip,mean_final_accuracy,"
         "sd_final_accuracy,repeats,is_default\n";
  out.precision(10);
  for (const auto& row : ranking.rows) {
    const auto& c = results.candidates[static_cast<std::size_t>(row.candidate)];
    out << row.rank << ',' << row.candidate << ',' << ranking.optimizer << ','
        << c.optimizer.learning_rate << ',' << c.optimizer.beta1 << ',' << c.optimizer.beta2 << ','
        << c.optimizer.momentum << ',' << c.clip << ',' << row.mean_accuracy << ','
        << row.sd_accuracy << ',' << row.repeats_finished << ',' << (row.is_default ? 1 : 0)
        << '\n';
  }
}

}  // namespace dplab::tuning
