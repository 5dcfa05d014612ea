// StepView: one DP-SGD step made visible (issue #27; Abadi et al. 2016, Alg. 1), in the plane of
// two chosen parameters (for logistic regression on (x, y): exactly the two weights):
//   grey dots     each lot example's gradient g_i (beyond the view: drawn hollow on its edge);
//   dashed circle the clipping norm C;
//   blue dots     the clipped gradients g_i min(1, C/||g_i||) (full-vector norm: inside the
//   circle); green arrow   their sum S, drawn divided by L (the mean the optimizer sees before
//   noise); red disc      the Gaussian noise: radius sigma C / L (one standard deviation per
//   coordinate)
//                 around S / L, and the red cross the noisy gradient (S + Z) / L actually drawn;
//   purple arrow  the update, as -(theta_after - theta_before) / alpha (DPSGD: the red cross).
// The outlier's gradient, when it is in the lot, is ringed in red.
#pragma once

#include <QPointF>
#include <QString>
#include <QWidget>
#include <vector>

#include "playground/playground_session.h"

namespace dplab::ui {

class StepView : public QWidget {
  Q_OBJECT
 public:
  explicit StepView(QWidget* parent = nullptr);
  // `same_run`: the picture continues the run drawn before (same setting and parameters, a later
  // step): the scale is then held — it only grows — so a clipping circle that shrinks (adaptive
  // clipping's C_t) or gradients that shrink as the model learns are seen to shrink. Only when
  // the picture needs less than a tenth of the view does it zoom in (to fit, a jump of ≥ 10×,
  // printed as "zoomed ×N" in the corner). Otherwise the scale starts again from this picture.
  void setPicture(const playground::StepPicture& picture, double learning_rate,
                  const QString& name_a, const QString& name_b, bool same_run = false);
  const playground::StepPicture& picture() const { return picture_; }
  // The clipped gradients as last painted, in gradient units (tests: norm <= C).
  const std::vector<QPointF>& drawnClipped() const { return drawn_clipped_; }
  double viewRadius() const { return radius_; }
  // How far the view has zoomed in since the run's first picture (1 = not at all).
  double zoom() const { return first_radius_ / radius_; }

  QSize sizeHint() const override { return {360, 360}; }
  QSize minimumSizeHint() const override { return {200, 200}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  playground::StepPicture picture_;
  double learning_rate_ = 1;
  QString name_a_, name_b_;
  double radius_ = 1;        // gradient units from the centre to the edge
  double first_radius_ = 1;  // radius_ of the run's first picture
  std::vector<QPointF> drawn_clipped_;
};

}  // namespace dplab::ui
