// Black-box canaries (audit/black_box_canaries.h), the crafted kind above all:
//   - the data rows get m extra features that are 0, canary i is s e_{d+i} (s = 10) with label 0,
//     and the included canaries (the coins S_i) are appended once each; image data become floats;
//   - the data's per-example gradients on the extra features' first-layer weights are EXACTLY 0
//     (logistic regression binary and multinomial, the two-layer network), and canary i moves only
//     its own feature's weights among them — why a crafted canary is not drowned by the data;
//   - the one-run audit with crafted canaries (final model, -loss: black-box) finds something:
//     high without privacy, positive and below the accountant's epsilon with it, where mislabelled
//     canaries show 0 on the same run;
//   - a conv net is refused (it reads its input as an image, not as features).
#include <QTest>

#include <algorithm>
#include <cmath>

#include "audit/black_box_canaries.h"
#include "audit/one_run_audit.h"
#include "audit/privacy_gap_sweep.h"
#include "core/error.h"
#include "data/feature_rows.h"
#include "data/synthetic.h"
#include "privacy/accounting/accountant_choice.h"
#include "support/audit_tasks.h"
#include "support/expect_error.h"
#include "support/test_registry.h"

using namespace dplab;

namespace {

constexpr int kCanaries = 40;

models::ModelSpec spec_of(models::ModelKind kind) {
  models::ModelSpec spec;
  spec.kind = kind;
  spec.hidden_units = 7;
  return spec;
}

// Four classes on the binary task's features (labels row mod 4: the gradients are what matter).
data::TrainValidationSplit multiclass_task() {
  auto task = testing::synthetic_audit_task(6, 300);
  for (data::Dataset* part : {&task.train, &task.validation}) {
    part->num_classes = 4;
    for (Index i = 0; i < part->size(); ++i) part->targets[i] = static_cast<float>(i % 4);
  }
  return task;
}

// The clipped gradient sum of rows [first, first + count) of `set` on a fresh `spec` model.
Vector gradient_of(const models::ModelSpec& spec, const data::Dataset& set, Index first,
                   Index count) {
  auto model = models::make_model(spec, set.dim(), set.num_classes);
  model->initialize(9);
  Vector sum = Vector::Zero(model->num_params());
  Vector norms(count);
  Matrix scratch;
  model->clipped_gradient_sum(data::feature_rows(set, first, count, scratch),
                              set.targets.segment(first, count), 1.0, sum, norms);
  return sum;
}

}  // namespace

class TestBlackBoxCanaries : public QObject {
  Q_OBJECT
 private slots:
  void crafted_canaries_pad_the_data_and_append_the_included() {
    const auto task = testing::synthetic_audit_task(5, 200);
    const auto set =
        audit::make_black_box_canaries(task, kCanaries, audit::BlackBoxCanaries::kCrafted,
                                       spec_of(models::ModelKind::kLogisticRegression), 4);
    const Index d = task.train.dim();
    QCOMPARE(set.data.train.dim(), d + kCanaries);
    QCOMPARE(set.data.validation.dim(), d + kCanaries);
    const auto in = std::count(set.included.begin(), set.included.end(), true);
    QVERIFY(in > 0 && in < kCanaries);
    QCOMPARE(set.data.train.size(), task.train.size() + static_cast<Index>(in));
    // Data rows: their own features, then zeros.
    QVERIFY(set.data.train.features.topLeftCorner(task.train.size(), d) == task.train.features);
    QCOMPARE(
        set.data.train.features.topRightCorner(task.train.size(), kCanaries).cwiseAbs().maxCoeff(),
        0.0f);
    // Canary i: s on feature d + i only, label 0.
    QCOMPARE(audit::crafted_canary_value(), 10.0);
    for (Index i = 0; i < kCanaries; ++i) {
      QCOMPARE(set.canaries.features.row(i).cwiseAbs().sum(), 10.0f);
      QCOMPARE(set.canaries.features(i, d + i), 10.0f);
      QCOMPARE(set.canaries.targets[i], 0.0f);
    }
    // The appended rows are the included canaries, in order.
    Index row = task.train.size();
    for (Index i = 0; i < kCanaries; ++i) {
      if (!set.included[static_cast<std::size_t>(i)]) continue;
      QVERIFY(set.data.train.features.row(row) == set.canaries.features.row(i));
      ++row;
    }
    // The same seed gives the same coins for both kinds (one coin stream).
    const auto mislabelled =
        audit::make_black_box_canaries(task, kCanaries, audit::BlackBoxCanaries::kMislabelled,
                                       spec_of(models::ModelKind::kLogisticRegression), 4);
    QCOMPARE(mislabelled.included, set.included);
    QCOMPARE(mislabelled.data.train.dim(), d);

    // Image data: held as floats (a byte cannot hold s = 10), pixels read as byte / 255.
    data::TrainValidationSplit images;
    for (data::Dataset* part : {&images.train, &images.validation}) {
      part->pixels = PixelMatrix::Constant(12, 4, 51);
      part->targets = Vector::Zero(12);
      part->num_classes = 2;
    }
    const auto padded =
        audit::make_black_box_canaries(images, 6, audit::BlackBoxCanaries::kCrafted,
                                       spec_of(models::ModelKind::kLogisticRegression), 4);
    QVERIFY(!padded.data.train.stores_pixels() && !padded.canaries.stores_pixels());
    QCOMPARE(padded.data.train.dim(), Index{10});
    QVERIFY(std::abs(padded.data.train.features(0, 0) - 0.2f) < 1e-6f);
    QCOMPARE(padded.data.validation.features(0, 4), 0.0f);
    QCOMPARE(padded.canaries.features(2, 6), 10.0f);
  }

