#include "views/results_model.h"

#include "privacy/accounting/epsilon_display.h"

#include <cmath>
#include <limits>
#include <map>

#include "form/optimizer_editor.h"
#include "run/run_data.h"
#include "tuning/accounting.h"
#include "tuning/honest_selection.h"

namespace dplab::ui {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

ResultsModel::ResultsModel(RunData* data, QObject* parent)
    : QAbstractTableModel(parent), data_(data) {
  connect(data_, &RunData::changed, this, &ResultsModel::refresh);
  rebuild(true);
}

int ResultsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ResultsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumns;
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  static const char* names[] = {"#",
                                "optimizer",
                                "α",
                                "C",
                                "m",
                                "β1",
                                "β2",
                                "repeats",
                                "status",
                                "final acc.",
                                "best acc.",
                                "final train loss",
                                "ε one run",
                                "plan: ε MA (K)",
                                "plan: ε LT (K)"};
  static const char* tips[] = {
      "candidate index",
      "DP optimizer",
      "learning rate α",
      "clipping norm C",
      "momentum m",
      "Adam β1",
      "Adam β2",
      "finished repeats",
      "job status",
      "final validation accuracy, mean over finished repeats",
      "best validation accuracy along the curve, mean over repeats",
      "final training loss (whole training set), mean over repeats: un-noised, computed on the "
      "private training set, not covered by ε",
      "ε of this one run at δ (what a paper reports when tuning is ignored); accountant: rdp",
      "planning figure: ε IF you trained this optimizer's K candidates once each and released only "
      "the best (moments accountant; accountant: rdp); not the cost of this search (see the ε "
      "above the table)",
      "planning figure: ε IF you ran Liu–Talwar random stopping (γ = 1/K or set) over this "
      "optimizer's "
      "K candidates (accountant: rdp); not the cost of this search (see the ε above the table)"};
  if (role == Qt::DisplayRole) return QString::fromUtf8(names[section]);
  if (role == Qt::ToolTipRole) return QString::fromUtf8(tips[section]);
  return {};
}

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
  const Row& r = rows_[static_cast<std::size_t>(index.row())];
  auto number = [role](double v, int digits) -> QVariant {
    if (role == Qt::UserRole) return v;
    if (role == Qt::DisplayRole)
      return std::isnan(v) ? QStringLiteral("–") : QString::number(v, 'g', digits);
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
  };
  // ε is shown rounded UP (engine/privacy/accounting/epsilon_display.h), never to nearest.
  auto epsilon = [role, &number](double v) -> QVariant {
    if (role == Qt::DisplayRole && !std::isnan(v))
      return QString::fromStdString(privacy::format_epsilon_up(v));
    return number(v, 4);
  };
  switch (index.column()) {
    case kIndex:
      if (role == Qt::DisplayRole || role == Qt::UserRole) return r.candidate;
      return {};
    case kOptimizer:
      if (role == Qt::DisplayRole) return r.optimizer;
      return {};
    case kLearningRate:
      return number(r.lr, 4);
    case kClip:
      return number(r.clip, 4);
    case kMomentum:
      return number(r.momentum, 3);
    case kBeta1:
      return number(r.beta1, 3);
    case kBeta2:
      return number(r.beta2, 4);
    case kRepeatsDone:
      if (role == Qt::DisplayRole || role == Qt::UserRole) return r.repeats_done;
      return {};
    case kStatus:
      if (role == Qt::DisplayRole) return r.status;
      return {};
    case kFinalAccuracy:
      return number(r.final_acc, 4);
    case kBestAccuracy:
      return number(r.best_acc, 4);
    case kFinalTrainLoss:
      return number(r.final_loss, 4);
    case kEpsilonRun:
      return epsilon(r.eps_run);
    case kEpsilonMa:
      return epsilon(r.eps_ma);
    case kEpsilonLt:
      return epsilon(r.eps_lt);
    default:
      return {};
  }
}

void ResultsModel::refresh(bool structural) {
  if (structural || rows_.empty()) {
    beginResetModel();
    rebuild(true);
    endResetModel();
    return;
  }
  rebuild(false);
  if (!rows_.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, kColumns - 1));
}

