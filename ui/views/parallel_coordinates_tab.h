// ParallelCoordinatesTab: every finished candidate of the shown search as a polyline across the
// axes α, C, β1, β2, m (those some candidate has) to its score (accuracy, or final validation MSE
// for regression) — engine tuning::parallel_coordinates: which axes, log axes where the grid is
// log-spaced, each value's position. Line colour = score (viridis: dark = low, yellow = high);
// each optimizer's winner (tuning/winners.h, honest selection's choice) is drawn thick in the
// optimizer's colour and named in the legend. A candidate without a hyperparameter (DPSGD has no
// β1) passes through "n/a" under that axis. Hover a line for the candidate's exact values.
#pragma once

#include <QWidget>
#include <map>

#include "async/latest_only_task.h"
#include "chart_series/parallel_coordinates.h"
#include "tuning/results.h"

class QCPAbstractPlottable;

namespace dplab::ui {

class ChartView;
class RunData;

class ParallelCoordinatesTab : public QWidget {
  Q_OBJECT
 public:
  // y of the "n/a" row: a third of the axes' length below them, so that its label (centred on
  // it) stays clear of the lowest value's label (under y = 0) on a short chart too (a 3.5 in
  // figure drew one over the other at -0.12).
  static constexpr double kNotApplicable = -0.35;

  ParallelCoordinatesTab(RunData* data, QWidget* parent = nullptr);
  ChartView* chart() const { return chart_; }
  const tuning::ParallelCoordinates& shown() const { return shown_; }
  // The polyline of a row (index into shown().candidates), or null.
  QCPAbstractPlottable* lineOf(int row) const;

 public slots:
  void refresh(bool structural);

 signals:
  void message(const QString& text, bool is_error);
  void computed();

 private:
  void draw(const tuning::ParallelCoordinates& pc, const QString& error);
  QString tooltip(QCPAbstractPlottable* plottable) const;

  RunData* data_;
  ChartView* chart_;
  int latest_ = 0;     // sequence number of the newest query
  int delivered_ = 0;  // sequence number of the last result delivered (drawn or not)
  LatestOnlyTask<tuning::SearchResults, tuning::ParallelCoordinates> task_;
  int finished_seen_ = -1;
  tuning::ParallelCoordinates shown_;
  QStringList optimizer_names_;
  std::map<const QCPAbstractPlottable*, int> rows_;
};

}  // namespace dplab::ui
