// The winner per optimizer, highlighted wherever candidates are shown. The winner is the engine's
// (tuning/winners.h: honest selection's choice by mean final score), never recomputed here.
// - WinnerHighlightProxy: over the results table (ResultsModel), the winners' rows bold on a
//   light gold background with a tooltip naming them; everything else passes through.
// - addWinnerCurve: the winner's mean curve (tuning::OptimizerAggregates::winner_curve) as a
//   line with star markers in the optimizer's colour, named "<optimizer> winner #i".
#pragma once

#include <QIdentityProxyModel>
#include <QSet>

class QCustomPlot;
class QCPGraph;

namespace dplab::tuning {
struct OptimizerAggregates;
}

namespace dplab::ui {

class RunData;

class WinnerHighlightProxy : public QIdentityProxyModel {
  Q_OBJECT
 public:
  static const QColor kBackground;

  // `candidate_column`: the source column holding the candidate index (UserRole).
  WinnerHighlightProxy(RunData* data, int candidate_column, QObject* parent = nullptr);
  QVariant data(const QModelIndex& index, int role) const override;
  bool isWinnerRow(int row) const;
  QSet<int> winners() const { return winners_; }

 private:
  void update();
  RunData* data_;
  int candidate_column_;
  QSet<int> winners_;
};

// `provisional`: the run is still going, so the winner may change ("winner #i (provisional)").
QCPGraph* addWinnerCurve(QCustomPlot* plot, const tuning::OptimizerAggregates& aggregate,
                         const QString& optimizer_name, const QColor& colour,
                         bool provisional = false);

}  // namespace dplab::ui
