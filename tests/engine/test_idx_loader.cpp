// IDX loader: exact values from small hand-made files (plain and gzip), every malformed-file
// error naming the file and byte offset, and the real Fashion-MNIST when its package is installed.
#include <sys/resource.h>
#include <zlib.h>
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "data/dataset_catalog.h"
#include "data/feature_rows.h"
#include "data/idx_loader.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::data;
using dplab::testing::error_of;
using dplab::testing::write_file;

namespace {

// Smallest / largest entry. (Not Eigen's minCoeff/maxCoeff: with -march=native GCC 12 reports a
// false -Wmaybe-uninitialized inside their AVX-512 reductions.)
float min_of(const dplab::MatrixView& m) {
  return *std::min_element(m.data(), m.data() + m.size());
}
float max_of(const dplab::MatrixView& m) {
  return *std::max_element(m.data(), m.data() + m.size());
}

using Bytes = std::vector<std::uint8_t>;

void put_u32(Bytes& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

Bytes idx_bytes(std::uint32_t magic, const std::vector<std::uint32_t>& dims, const Bytes& values) {
  Bytes out;
  put_u32(out, magic);
  for (auto d : dims) put_u32(out, d);
  out.insert(out.end(), values.begin(), values.end());
  return out;
}

void write_gzip(const std::string& path, const Bytes& bytes) {
  gzFile gz = gzopen(path.c_str(), "wb");
  QVERIFY(gz != nullptr);
  QCOMPARE(gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size())),
           static_cast<int>(bytes.size()));
  gzclose(gz);
}

Bytes read_plain(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

// Three 2x3 images and their labels 2, 0, 1.
const Bytes kPixels = {0, 255, 51, 1, 2, 3, 10, 20, 30, 40, 50, 60, 255, 254, 128, 127, 0, 7};
const Bytes kLabels = {2, 0, 1};

}  // namespace

class TestIdxLoader : public QObject {
  Q_OBJECT

 private:
  testing::TempFiles files_;
  std::string path(const char* name) const { return files_.path(name); }

  void check_small(const Dataset& data) {
    QCOMPARE(data.size(), Index{3});
    QCOMPARE(data.dim(), Index{6});
    QCOMPARE(data.num_classes, 3);
    for (Index i = 0; i < 3; ++i) {
      QCOMPARE(data.targets[i], static_cast<float>(kLabels[static_cast<std::size_t>(i)]));
      for (Index j = 0; j < 6; ++j) {
        // Kept as the native bytes; their features are byte / 255 (data/feature_rows.h).
        QCOMPARE(data.pixels(i, j), kPixels[static_cast<std::size_t>(i * 6 + j)]);
        QCOMPARE(pixel_feature(data.pixels(i, j)),
                 static_cast<float>(kPixels[static_cast<std::size_t>(i * 6 + j)]) / 255.0f);
      }
    }
    QVERIFY(data.stores_pixels());
    QCOMPARE(data.features.size(), Index{0});
    QCOMPARE(pixel_feature(data.pixels(0, 1)), 1.0f);  // 255 -> exactly 1
    QCOMPARE(pixel_feature(data.pixels(0, 0)), 0.0f);
    data.validate();
  }

 private slots:
  void initTestCase() { QVERIFY(files_.isValid()); }

  void plain_files() {
    write_file(path("a-images-idx3-ubyte"), idx_bytes(0x803, {3, 2, 3}, kPixels));
    write_file(path("a-labels-idx1-ubyte"), idx_bytes(0x801, {3}, kLabels));
    const Dataset data = load_idx_pair(path("a-images-idx3-ubyte"), path("a-labels-idx1-ubyte"));
    check_small(data);
    QCOMPARE(QString::fromStdString(data.name), QStringLiteral("a-images-idx3-ubyte"));
  }

  // gzip is detected by its magic bytes: a compressed file without ".gz" and a plain file with
  // ".gz" both load.
  void gzip_detected_by_content() {
    write_gzip(path("b-images.idx"), idx_bytes(0x803, {3, 2, 3}, kPixels));
    write_file(path("b-labels.gz"), idx_bytes(0x801, {3}, kLabels));
    QCOMPARE(read_plain(path("b-images.idx"))[0], std::uint8_t{0x1f});
    check_small(load_idx_pair(path("b-images.idx"), path("b-labels.gz")));
  }

