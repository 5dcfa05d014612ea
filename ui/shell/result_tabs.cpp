#include "shell/result_tabs.h"

#include "views/accountant_gap_view.h"
#include "views/accuracy_tab.h"
#include "views/heatmap_tab.h"
#include "views/paper_figure_tabs.h"
#include "views/parallel_coordinates_tab.h"
#include "views/privacy_tab.h"
#include "views/privacy_utility_tab.h"
#include "views/released_winner_tab.h"
#include "views/results_tab.h"
#include "views/step_size_tab.h"
#include "views/subsampled_tuning_view.h"

namespace dplab::ui {

ResultTabs::ResultTabs(RunData* data, QWidget* parent) : QTabWidget(parent) {
  accuracy_ = new AccuracyTab(data, this);
  heatmap_ = new HeatmapTab(data, this);
  privacy_ = new PrivacyTab(this);
  step_size_ = new StepSizeTab(data, this);
  results_ = new ResultsTab(data, this);
  privacy_utility_ = new PrivacyUtilityTab(data, this);
  parallel_ = new ParallelCoordinatesTab(data, this);
  addTab(accuracy_, tr("Accuracy curves"));
  addTab(heatmap_, tr("α–C heatmap"));
  addTab(privacy_utility_, tr("Privacy–utility"));
  addTab(parallel_, tr("Parallel coordinates"));
  addTab(privacy_, tr("Privacy of tuning"));
  accountant_gap_ = new AccountantGapView(this);
  addTab(accountant_gap_, tr("Accountants disagree"));
  subsampled_tuning_ = new SubsampledTuningView(this);
  addTab(subsampled_tuning_, tr("Tuning on a subsample"));
  addTab(step_size_, tr("DPAdam step size"));
  addTab(results_, tr("Results"));
  winner_ = new ReleasedWinnerTab(data, this);
  addTab(winner_, tr("Released winner"));
  // Messages from every page go out as one signal (the main window's status panel).
  auto forward = [this](const QString& text, bool is_error) { emit message(text, is_error); };
  addPaperFigureTabs(this, forward);  // objective perturbation and sparse DP figures
  // No page sets the window's minimum width beyond a 1024-px screen: a wider page (the paper
  // figures' side panels) is narrowed there and shows whole from about 1280 px.
  for (int i = 0; i < count(); ++i) {
    QWidget* page = widget(i);
    if (page->minimumSizeHint().width() > kMaxPageMinWidth) page->setMinimumWidth(kMaxPageMinWidth);
  }
  connect(subsampled_tuning_, &SubsampledTuningView::message, this, forward);
  connect(accuracy_, &AccuracyTab::message, this, forward);
  connect(heatmap_, &HeatmapTab::message, this, forward);
  connect(privacy_, &PrivacyTab::message, this, forward);
  connect(step_size_, &StepSizeTab::message, this, forward);
  connect(results_, &ResultsTab::message, this, forward);
  connect(winner_, &ReleasedWinnerTab::message, this, forward);
  connect(privacy_utility_, &PrivacyUtilityTab::message, this, forward);
  connect(parallel_, &ParallelCoordinatesTab::message, this, forward);
}

void ResultTabs::showRunViews(bool is_private, bool reveal_all) {
  const bool hidden = is_private && !reveal_all;
  QWidget* const shown = currentWidget();  // Qt moves off a tab it hides: remember it
  for (QWidget* tab : {static_cast<QWidget*>(accuracy_), static_cast<QWidget*>(heatmap_),
                       static_cast<QWidget*>(step_size_), static_cast<QWidget*>(results_),
                       static_cast<QWidget*>(privacy_utility_), static_cast<QWidget*>(parallel_)}) {
    setTabVisible(indexOf(tab), !hidden);
  }
  setTabVisible(indexOf(winner_), is_private);
  if (!isTabVisible(indexOf(shown))) showRunStart(is_private);
}

void ResultTabs::showRunStart(bool is_private) {
  setCurrentWidget(is_private ? static_cast<QWidget*>(winner_) : static_cast<QWidget*>(accuracy_));
}

}  // namespace dplab::ui
