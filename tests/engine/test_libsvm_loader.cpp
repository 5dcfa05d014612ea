// LIBSVM loader: exact dense values and label mapping from a fixture with comments and blank
// lines, a given d, a shared pair, and errors naming FILE:LINE and the token.
#include <QTest>

#include <string>

#include "core/error.h"
#include "data/dataset_catalog.h"
#include "data/libsvm_loader.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::data;
using dplab::testing::error_of;

namespace {

std::string fixture(const char* name) {
  return testing::test_data_dir() + "/" + name;
}

}  // namespace

class TestLibsvmLoader : public QObject {
  Q_OBJECT

 private:
  testing::TempFiles files_;
  std::string write(const char* name, const char* text) { return files_.write(name, text); }

 private slots:
  void initTestCase() { QVERIFY(files_.isValid()); }

  // "+1 1:0.5 3:2 / -1 2:1.5 / +1 3:-1 / -1" (comments and a blank line between).
  void dense_values_and_labels() {
    const Dataset data = load_libsvm(fixture("libsvm_small.svm"));
    QCOMPARE(data.size(), Index{4});
    QCOMPARE(data.dim(), Index{3});
    QCOMPARE(data.num_classes, 2);
    QCOMPARE(data.class_names, (std::vector<std::string>{"-1", "1"}));
    Matrix expected(4, 3);
    expected << 0.5f, 0, 2, 0, 1.5f, 0, 0, 0, -1, 0, 0, 0;
    QVERIFY(data.features == expected);
    QCOMPARE(data.targets[0], 1.0f);
    QCOMPARE(data.targets[1], 0.0f);
    QCOMPARE(data.targets[2], 1.0f);
    QCOMPARE(data.targets[3], 0.0f);
    data.validate();
  }

  void multiclass_numeric_order() {
    // Labels 10, 2, 1 sort numerically (not as strings): 1 -> 0, 2 -> 1, 10 -> 2.
    const Dataset data = load_libsvm(write("multi.txt", "10 1:1\n2 2:1\n1 1:3 qid:4 2:2\n"));
    QCOMPARE(data.num_classes, 3);
    QCOMPARE(data.targets[0], 2.0f);
    QCOMPARE(data.targets[1], 1.0f);
    QCOMPARE(data.targets[2], 0.0f);
    QCOMPARE(data.features(2, 1), 2.0f);  // qid token skipped
  }

  void given_dimension() {
    LibsvmOptions options;
    options.num_features = 5;
    const Dataset data = load_libsvm(fixture("libsvm_small.svm"), options);
    QCOMPARE(data.dim(), Index{5});
    QCOMPARE(data.features.col(4).squaredNorm(), 0.0f);
    options.num_features = 2;
    const QString message =
        error_of<ParseError>([&] { load_libsvm(fixture("libsvm_small.svm"), options); });
    QVERIFY2(message.contains("libsvm_small.svm:2:") && message.contains("'3:2'"),
             qPrintable(message));
  }

  void regression() {
    LibsvmOptions options;
    options.regression = true;
    const Dataset data = load_libsvm(write("reg.svm", "0.25 1:1\n-7.5 2:1\n"), options);
    QCOMPARE(data.num_classes, 0);
    QCOMPARE(data.targets[0], 0.25f);
    QCOMPARE(data.targets[1], -7.5f);
    const QString message =
        error_of<InvalidArgument>([&] { load_libsvm(write("reg2.svm", "0.25 1:1\n1 2:1\n")); });
    QVERIFY2(message.contains("regression"), qPrintable(message));
  }

  void pair_shares_dimension_and_classes() {
    const std::string second = write("second.svm", "-1 5:1\n+1 1:2\n");
    const LibsvmPair pair = load_libsvm_pair(fixture("libsvm_small.svm"), second);
    QCOMPARE(pair.first.dim(), Index{5});
    QCOMPARE(pair.second.dim(), Index{5});
    QCOMPARE(pair.second.targets[0], 0.0f);
    QCOMPARE(pair.second.targets[1], 1.0f);
    const std::string unseen = write("unseen.svm", "3 1:1\n");
    const QString message =
        error_of<ParseError>([&] { load_libsvm_pair(fixture("libsvm_small.svm"), unseen); });
    QVERIFY2(message.contains("unseen.svm:1:"), qPrintable(message));
  }

  void errors_name_line_and_token() {
    QString message = error_of<ParseError>([&] { load_libsvm(fixture("libsvm_bad_order.svm")); });
    QVERIFY2(message.contains("libsvm_bad_order.svm:2:") && message.contains("'2:4'") &&
                 message.contains("previous index 3"),
             qPrintable(message));
    message = error_of<ParseError>([&] { load_libsvm(fixture("libsvm_bad_token.svm")); });
    QVERIFY2(message.contains("libsvm_bad_token.svm:1:") && message.contains("'foo'"),
             qPrintable(message));
    message = error_of<ParseError>([&] { load_libsvm(write("zero.svm", "1 1:1\n1 0:2\n")); });
    QVERIFY2(
        message.contains("zero.svm:2:") && message.contains("'0:2'") && message.contains("1-based"),
        qPrintable(message));
    message = error_of<ParseError>([&] { load_libsvm(write("label.svm", "# c\nyes 1:1\n")); });
    QVERIFY2(message.contains("label.svm:2:") && message.contains("'yes'"), qPrintable(message));
    message = error_of<ParseError>([&] { load_libsvm(write("value.svm", "1 1:abc\n")); });
    QVERIFY2(message.contains("value.svm:1:") && message.contains("'1:abc'"), qPrintable(message));
    message = error_of<ParseError>([&] { load_libsvm(write("empty.svm", "# nothing\n\n")); });
    QVERIFY2(message.contains("empty.svm") && message.contains("no data"), qPrintable(message));
  }

  // Through the catalog: detected by extension and by content, then min-max scaled.
  void catalog() {
    QCOMPARE(detect_format(fixture("libsvm_small.svm")), DataFormat::libsvm);
    QCOMPARE(detect_format(write("plain.txt", "# header comment\n1 2:0.5\n")), DataFormat::libsvm);
    QCOMPARE(detect_format(write("table.txt", "a,b\n1,2\n")), DataFormat::csv);
    DatasetSource source;
    source.path = fixture("libsvm_small.svm");
    const Dataset data = load_dataset(source);
    // Column 3 holds 2, 0, -1, 0 -> (x + 1) / 3.
    QCOMPARE(data.features(0, 2), 1.0f);
    QCOMPARE(data.features(2, 2), 0.0f);
    QCOMPARE(data.features(1, 2), 1.0f / 3.0f);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestLibsvmLoader)
#include "test_libsvm_loader.moc"
