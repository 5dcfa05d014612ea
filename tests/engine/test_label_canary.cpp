// Label-canary audit for classifiers (audit/label_canary.h): mislabelled examples repeated
// n_c = 20 times in a small training set are memorised by a non-private two-layer network (rank
// histogram significantly non-uniform, mass at the right), while with n_c = 0 (never inserted) the
// canaries are exchangeable with the references and the histogram is uniform.
#include <QTest>

#include "audit/label_canary.h"
#include "core/error.h"
#include "data/synthetic.h"
#include "models/model.h"
#include "support/test_registry.h"

using namespace dplab;

namespace {

training::TrainingConfig non_private_tlnn() {
  training::TrainingConfig config;
  config.model.kind = models::ModelKind::kTwoLayerNetwork;
  config.model.hidden_units = 64;
  config.optimizer = optim::default_spec(optim::OptimizerKind::kDpAdam);
  config.optimizer.learning_rate = 0.01;
  config.dp.clip = models::kNoClipping;
  config.dp.noise_multiplier = 0;
  config.dp.lot_size = 50;
  config.steps = 3000;
  config.seed = 5;
  return config;
}

data::TrainValidationSplit small_data() {
  data::SyntheticBinaryOptions o;
  o.num_samples = 2000;
  o.dim = 20;
  o.label_noise = 0.0;
  o.seed = 3;
  return data::split_train_validation(data::make_synthetic_binary(o), 0.3, 4);
}

}  // namespace

class TestLabelCanary : public QObject {
  Q_OBJECT

 private slots:
  void memorised_labels_are_detected() {
    const auto data = small_data();
    const auto result = audit::run_label_canary_audit(data, non_private_tlnn(), {40, 20, 9});
    QVERIFY2(result.histogram.test.p_value < 1e-6,
             qPrintable(QString("p = %1").arg(result.histogram.test.p_value)));
    QVERIFY(result.histogram.counts.back() > 10);
  }

  void never_inserted_canaries_are_uniform() {
    const auto data = small_data();
    const auto result = audit::run_label_canary_audit(data, non_private_tlnn(), {60, 0, 9});
    QVERIFY2(result.histogram.test.p_value > 0.01,
             qPrintable(QString("p = %1").arg(result.histogram.test.p_value)));
  }

  void bad_input_is_refused() {
    const auto data = small_data();
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             audit::run_label_canary_audit(data, non_private_tlnn(), {200, 3, 1}));
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             audit::run_label_canary_audit(data, non_private_tlnn(), {1, 3, 1}));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestLabelCanary)
#include "test_label_canary.moc"
