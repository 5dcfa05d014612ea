// Issue #11 item 10: sizes from files and configs that used to end in "std::bad_alloc" or in a
// wrapped integer ("< 1" for a LIBSVM index of 1e300) now give a message naming the field and,
// for memory, how much it would need. Also the training-level checks (steps, hidden units).
#include <QTest>

#include "core/error.h"
#include "core/memory_check.h"
#include "data/libsvm_loader.h"
#include "data/synthetic.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "training/trainer.h"

using namespace dplab;
using dplab::testing::error_of;

class TestReliabilityInputs : public QObject {
  Q_OBJECT
 private slots:
  void libsvm_huge_index_is_named() {
    testing::TempFiles files;
    const std::string path = files.path("huge.svm");
    testing::write_file(path, "1 1:0.5 1e300:1\n0 2:1\n");
    const QString message = error_of<ParseError>([&] { data::load_libsvm(path); });
    QVERIFY2(message.contains("huge.svm:1:") &&
                 message.contains("feature index 1e+300 exceeds the largest supported") &&
                 message.contains("'1e300:1'"),
             qPrintable(message));
    testing::write_file(path, "1 1:0.5 2147483648:1\n0 2:1\n");
    const QString wide = error_of<ParseError>([&] { data::load_libsvm(path); });
    QVERIFY2(wide.contains("feature index 2147483648 exceeds"), qPrintable(wide));
  }

  // A dense matrix the machine cannot hold: the message names the matrix and the memory.
  void libsvm_dense_matrix_memory_is_named() {
    testing::TempFiles files;
    const std::string path = files.path("wide.svm");
    std::string text;
    for (int i = 0; i < 300; ++i) text += std::to_string(i % 2) + " 16000000:1\n";
    testing::write_file(path, text);
    set_memory_limit_bytes(1e9);
    const QString message = error_of<InvalidArgument>([&] { data::load_libsvm(path); });
    set_memory_limit_bytes(0);
    // Issue #24: the message also names the index, its line and token, and both copies.
    QVERIFY2(message.contains("wide.svm:1: feature index 16000000 (token '16000000:1') sets d = "
                              "16000000: the dense 300 x 16000000 feature matrix") &&
                 message.contains("would need 38.4 GB of memory; the memory budget is 1.0 GB"),
             qPrintable(message));
  }

  void synthetic_size_memory_is_named() {
    data::SyntheticBinaryOptions options;
    options.num_samples = 1'000'000'000'000;
    options.dim = 1'000'000;
    const QString message =
        error_of<InvalidArgument>([&] { data::make_synthetic_binary(options); });
    QVERIFY2(message.contains("dataset.num_samples x dataset.dim = 1000000000000 x 1000000") &&
                 message.contains("would need 4.0 EB of memory"),
             qPrintable(message));
  }

  void training_sizes_memory_is_named() {
    data::SyntheticBinaryOptions options;
    options.num_samples = 200;
    options.dim = 4;
    const data::Dataset all = data::make_synthetic_binary(options);
    const data::TrainValidationSplit split = data::split_train_validation(all, 0.25, 1);
    training::TrainingConfig config;
    config.model.kind = models::ModelKind::kTwoLayerNetwork;
    config.model.hidden_units = 2'000'000'000;
    config.dp.lot_size = 10;
    config.steps = 10;
    config.eval_every = 5;
    const QString hidden = error_of<InvalidArgument>([&] { training::train(split, config); });
    QVERIFY2(hidden.contains("hidden_units = 2000000000 (the network's weights) would need"),
             qPrintable(hidden));
    config.model.hidden_units = 10;
    config.steps = 4'000'000'000'000'000'000;
    config.eval_every = 1;
    // The run-size cap every command shares (core/limits.h) refuses it before any allocation.
    const QString steps = error_of<InvalidArgument>([&] { training::train(split, config); });
    QVERIFY2(steps.contains("steps = 4e+18 must be in [1, 100000000]"), qPrintable(steps));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestReliabilityInputs)
#include "test_reliability_inputs.moc"