void ResultsModel::accountColumns(const tuning::SearchResults& res) {
  const auto& m = res.mechanism;
  eps_ma_.assign(res.config.optimizers.size(), kNaN);
  eps_lt_.assign(res.config.optimizers.size(), kNaN);
  eps_run_ = kNaN;
  try {
    if (m.sampling_rate > 0 && m.delta > 0) {
      const experiment::AccountingConfig& accounting = res.config.accounting;
      eps_run_ = tuning::epsilon_single_run(m.noise_multiplier, m.sampling_rate, m.steps, m.delta,
                                            accounting);
      for (std::size_t o = 0; o < res.config.optimizers.size(); ++o) {
        const int k =
            static_cast<int>(experiment::candidates_of(res.candidates, static_cast<int>(o)).size());
        if (k == 0) continue;
        eps_ma_[o] = tuning::epsilon_moments_accountant(m.noise_multiplier, m.sampling_rate,
                                                        m.steps, k, m.delta, accounting);
        eps_lt_[o] = tuning::epsilon_liu_talwar(m.noise_multiplier, m.sampling_rate, m.steps,
                                                res.config.tuning.gamma.value_or(1.0 / k), m.delta,
                                                res.config.tuning.delta2, accounting);
      }
    }
  } catch (const std::exception&) {
    // leave NaN: the table shows "–"
  }
}

void ResultsModel::rebuild(bool accounting) {
  rows_.clear();
  if (!data_->hasRun()) return;
  const tuning::SearchResults& res = data_->results();
  const int repeats = std::max(1, res.config.repeats);
  // Privacy per optimizer pool: K candidates of that optimizer. Computed on a structural change
  // only (a new points-only tick keeps them: no accountant calls on every tick, issue #25
  // item 13).
  if (accounting || eps_ma_.size() != res.config.optimizers.size()) accountColumns(res);
  std::vector<int> all(res.candidates.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  std::map<int, tuning::CandidateScore> scores;
  for (const auto& s : tuning::score_candidates(res, all)) scores[s.candidate] = s;
  for (const auto& cand : res.candidates) {
    Row row;
    row.candidate = cand.index;
    row.optimizer = OptimizerEditor::displayName(
        res.config.optimizers.at(static_cast<std::size_t>(cand.optimizer_index)));
    row.lr = cand.optimizer.learning_rate;
    row.clip = cand.clip;
    row.momentum =
        cand.optimizer.kind == optim::OptimizerKind::kDpMomentum ? cand.optimizer.momentum : kNaN;
    const auto kind = cand.optimizer.kind;
    row.beta1 =
        experiment::optimizer_takes(kind, experiment::Param::kBeta1) ? cand.optimizer.beta1 : kNaN;
    row.beta2 =
        experiment::optimizer_takes(kind, experiment::Param::kBeta2) ? cand.optimizer.beta2 : kNaN;
    int finished = 0, running = 0, failed = 0, diverged = 0;
    double sum_best = 0;
    int with_best = 0;
    for (int r = 0; r < repeats; ++r) {
      const auto& job = res.job(cand.index, r);
      if (job.status == tuning::JobStatus::kFinished) {
        ++finished;
        // Best validation accuracy along the curve (none for regression: no accuracy).
        double best = kNaN;
        for (const auto& p : job.curve) {
          if (std::isfinite(p.val_accuracy) && !(best >= p.val_accuracy)) best = p.val_accuracy;
        }
        if (std::isfinite(best)) {
          sum_best += best;
          ++with_best;
        }
      } else if (job.status == tuning::JobStatus::kRunning) {
        ++running;
      } else if (job.status == tuning::JobStatus::kFailed) {
        ++failed;
      } else if (job.status == tuning::JobStatus::kDiverged) {
        ++diverged;
      }
    }
    row.repeats_done = finished;
    row.status = failed > 0            ? tr("failed")
                 : diverged > 0        ? tr("diverged")
                 : finished == repeats ? tr("finished")
                 : running > 0         ? tr("running")
                 : finished > 0        ? tr("partial")
                                       : tr("pending");
    // Final accuracy and loss: the engine's candidate score (mean over finished repeats), the
    // numbers honest selection ranks by.
    const auto score = scores.find(cand.index);
    row.final_acc =
        score != scores.end() && !res.is_regression ? score->second.mean_final_accuracy : kNaN;
    row.final_loss = score != scores.end() ? score->second.mean_final_train_loss : kNaN;
    row.best_acc = with_best > 0 ? sum_best / with_best : kNaN;
    row.eps_run = eps_run_;
    row.eps_ma = eps_ma_[static_cast<std::size_t>(cand.optimizer_index)];
    row.eps_lt = eps_lt_[static_cast<std::size_t>(cand.optimizer_index)];
    rows_.push_back(row);
  }
}

}  // namespace dplab::ui