  // Through the catalog: format sniffed from content, labels path guessed from the name.
  void catalog_user_file() {
    write_gzip(path("c-images-idx3-ubyte.gz"), idx_bytes(0x803, {3, 2, 3}, kPixels));
    write_gzip(path("c-labels-idx1-ubyte.gz"), idx_bytes(0x801, {3}, kLabels));
    QCOMPARE(detect_format(path("c-images-idx3-ubyte.gz")), DataFormat::idx);
    write_gzip(path("noname"), idx_bytes(0x803, {3, 2, 3}, kPixels));
    QCOMPARE(detect_format(path("noname")), DataFormat::idx);
    DatasetSource source;
    source.path = path("c-images-idx3-ubyte.gz");
    check_small(load_dataset(source));
  }

  void bad_magic() {
    write_file(path("bad-magic"), idx_bytes(0x00000903, {3, 2, 3}, kPixels));
    write_file(path("labels-ok"), idx_bytes(0x801, {3}, kLabels));
    const QString message =
        error_of<ParseError>([&] { load_idx_pair(path("bad-magic"), path("labels-ok")); });
    QVERIFY2(message.contains("bad-magic") && message.contains("byte offset 0") &&
                 message.contains("0x00000903") && message.contains("0x00000803"),
             qPrintable(message));
    // Images passed as labels: wrong dimension count is a bad magic for labels.
    const QString swapped =
        error_of<ParseError>([&] { load_idx_pair(path("labels-ok"), path("labels-ok")); });
    QVERIFY2(swapped.contains("labels-ok") && swapped.contains("0x00000801"), qPrintable(swapped));
  }

  void truncated_data() {
    Bytes bytes = idx_bytes(0x803, {3, 2, 3}, kPixels);
    bytes.resize(bytes.size() - 4);  // 16 + 18 - 4 = 30 bytes left
    write_file(path("short-images"), bytes);
    const QString message =
        error_of<ParseError>([&] { load_idx_pair(path("short-images"), path("labels-ok")); });
    QVERIFY2(message.contains("short-images") && message.contains("byte offset 30") &&
                 message.contains("truncated") && message.contains("after item 2"),
             qPrintable(message));
  }

  void truncated_header() {
    write_file(path("short-header"), Bytes{0, 0, 8, 3, 0, 0, 0, 3, 0, 0});
    const QString message = error_of<ParseError>([&] { read_idx_u8(path("short-header"), 3); });
    QVERIFY2(message.contains("short-header") && message.contains("byte offset 10"),
             qPrintable(message));
  }

  void trailing_bytes() {
    Bytes bytes = idx_bytes(0x801, {3}, kLabels);
    bytes.push_back(9);
    write_file(path("long-labels"), bytes);
    const QString message = error_of<ParseError>([&] { read_idx_u8(path("long-labels"), 1); });
    QVERIFY2(message.contains("long-labels") && message.contains("byte offset 11"),
             qPrintable(message));
  }

  // A gzip stream cut short: zlib reports it, the message names the file and offset.
  void truncated_gzip() {
    write_gzip(path("full.gz"), idx_bytes(0x803, {3, 2, 3}, kPixels));
    Bytes compressed = read_plain(path("full.gz"));
    compressed.resize(compressed.size() / 2);
    write_file(path("cut.gz"), compressed);
    const QString message = error_of<ParseError>([&] { read_idx_u8(path("cut.gz"), 3); });
    QVERIFY2(message.contains("cut.gz") && message.contains("byte offset"), qPrintable(message));
  }

  // Issue #11 item 9: an absurd header (4294965247 x 4290775039 pixels) overflowed the size
  // computation and loaded as 1 feature; it is now rejected, naming the shape.
  void absurd_header_dims() {
    write_file(path("huge-images"), idx_bytes(0x803, {3, 4294965247u, 4290775039u}, kPixels));
    const QString message = error_of<ParseError>([&] { read_idx_u8(path("huge-images"), 3); });
    QVERIFY2(message.contains("huge-images") && message.contains("3 x 4294965247 x 4290775039") &&
                 message.contains("more than dplab loads"),
             qPrintable(message));
  }

  // Item 9: one corrupt label byte (255) used to make 256 classes.
  void corrupt_label_byte() {
    write_file(path("imgs3"), idx_bytes(0x803, {3, 2, 3}, kPixels));
    write_file(path("bad-labels"), idx_bytes(0x801, {3}, {1, 0, 255}));
    const QString message =
        error_of<ParseError>([&] { load_idx_pair(path("imgs3"), path("bad-labels")); });
    QVERIFY2(message.contains("bad-labels: byte offset 10") && message.contains("label 255") &&
                 message.contains("no item has label 2"),
             qPrintable(message));
  }

