// ResultTabs: the main window's centre tabs (issue #26 item 4: taken out of MainWindow's
// constructor). It makes the result views of the shown run (accuracy curves, α–C heatmap,
// privacy–utility, parallel coordinates, the step-size and results tables, the released winner),
// the teaching views that need no run (privacy of tuning, accountants disagree, tuning on a
// subsample) and the paper figures, in that order, and routes every page's messages to one
// signal. showRunViews() applies what a private search may show.
#pragma once

#include <QTabWidget>

namespace dplab::ui {

class AccountantGapView;
class AccuracyTab;
class HeatmapTab;
class ParallelCoordinatesTab;
class PrivacyTab;
class PrivacyUtilityTab;
class ReleasedWinnerTab;
class ResultsTab;
class RunData;
class StepSizeTab;
class SubsampledTuningView;

class ResultTabs : public QTabWidget {
  Q_OBJECT
 public:
  static constexpr int kMaxPageMinWidth = 600;  // centre pages: fits 1024 px beside the form

  explicit ResultTabs(RunData* data, QWidget* parent = nullptr);

  AccuracyTab* accuracy() const { return accuracy_; }
  HeatmapTab* heatmap() const { return heatmap_; }
  PrivacyTab* privacy() const { return privacy_; }
  StepSizeTab* stepSize() const { return step_size_; }
  ResultsTab* results() const { return results_; }
  PrivacyUtilityTab* privacyUtility() const { return privacy_utility_; }
  ParallelCoordinatesTab* parallelCoordinates() const { return parallel_; }
  AccountantGapView* accountantGap() const { return accountant_gap_; }
  ReleasedWinnerTab* winner() const { return winner_; }

  // A private search shows only its released winner; the per-run views (curves, heatmap, step
  // sizes, the table of all runs, privacy-utility points and parallel coordinates of every
  // candidate) only when `reveal_all` (the teaching switch). Keeps the current page if it stays
  // visible, else shows the winner (private) or the accuracy curves.
  void showRunViews(bool is_private, bool reveal_all);
  // The page a freshly opened run starts on: the winner of a private run, else the curves.
  void showRunStart(bool is_private);

 signals:
  void message(const QString& text, bool is_error);

 private:
  AccuracyTab* accuracy_;
  HeatmapTab* heatmap_;
  PrivacyTab* privacy_;
  StepSizeTab* step_size_;
  ResultsTab* results_;
  PrivacyUtilityTab* privacy_utility_;
  ParallelCoordinatesTab* parallel_;
  AccountantGapView* accountant_gap_;
  SubsampledTuningView* subsampled_tuning_;
  ReleasedWinnerTab* winner_;
};

}  // namespace dplab::ui
