// Reproduction variants (experiment/reproduction_variants.h, docs/reproduction.md): each switch
// changes exactly what it says and nothing else.
//   - adam_xi inside_sqrt: DPAdam's first step is theta - alpha g / sqrt(g^2 + xi) (hand-computed
//     on QuadraticTestModel, sigma = 0, q = 1, so g~ = theta - mean(x) exactly);
//   - lot_normalization realized: the noiseless gradient is the lot's mean (sum / |lot|), and the
//     noise on it has std sigma C / |lot| (sample variance of the standardised noise ~ 1);
//   - binary_output softmax: the two-logit model equals the sigmoid model with w = w_1 - w_0 in
//     loss, and its per-row gradients are -g and +g of the sigmoid gradient g;
//   - linear_init uniform_fan_in: entries in [-1/sqrt(d), 1/sqrt(d)], mean ~ 0, variance ~ 1/(3d),
//     same seed same values;
//   - pixel_range symmetric: pixel b becomes 2 b / 255 - 1 on both splits (0 -> -1, 255 -> 1),
//     float data are refused naming the key, also through tuning::load_experiment_data;
//   - parsing: defaults round-trip to no key, every value names its key on error, and realized
//     lots are refused in private release mode.
// GCC 12 false positive in its AVX-512 headers under Eigen (bug 105593); see gaussian_noise.cpp.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "data/feature_rows.h"
#include "dp_gradient/noisy_gradient.h"
#include "engine/quadratic_test_model.h"
#include "experiment/experiment_config.h"
#include "experiment/reproduction_variants.h"
#include "models/model.h"
#include "optim/optimizer.h"
#include "support/expect_error.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"
#include "tuning/runner.h"

using namespace dplab;
using dplab::testing::QuadraticTestModel;

namespace {

// Two rows, theta0 = (0.5, -1, 2), mean(x) = (2, 1, 0)  =>  g0 = (-1.5, -2, 2) (test_optimizers).
data::Dataset two_points() {
  Matrix x(2, 3);
  x << 1, 2, -1, 3, 0, 1;
  return testing::make_points(x);
}

nlohmann::json minimal_experiment() {
  return nlohmann::json::parse(R"({
    "name": "v", "dataset": {"source": "synthetic-binary"}, "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1, "lot_size": 10, "steps": 5},
    "optimizers": [{"name": "dpadam", "grid": {"clip": 1}}]})");
}