  // Item 4: a gzip trailer claiming ~4 GB (ISIZE) must not size the buffer; the header's count
  // and the real input bound what is inflated. Peak memory may not grow by more than 64 MB.
  void lying_gzip_trailer() {
    write_gzip(path("liar.gz"), idx_bytes(0x801, {3}, kLabels));
    Bytes compressed = read_plain(path("liar.gz"));
    for (std::size_t k = compressed.size() - 4; k < compressed.size(); ++k) compressed[k] = 0xFF;
    write_file(path("liar.gz"), compressed);
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    const QString message = error_of<ParseError>([&] { read_idx_u8(path("liar.gz"), 1); });
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    QVERIFY2(message.contains("liar.gz"), qPrintable(message));  // zlib: length check fails
    QVERIFY2(after.ru_maxrss - before.ru_maxrss < 64 * 1024,
             qPrintable(QString("peak RSS grew by %1 KB").arg(after.ru_maxrss - before.ru_maxrss)));
  }

  void count_mismatch() {
    write_file(path("two-labels"), idx_bytes(0x801, {2}, {0, 1}));
    write_file(path("imgs"), idx_bytes(0x803, {3, 2, 3}, kPixels));
    const QString message =
        error_of<ParseError>([&] { load_idx_pair(path("imgs"), path("two-labels")); });
    QVERIFY2(message.contains("two-labels") && message.contains("byte offset 4") &&
                 message.contains("2 labels") && message.contains("3 images"),
             qPrintable(message));
  }

  void missing_file() {
    const QString message =
        error_of<IoError>([&] { load_idx_pair(path("nope"), path("labels-ok")); });
    QVERIFY2(message.contains("nope"), qPrintable(message));
  }

  // The real Fashion-MNIST (Debian package dataset-fashion-mnist): 60,000 x 784, 6,000 per class,
  // first label 9 (ankle boot), pixel sums checked against an independent reading of the files.
  void fashion_mnist() {
    std::string dir;
    try {
      dir = find_fashion_mnist();
    } catch (const IoError& e) {
      QVERIFY(QString(e.what()).contains("dataset-fashion-mnist"));
      QSKIP("Fashion-MNIST is not installed (package dataset-fashion-mnist)");
    }
    DatasetSource source;
    source.name = "fashion-mnist";
    const Dataset data = load_dataset(source);
    QCOMPARE(data.size(), Index{60000});
    QCOMPARE(data.dim(), Index{784});
    QCOMPARE(data.num_classes, 10);
    QCOMPARE(data.class_names.size(), std::size_t{10});
    QCOMPARE(QString::fromStdString(data.class_names[9]), QStringLiteral("Ankle boot"));
    QCOMPARE(data.targets[0], 9.0f);
    QCOMPARE(data.targets[3], 3.0f);
    const std::vector<Index> counts = class_counts(data);
    for (Index c : counts) QCOMPARE(c, Index{6000});
    // Stored as bytes: 47 MB instead of 188 MB of floats.
    QVERIFY(data.stores_pixels());
    QCOMPARE(data.feature_bytes(), std::size_t{60000} * 784);
    Matrix scratch;
    const MatrixView first = feature_rows(data, 0, 1000, scratch);
    QCOMPARE(min_of(first), 0.0f);
    QCOMPARE(max_of(first), 1.0f);
    // Sum of the first image's raw pixels is 76,247; of all pixels 3,431,114,169.
    const auto bytes = data.pixels.cast<double>();
    QCOMPARE(static_cast<long long>(bytes.row(0).sum()), 76247LL);
    QCOMPARE(static_cast<long long>(bytes.sum()), 3431114169LL);
  }

  void fashion_mnist_all() {
    try {
      find_fashion_mnist();
    } catch (const IoError&) {
      QSKIP("Fashion-MNIST is not installed (package dataset-fashion-mnist)");
    }
    DatasetSource source;
    source.name = "fashion-mnist-all";
    const Dataset data = load_dataset(source);
    QCOMPARE(data.size(), Index{70000});
    QCOMPARE(data.targets[60000], 9.0f);  // first test label
    QCOMPARE(data.targets[60001], 2.0f);
    for (Index c : class_counts(data)) QCOMPARE(c, Index{7000});
  }
};

DPLAB_TEST_APPLESS_MAIN(TestIdxLoader)
#include "test_idx_loader.moc"
