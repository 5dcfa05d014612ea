// The paper's Figure 2 (section 4.1, Theorem 2): DPSGD on the synthetic linear regression
// (d = 10, y = x . 10*1) with sigma = 4, L = 250, T = 100, over an (alpha, C) grid of
// {1,2,4,5,8} x 10^{-4..1}. When C is below the per-example gradient norms (~|y| |x| ~ 50),
// every example is clipped, each update is alpha*C times a unit-scale direction plus noise of
// std alpha*sigma*C/L, so the whole trajectory depends on alpha*C only: the best cells lie on a
// diagonal alpha*C ~ const. This suite trains the grid and checks that pattern on real runs.
#include <QTest>
#include <cmath>
#include <map>
#include <vector>

#include "data/prepare_split.h"
#include "data/synthetic.h"
#include "support/test_registry.h"
#include "training/trainer.h"

using namespace dplab;

namespace {

std::vector<double> paper_grid() {
  std::vector<double> values;
  for (int exponent = -4; exponent <= 1; ++exponent) {
    for (double mantissa : {1.0, 2.0, 4.0, 5.0, 8.0})
      values.push_back(mantissa * std::pow(10.0, exponent));
  }
  return values;
}

// Final log10 training loss of DPSGD at (alpha, C), mean over two seeds.
double log_training_loss(const data::TrainValidationSplit& split, double alpha, double clip) {
  double total = 0;
  for (std::uint64_t seed : {1u, 2u}) {
    training::TrainingConfig config;
    config.model.kind = models::ModelKind::kLinearRegression;
    config.optimizer.kind = optim::OptimizerKind::kDpSgd;
    config.optimizer.learning_rate = alpha;
    config.dp = {clip, 4.0, 250};
    config.steps = 100;
    config.eval_every = 100;
    config.seed = seed;
    const double loss = training::train(split, config).final_train_loss;
    total += std::isfinite(loss) ? std::log10(loss) : 40.0;  // diverged: worse than any cell
  }
  return total / 2;
}

}  // namespace

class Figure2PatternTest : public QObject {
  Q_OBJECT

  data::TrainValidationSplit split_;
  std::vector<double> grid_ = paper_grid();
  std::map<std::pair<int, int>, double> loss_;  // (alpha index, C index) -> log10 loss

 private slots:
  void initTestCase() {
    data::SyntheticLinearOptions options;
    options.num_samples = 10000;
    options.seed = 3;
    split_ = data::prepare_split(data::make_synthetic_linear(options), 0.2, 0);
    for (int a = 0; a < static_cast<int>(grid_.size()); ++a) {
      for (int c = 0; c < static_cast<int>(grid_.size()); ++c) {
        loss_[{a, c}] = log_training_loss(split_, grid_[a], grid_[c]);
      }
    }
    for (double clip : {0.04, 0.1, 0.2, 0.5, 1.0, 10.0}) {
      const int c = index_of(clip);
      const int a = best_alpha_index(c);
      qInfo("C = %-5g best alpha = %-6g alpha*C = %-8g log10 loss = %.3f", clip, grid_[a],
            grid_[a] * clip, loss_.at({a, c}));
    }
  }

  // In the fully clipped regime (C <= 1, far below the gradient norms) cells with the same
  // alpha*C have the same loss: the trajectory depends on the product only.
  void diagonalCellsAgreeWhenEverythingIsClipped() {
    // alpha*C = 0.04 reached by (0.04, 1), (0.2, 0.2), (0.4, 0.1), (1, 0.04)
    const std::vector<std::pair<double, double>> cells = {
        {0.04, 1}, {0.2, 0.2}, {0.4, 0.1}, {1, 0.04}};
    std::vector<double> losses;
    for (auto [alpha, clip] : cells) losses.push_back(loss_.at({index_of(alpha), index_of(clip)}));
    for (double loss : losses) {
      QVERIFY2(std::abs(loss - losses.front()) < 0.15,
               qPrintable(QString("log10 losses along alpha*C = 0.04 differ: %1 vs %2")
                              .arg(loss)
                              .arg(losses.front())));
    }
  }

  // For each clipped C, the best alpha scales like 1/C (within one grid step either way).
  void bestLearningRateIsInverseToClip() {
    const double best_product_at_c1 = grid_[best_alpha_index(index_of(1.0))] * 1.0;
    for (double clip : {0.04, 0.1, 0.2, 0.5}) {
      const double best_alpha = grid_[best_alpha_index(index_of(clip))];
      const double ratio = best_alpha * clip / best_product_at_c1;
      QVERIFY2(ratio > 0.39 && ratio < 2.6,
               qPrintable(QString("C = %1: best alpha %2, alpha*C / (alpha*C at C=1) = %3")
                              .arg(clip)
                              .arg(best_alpha)
                              .arg(ratio)));
    }
  }

  // Off the diagonal the loss is far worse: 100x too small or 100x too large a product.
  void offDiagonalCellsAreMuchWorse() {
    const int c = index_of(0.1);
    const int best = best_alpha_index(c);
    const double best_loss = loss_.at({best, c});
    QVERIFY2(best_loss < 1.0, qPrintable(QString("best log10 loss %1").arg(best_loss)));
    QVERIFY(best >= 2 && best + 2 < static_cast<int>(grid_.size()));
    // Two decades smaller alpha: barely moves from w0 = 0 (initial loss ~ 1250, log10 ~ 3.1).
    const int small = index_of(grid_[best] / 100);
    QVERIFY2(loss_.at({small, c}) > best_loss + 1.0,
             qPrintable(QString("%1 vs %2").arg(loss_.at({small, c})).arg(best_loss)));
  }

 private:
  int index_of(double value) const {
    for (int i = 0; i < static_cast<int>(grid_.size()); ++i) {
      if (std::abs(grid_[i] - value) <= 1e-9 * value) return i;
    }
    qFatal("value %g is not on the grid", value);
  }
  int best_alpha_index(int clip_index) const {
    int best = 0;
    for (int a = 1; a < static_cast<int>(grid_.size()); ++a) {
      if (loss_.at({a, clip_index}) < loss_.at({best, clip_index})) best = a;
    }
    return best;
  }
};

DPLAB_TEST_APPLESS_MAIN(Figure2PatternTest)
#include "test_figure2_pattern.moc"
