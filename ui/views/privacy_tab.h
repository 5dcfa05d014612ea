// PrivacyTab: "Privacy of tuning" — the teaching view of the main paper's section 3. All numbers
// come from the engine accountant (privacy/tuning_cost_series.h, private_selection.h):
//  - Figure 6: ε versus the number of candidates K, MA (K runs composed in RDP) versus LT
//    (γ = 1/K, or a fixed γ), with the crossover marked ("MA is cheaper up to K = …") and the
//    number of MA candidates affordable at LT's minimum cost (γ = 1, ma_candidates_at_lt_cost);
//  - Figure 1: LT blow-up versus n (left), ε_LT versus n for several γ (middle), MA candidates at
//    LT's γ = 1 cost versus n (right).
// The controls (σ, L, T, n, δ, γ, K max) redraw instantly (coalesced to one redraw per event-loop
// pass; the accountant caches per (σ, q)). A table shows dplab's tight accountant next to the
// paper-compatible one (classic conversion, log2 in Υ).
#pragma once

#include <QWidget>
#include <vector>

#include "privacy/tuning_cost_series.h"

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

class PrivacyTab : public QWidget {
  Q_OBJECT
 public:
  explicit PrivacyTab(QWidget* parent = nullptr);

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
  int redrawCount() const { return redraws_; }

 public slots:
  void redrawNow();

 signals:
  void message(const QString& text, bool is_error);

 private:
  void scheduleRedraw();
  void drawFigure6(const privacy::SubsampledGaussian& run, double delta);
  void drawFigure1(const privacy::TuningCostSetting& setting);
  void fillComparison(const privacy::SubsampledGaussian& run, double delta);

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
  QTimer* redraw_timer_;
  std::vector<privacy::CandidatesPoint> points_;
  int crossover_ = 0;
  int ma_at_lt_ = 0;
  int redraws_ = 0;
};

}  // namespace dplab::ui