  void the_data_never_moves_the_canaries_weights() {
    struct Case {
      models::ModelKind kind;
      data::TrainValidationSplit task;
      Index width;  // first-layer outputs: the row length of W (d x width)
    };
    const auto binary = testing::synthetic_audit_task(5, 200);
    const auto multi = multiclass_task();
    for (const Case& c : {Case{models::ModelKind::kLogisticRegression, binary, 1},
                          Case{models::ModelKind::kLogisticRegression, multi, 4},
                          Case{models::ModelKind::kTwoLayerNetwork, binary, 7}}) {
      const auto set = audit::make_black_box_canaries(
          c.task, kCanaries, audit::BlackBoxCanaries::kCrafted, spec_of(c.kind), 4);
      const Index d = c.task.train.dim();
      const Vector data_sum = gradient_of(spec_of(c.kind), set.data.train, 0, c.task.train.size());
      QVERIFY(data_sum.head(d * c.width).cwiseAbs().maxCoeff() > 0);  // the data moves its own
      QCOMPARE(data_sum.segment(d * c.width, kCanaries * c.width).cwiseAbs().maxCoeff(), 0.0f);
      // Canary 3 alone moves feature d + 3's weights, and no other canary's.
      const Vector canary = gradient_of(spec_of(c.kind), set.canaries, 3, 1);
      for (Index j = 0; j < kCanaries; ++j) {
        const float moved = canary.segment((d + j) * c.width, c.width).cwiseAbs().maxCoeff();
        QVERIFY2(j == 3 ? moved > 0 : moved == 0, qPrintable(QString::number(j)));
      }
    }
  }

  // The one-run black-box audit (-loss on the final model) on d = 20 synthetic data, q ~ 1/5:
  // crafted canaries find something, mislabelled ones do not.
  void crafted_canaries_audit_above_zero() {
    const auto task = testing::synthetic_audit_task(20, 5000);
    audit::OneRunAuditOptions options;
    options.canaries = 1000;
    options.mode = audit::AuditMode::kBlackBox;
    options.blackbox_canaries = audit::BlackBoxCanaries::kCrafted;
    options.seed = 5;
    const auto config = testing::dpsgd_logistic_run(0.7, 750, 150, 3);
    const auto twin = audit::non_private_twin(config, options);
    const auto open = audit::run_one_run_audit(task, twin.config, twin.options);
    QVERIFY2(open.bound.epsilon_lower_bound > 3,
             qPrintable(QString::number(open.bound.epsilon_lower_bound)));
    const auto r = audit::run_one_run_audit(task, config, options);
    const privacy::SubsampledGaussian mechanism{0.7, r.sampling_rate, r.queries};
    const double eps =
        privacy::run_epsilon(mechanism, 1, options.delta, privacy::Accountant::kPld).epsilon;
    QVERIFY2(
        r.bound.epsilon_lower_bound > 0.3 && r.bound.epsilon_lower_bound < eps,
        qPrintable(QString::number(r.bound.epsilon_lower_bound) + " vs " + QString::number(eps)));
    QVERIFY(r.blackbox_canaries == audit::BlackBoxCanaries::kCrafted);
    options.blackbox_canaries = audit::BlackBoxCanaries::kMislabelled;
    const auto mislabelled = audit::run_one_run_audit(task, config, options);
    QVERIFY2(mislabelled.bound.epsilon_lower_bound < r.bound.epsilon_lower_bound,
             qPrintable(QString::number(mislabelled.bound.epsilon_lower_bound)));
  }

  void a_conv_net_and_regression_are_refused() {
    const auto task = testing::synthetic_audit_task(5, 200);
    QString message = testing::error_of<InvalidArgument>([&] {
      audit::make_black_box_canaries(task, 10, audit::BlackBoxCanaries::kCrafted,
                                     spec_of(models::ModelKind::kCnn), 1);
    });
    QVERIFY2(message.contains("dense model"), qPrintable(message));
    QVERIFY(audit::parse_blackbox_canaries("crafted") == audit::BlackBoxCanaries::kCrafted);
    message = testing::error_of<InvalidArgument>([] { audit::parse_blackbox_canaries("odd"); });
    QVERIFY2(message.contains("blackbox canaries"), qPrintable(message));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestBlackBoxCanaries)
#include "test_black_box_canaries.moc"
