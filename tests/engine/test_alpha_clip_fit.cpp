// The Theorem 2 overlay of the α–C heatmap: k in α = k/C is fitted to the best cells, not to the
// single best cell (which may sit in the unclipped regime where α alone matters).
#include <QtTest>
#include <cmath>

#include "support/test_registry.h"
#include "tuning/alpha_clip_fit.h"

using namespace dplab::tuning;

namespace {
// A 6 x 6 log grid whose loss is lowest along α·C = 2 (a band), plus one isolated best cell far
// off the band (α·C = 100) that a fit anchored at the best cell would follow.
AlphaClipGrid bandGrid(bool with_outlier) {
  AlphaClipGrid g;
  for (int i = -2; i <= 3; ++i) {
    g.learning_rates.push_back(std::pow(10.0, i));
    g.clips.push_back(std::pow(10.0, i - 1));
  }
  const std::size_t n = g.learning_rates.size();
  g.final_train_loss.resize(n * n);
  g.final_accuracy.resize(n * n);
  g.times_best.assign(n * n, 0);
  for (std::size_t l = 0; l < n; ++l) {
    for (std::size_t c = 0; c < n; ++c) {
      const double off = std::abs(std::log10(g.learning_rates[l] * g.clips[c] / 2.0));
      g.final_train_loss[g.cell(l, c)] = 0.1 + off;  // minimum on the band
      g.final_accuracy[g.cell(l, c)] = 1.0 / (1.0 + off);
    }
  }
  if (with_outlier) g.final_train_loss[g.cell(5, 4)] = 0.01;  // α = 1000, C = 0.1... α·C = 100
  return g;
}
}  // namespace

class TestAlphaClipFit : public QObject {
  Q_OBJECT
 private slots:
  void fitsTheBand() {
    const AlphaClipGrid g = bandGrid(false);
    const InverseClipFit fit = fit_inverse_clip_line(g, GridMetric::kFinalTrainLoss);
    // The best cells have α·C ∈ {1, 10} (grid products are powers of ten): log-median ≈ between.
    QVERIFY2(fit.product >= 1.0 && fit.product <= 10.0, qPrintable(QString::number(fit.product)));
    QCOMPARE(fit.cells_used, 4);  // ceil(0.1 · 36) = 4
    const InverseClipFit by_accuracy = fit_inverse_clip_line(g, GridMetric::kFinalAccuracy);
    QCOMPARE(by_accuracy.product, fit.product);  // same ranking, reversed sign
  }
  void outlierDoesNotMoveTheLine() {
    const InverseClipFit fit = fit_inverse_clip_line(bandGrid(true), GridMetric::kFinalTrainLoss);
    QVERIFY2(fit.product >= 1.0 && fit.product <= 10.0, qPrintable(QString::number(fit.product)));
  }
  void needsTwoValuesPerAxis() {
    AlphaClipGrid g = bandGrid(false);
    g.learning_rates.resize(1);
    QCOMPARE(fit_inverse_clip_line(g, GridMetric::kFinalTrainLoss).product, 0.0);
  }
  void nanCellsAreSkipped() {
    AlphaClipGrid g = bandGrid(false);
    for (double& v : g.final_train_loss) v = std::nan("");
    g.final_train_loss[g.cell(2, 2)] = 1.0;  // α = 1, C = 0.1
    const InverseClipFit fit = fit_inverse_clip_line(g, GridMetric::kFinalTrainLoss);
    QCOMPARE(fit.cells_used, 1);
    QVERIFY(std::abs(fit.product - 0.1) < 1e-12);
  }
};

DPLAB_TEST_MAIN(TestAlphaClipFit)
#include "test_alpha_clip_fit.moc"
