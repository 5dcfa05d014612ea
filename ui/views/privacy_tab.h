// PrivacyTab: "Privacy of tuning" — the teaching view of the main paper's section 3. All numbers
// come from the engine accountant (privacy/selection/tuning_cost_series.h, private_selection.h):
//  - Figure 6: ε versus the number of candidates K, MA (K runs composed in RDP) versus LT
//    (γ = 1/K, or a fixed γ), with the crossover marked ("MA is cheaper up to K = …") and the
//    number of MA candidates affordable at LT's minimum cost (γ = 1, ma_candidates_at_lt_cost);
//  - Figure 1: LT blow-up versus n (left), ε_LT versus n for several γ (middle), MA candidates at
//    LT's γ = 1 cost versus n (right); on a narrow tab (1024 × 700) the three are tabs instead.
// The controls (σ, L, T, n, δ, γ, K max, paper accountant) never block the GUI thread: every
// number comes from one engine call (privacy::tuning_cost_overview) run on a background thread
// (LatestOnlyTask: latest value wins while a slider is dragged); the tab only draws the result.
// A table shows dplab's tight accountant next to the paper-compatible one (classic conversion,
// log2 in Υ).
#pragma once

#include <QWidget>
#include <memory>
#include <thread>
#include <vector>

#include "privacy/selection/tuning_cost_overview.h"

class QDoubleSpinBox;
class QSpinBox;
class QSlider;
class QComboBox;
class QCheckBox;
class QLabel;
class QTableWidget;
class QTimer;

namespace dplab::ui {

class ChartView;
class SplitOrTabs;
template <class Query, class Result>
class LatestOnlyTask;

class PrivacyTab : public QWidget {
  Q_OBJECT
 public:
  explicit PrivacyTab(QWidget* parent = nullptr);
  ~PrivacyTab() override;

  // Control values (for tests and for syncing with the experiment form).
  void setSettings(double sigma, int lot_size, int steps, qint64 n, double delta_or_zero);
  double sigma() const;
  int lotSize() const;
  int steps() const;
  qint64 datasetSize() const;
  double delta() const;       // resolved: the chosen δ or default_delta(n)
  double gammaFixed() const;  // 0 = γ = 1/K
  int maxCandidates() const;

  QSlider* sigmaSlider() const { return sigma_slider_; }
  QDoubleSpinBox* sigmaSpin() const { return sigma_; }
  QSpinBox* datasetSizeSpin() const { return n_; }

  // What is drawn (after the last redraw).
  const std::vector<privacy::CandidatesPoint>& candidatePoints() const { return points_; }
  int crossoverK() const { return crossover_; }  // Figure 6 crossover (MA ≤ LT at each K)
  int maCandidatesAtLtCost() const { return ma_at_lt_; }  // γ = 1, engine function
  ChartView* figure6Chart() const { return figure6_; }
  QList<ChartView*> charts() const;
  // Figure 1's panels: side by side when there is room, else tabs of one panel (small screens).
  bool figure1Tabbed() const;
  ChartView* figure1Panel(int i) const {
    return QList<ChartView*>{fig1_blowup_, fig1_gamma_, fig1_ma_}.value(i);
  }
  // Brings `panel` (Figure 6 or a Figure 1 panel) to the front when the charts are tabs.
  void showFigure1Panel(ChartView* panel);
  int redrawCount() const { return redraws_; }
  // The query the controls describe now, and whether the charts show it (no computation queued
  // or running for a newer one).
  privacy::TuningCostQuery query() const;
  bool upToDate() const;
  // The worker thread of the computations and how many ran (tests: never the GUI thread; a
  // replaced query never runs).
  std::thread::id computeThread() const;
  int computations() const;

 public slots:
  // Computes on the calling thread and draws at once (tests, exports); the controls never call it.
  void redrawNow();

 signals:
  void message(const QString& text, bool is_error);

 private:
  void scheduleRedraw();
  void requestOverview();
  void apply(int sequence, const privacy::TuningCostOverview& overview);
  void drawFigure6(const privacy::TuningCostOverview& overview);
  void drawFigure1(const privacy::TuningCostOverview& overview);
  void fillComparison(const privacy::TuningCostOverview& overview);

  QDoubleSpinBox* sigma_;
  QSlider* sigma_slider_;
  QSpinBox* lot_;
  QSpinBox* steps_;
  QSpinBox* n_;
  QComboBox* delta_;
  QDoubleSpinBox* gamma_;
  QSpinBox* kmax_;
  QCheckBox* show_paper_;
  QLabel* headline_;
  QTableWidget* comparison_;
  ChartView* figure6_;
  ChartView* fig1_blowup_;
  ChartView* fig1_gamma_;
  ChartView* fig1_ma_;
  SplitOrTabs* charts_;  // Figure 6 over Figure 1, or the two as tabs
  SplitOrTabs* fig1_;    // Figure 1's panels side by side, or tabs
  QTimer* redraw_timer_;
  std::vector<privacy::CandidatesPoint> points_;
  int crossover_ = 0;
  int ma_at_lt_ = 0;
  int redraws_ = 0;
  int drawn_sequence_ = 0;
  int requested_sequence_ = 0;
  std::unique_ptr<LatestOnlyTask<privacy::TuningCostQuery, privacy::TuningCostOverview>> task_;
};

}  // namespace dplab::ui