QString parse_error(const nlohmann::json& j) {
  try {
    experiment::parse_experiment(j);
  } catch (const ParseError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

class TestReproductionVariants : public QObject {
  Q_OBJECT

 private slots:
  void adamXiInsideSqrtFirstStep() {
    // xi = 1 makes the two placements differ visibly. Step 1: m^ = g0, v^ = g0^2.
    //   outside: theta1 = theta0 - 1e-3 g0 / (|g0| + 1)
    //   inside:  theta1 = theta0 - 1e-3 g0 / sqrt(g0^2 + 1) = theta0 + 1e-3 (1.5/sqrt(3.25),
    //            2/sqrt(5), -2/sqrt(5))
    for (bool inside : {false, true}) {
      data::Dataset train = two_points();
      QuadraticTestModel model(3);
      model.params() << 0.5f, -1.0f, 2.0f;
      const privacy::DpSettings dp{models::kNoClipping, 0.0, 2.0};
      privacy::NoisyGradientOracle oracle(train, model, dp, 1);
      optim::OptimizerSpec spec = optim::default_spec(optim::OptimizerKind::kDpAdam);
      spec.epsilon = 1.0;
      spec.adam_xi_inside_sqrt = inside;
      auto opt = optim::make_optimizer(spec, optim::RunShape{3, 10, dp});
      opt->step(model, oracle);
      const double g0[3] = {-1.5, -2.0, 2.0};
      const double theta0[3] = {0.5, -1.0, 2.0};
      double ess = 0;
      for (int j = 0; j < 3; ++j) {
        const double denominator = inside ? std::sqrt(g0[j] * g0[j] + 1.0) : std::abs(g0[j]) + 1.0;
        DPLAB_COMPARE_REL(model.params()[j], theta0[j] - 1e-3 * g0[j] / denominator, 1e-6);
        ess += 1e-3 / denominator / 3;
      }
      DPLAB_COMPARE_REL(opt->effective_step_size(), ess, 1e-6);
    }
  }

  void realizedLotDividesTheSumByTheLotSize() {
    // n = 40 points, L = 10 (q = 1/4), sigma = 0, no clipping: the sum over the lot is
    // sum_{i in lot} (theta - x_i); "expected" divides it by 10, "realized" by |lot|.
    Matrix x(40, 2);
    for (Index i = 0; i < 40; ++i) x.row(i) << static_cast<float>(i), static_cast<float>(-2 * i);
    const data::Dataset train = testing::make_points(x);
    for (bool realized : {false, true}) {
      QuadraticTestModel model(2);
      model.params() << 1.0f, 3.0f;
      const privacy::DpSettings dp{models::kNoClipping, 0.0, 10.0};
      privacy::NoisyGradientOracle oracle(train, model, dp, 7);
      oracle.set_divide_by_realized_lot(realized);
      Vector gradient(2);
      int lots_not_ten = 0;
      for (int query = 0; query < 50; ++query) {
        oracle.query(gradient);
        const auto& lot = oracle.last_lot_indices();
        double sum[2] = {0, 0};
        for (Index i : lot) {
          sum[0] += 1.0 - x(i, 0);
          sum[1] += 3.0 - x(i, 1);
        }
        const double divisor = realized ? std::max<double>(1.0, lot.size()) : 10.0;
        if (lot.size() != 10) ++lots_not_ten;
        for (int j = 0; j < 2; ++j) {
          DPLAB_COMPARE_ABS(gradient[j], sum[j] / divisor, 1e-4 * (1 + std::abs(sum[j])));
        }
      }
      QVERIFY(lots_not_ten > 10);  // the two rules were really told apart
    }
  }

  void realizedLotNoiseStdIsSigmaCOverLotSize() {
    // All points equal theta: the data gradient is 0, so g~ = N(0, (sigma C / |lot|)^2) per
    // coordinate. z = g~ |lot| / (sigma C) ~ N(0, 1): over 600 queries x 8 coordinates the
    // sample variance has sd sqrt(2/4800) = 0.02; the bound 0.1 is 5 sd. Dividing by L instead
    // would give Var(z) = E[|lot|^2] / L^2 = 1 + 1/L (Poisson) only by accident of the mean, so
    // the check is per query: the |lot| of that query scales the noise.
    const Index d = 8, n = 200;
    Matrix x = Matrix::Zero(n, d);
    const data::Dataset train = testing::make_points(x);
    QuadraticTestModel model(d);
    const privacy::DpSettings dp{1.0, 2.0, 5.0};  // C = 1, sigma = 2, L = 5
    privacy::NoisyGradientOracle oracle(train, model, dp, 11);
    oracle.set_divide_by_realized_lot(true);
    Vector gradient(d);
    double sum_sq = 0;
    int count = 0;
    double small_lot_sum_sq = 0;
    int small_lot_count = 0;
    for (int query = 0; query < 600; ++query) {
      oracle.query(gradient);
      const double lot = std::max<double>(1.0, oracle.last_lot_size());
      for (Index j = 0; j < d; ++j) {
        const double z = gradient[j] * lot / 2.0;
        sum_sq += z * z;
        ++count;
        if (lot <= 3) {
          small_lot_sum_sq += z * z;
          ++small_lot_count;
        }
      }
    }
    DPLAB_COMPARE_ABS(sum_sq / count, 1.0, 0.1);
    // Lots of at most 3 (|lot| < L): with / L the standardised variance would be <= 9/25.
    QVERIFY(small_lot_count > 100);
    DPLAB_COMPARE_ABS(small_lot_sum_sq / small_lot_count, 1.0, 0.25);
  }

  void twoClassSoftmaxIsTheSigmoidModelWithDoubledGradient() {
    const Index d = 3;
    Matrix x(4, d);
    x << 0.2f, -1.0f, 0.5f, 1.5f, 0.3f, -0.7f, -0.4f, 0.9f, 0.1f, 0.0f, -0.2f, 1.1f;
    Vector y(4);
    y << 0, 1, 1, 0;
    auto sigmoid = models::make_model(models::ModelSpec{}, d, 2);
    models::ModelSpec spec;
    spec.binary_output = models::BinaryOutput::kTwoClassSoftmax;
    auto softmax = models::make_model(spec, d, 2);
    QCOMPARE(sigmoid->num_params(), d + 1);
    QCOMPARE(softmax->num_params(), 2 * (d + 1));
    // Softmax params [W (d x 2) row-major, b (2)]; sigmoid params [w (d), b] with w = W_:1 - W_:0.
    softmax->params() << 0.3f, -0.1f, 0.2f, 0.4f, -0.5f, 0.25f, 0.05f, -0.15f;
    for (Index j = 0; j < d; ++j) {
      sigmoid->params()[j] = softmax->params()[2 * j + 1] - softmax->params()[2 * j];
    }
    sigmoid->params()[d] = softmax->params()[2 * d + 1] - softmax->params()[2 * d];
    DPLAB_COMPARE_REL(softmax->loss_sum(x, y), sigmoid->loss_sum(x, y), 1e-5);
    Vector g_sigmoid(d + 1), g_softmax(2 * (d + 1)), norms_sigmoid(4), norms_softmax(4);
    sigmoid->clipped_gradient_sum(x, y, models::kNoClipping, g_sigmoid, norms_sigmoid);
    softmax->clipped_gradient_sum(x, y, models::kNoClipping, g_softmax, norms_softmax);
    for (Index j = 0; j < d; ++j) {
      DPLAB_COMPARE_ABS(g_softmax[2 * j + 1], g_sigmoid[j], 1e-5);
      DPLAB_COMPARE_ABS(g_softmax[2 * j], -g_sigmoid[j], 1e-5);
    }
    DPLAB_COMPARE_ABS(g_softmax[2 * d + 1], g_sigmoid[d], 1e-5);
    DPLAB_COMPARE_ABS(g_softmax[2 * d], -g_sigmoid[d], 1e-5);
    for (Index i = 0; i < 4; ++i) {
      DPLAB_COMPARE_REL(norms_softmax[i], std::sqrt(2.0) * norms_sigmoid[i], 1e-5);
    }
    // Multiclass data ignores the switch (softmax already); other models refuse it.
    QCOMPARE(models::make_model(spec, d, 3)->num_params(), 3 * (d + 1));
    models::ModelSpec tlnn = spec;
    tlnn.kind = models::ModelKind::kTwoLayerNetwork;
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, models::make_model(tlnn, d, 2));
  }

  void uniformFanInInitialisation() {
    const Index d = 400;
    models::ModelSpec spec;
    auto zeros = models::make_model(spec, d, 2);
    zeros->initialize(5);
    QCOMPARE(zeros->params().cwiseAbs().maxCoeff(), 0.0f);
    spec.linear_init = models::LinearInit::kUniformFanIn;
    auto model = models::make_model(spec, d, 10);  // 4,010 parameters
    model->initialize(5);
    const double bound = 1.0 / std::sqrt(static_cast<double>(d));
    const auto& p = model->params();
    QVERIFY(p.cwiseAbs().maxCoeff() <= bound);
    const double mean = p.cast<double>().mean();
    const double variance = (p.cast<double>().array() - mean).square().mean();
    // U(-b, b): mean 0 (sd b / sqrt(3 N)), variance b^2 / 3 (sd of the estimate ~ 2% here).
    DPLAB_COMPARE_ABS(mean, 0.0, 4 * bound / std::sqrt(3.0 * p.size()));
    DPLAB_COMPARE_REL(variance, bound * bound / 3, 0.1);
    auto again = models::make_model(spec, d, 10);
    again->initialize(5);
    QVERIFY(again->params() == p);
    again->initialize(6);
    QVERIFY(again->params() != p);
  }

  void symmetricPixelRange() {
    data::TrainValidationSplit split;
    split.train.name = split.validation.name = "images";
    split.train.pixels.resize(2, 3);
    split.train.pixels << 0, 51, 255, 128, 1, 254;
    split.train.targets = Vector::Zero(2);
    split.validation.pixels.resize(1, 3);
    split.validation.pixels << 255, 0, 17;
    split.validation.targets = Vector::Zero(1);
    const data::TrainValidationSplit before = split;
    experiment::apply_data_variants(experiment::ReproductionVariants{}, split);  // default: as is
    QVERIFY(split.train.stores_pixels() && split.train.pixels == before.train.pixels);
    experiment::ReproductionVariants symmetric;
    symmetric.pixels_symmetric = true;
    experiment::apply_data_variants(symmetric, split);
    for (const auto* part : {&split.train, &split.validation}) {
      const PixelMatrix& bytes =
          part == &split.train ? before.train.pixels : before.validation.pixels;
      QVERIFY(!part->stores_pixels());
      QCOMPARE(part->features.rows(), bytes.rows());
      for (Index i = 0; i < bytes.rows(); ++i)
        for (Index k = 0; k < bytes.cols(); ++k)
          QCOMPARE(part->features(i, k), 2.0f * data::pixel_feature(bytes(i, k)) - 1.0f);
    }
    QCOMPARE(split.train.features(0, 0), -1.0f);
    QCOMPARE(split.train.features(0, 2), 1.0f);
    QVERIFY(split.notes.back().find("[-1, 1]") != std::string::npos);

    // Float features are refused, also when an experiment loads its data.
    data::TrainValidationSplit floats;
    floats.train.name = "table";
    floats.train.features = Matrix::Constant(2, 2, 0.5f);
    floats.train.targets = Vector::Zero(2);
    QVERIFY(QString(testing::error_of<InvalidArgument>([&] {
              experiment::apply_data_variants(symmetric, floats);
            })).contains("variants.pixel_range"));
    nlohmann::json j = minimal_experiment();
    j["variants"] = {{"pixel_range", "symmetric"}};
    const auto config = experiment::parse_experiment(j);
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              tuning::load_experiment_data(config);
            }).contains("variants.pixel_range"));
  }

  void parsingAndApplying() {
    nlohmann::json j = minimal_experiment();
    auto plain = experiment::parse_experiment(j);
    QVERIFY(plain.variants.is_default());
    QVERIFY(!experiment::to_json(plain).contains("variants"));
    j["variants"] = {{"lot_normalization", "realized"},
                     {"adam_xi", "inside_sqrt"},
                     {"binary_output", "softmax"},
                     {"linear_init", "uniform_fan_in"},
                     {"pixel_range", "symmetric"}};
    const auto config = experiment::parse_experiment(j);
    QVERIFY(config.variants.pixels_symmetric);
    QVERIFY(config.variants.divide_by_realized_lot);
    QVERIFY(config.variants.adam_xi_inside_sqrt);
    QVERIFY(experiment::to_json(config)["variants"] == j["variants"]);
    QVERIFY(experiment::parse_experiment(experiment::to_json(config)).variants == config.variants);
    training::TrainingConfig tc;
    experiment::apply_variants(config.variants, tc);
    QVERIFY(tc.divide_by_realized_lot && tc.optimizer.adam_xi_inside_sqrt);
    QVERIFY(tc.model.binary_output == models::BinaryOutput::kTwoClassSoftmax);
    QVERIFY(tc.model.linear_init == models::LinearInit::kUniformFanIn);

    j["variants"] = {{"pixel_range", "[-1, 1]"}};
    QVERIFY(parse_error(j).contains("variants.pixel_range: unknown value"));
    j["variants"] = {{"adam_xi", "inside"}};
    QVERIFY(parse_error(j).contains("variants.adam_xi: unknown value \"inside\""));
    j["variants"] = {{"normalisation", "realized"}};
    QVERIFY(parse_error(j).contains("variants.normalisation: unknown key"));
    j["variants"] = {{"binary_output", "softmax"}};
    j["model"] = {{"kind", "tlnn"}};
    QVERIFY(parse_error(j).contains("logistic"));
    j["model"] = {{"kind", "logistic"}};
    j["variants"] = {{"lot_normalization", "realized"}};
    j["release"] = {{"mode", "private"}};
    QVERIFY(parse_error(j).contains("variants.lot_normalization"));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestReproductionVariants)
#include "test_reproduction_variants.moc"
