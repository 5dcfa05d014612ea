// The shipped data files: SHA-256 against the FIPS 180-2 / NIST example vectors (one block, two
// blocks, a million bytes, and the padding edge lengths 55/56/64 against a file hash), the
// lookup of the data folder, and the loader refusing a changed file with both checksums named.
#include <QTest>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/error.h"
#include "core/sha256.h"
#include "data/shipped_datasets.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_registry.h"

using namespace dplab;
using dplab::testing::error_of;
using dplab::testing::TempFiles;
using dplab::testing::write_file;

class TestShippedDatasets : public QObject {
  Q_OBJECT

 private slots:
  void sha256_nist_vectors() {
    QCOMPARE(QString::fromStdString(sha256_hex("")),
             QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    QCOMPARE(QString::fromStdString(sha256_hex("abc")),
             QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QCOMPARE(QString::fromStdString(
                 sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
             QStringLiteral("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    QCOMPARE(QString::fromStdString(sha256_hex(std::string(1'000'000, 'a'))),
             QStringLiteral("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
  }

  // A file streams in 64 KiB reads; its hash equals the in-memory hash at every padding edge.
  void file_hash_equals_string_hash() {
    TempFiles dir;
    for (std::size_t size : {55u, 56u, 63u, 64u, 65u, 65536u, 65537u}) {
      std::string bytes(size, '\0');
      for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 31 + 7);
      write_file(dir.path("f"), bytes);
      QCOMPARE(sha256_file_hex(dir.path("f")), sha256_hex(bytes));
    }
    const QString message = error_of<IoError>([&] { sha256_file_hex(dir.path("missing")); });
    QVERIFY2(message.contains("missing"), qPrintable(message));
  }

  void shipped_adult_files_verify() {
    const std::string root = data::find_shipped_datasets_dir();
    QVERIFY(std::filesystem::exists(root + "/SHA256SUMS"));
    QCOMPARE(data::verified_shipped_file(root, "adult/adult.data.csv"),
             root + "/adult/adult.data.csv");
    QCOMPARE(data::verified_shipped_file(root, "adult/adult.test.csv"),
             root + "/adult/adult.test.csv");
  }

  // $DPLAB_DATA_DIR wins; a changed byte, a missing entry and a malformed line are refused.
  void changed_file_is_refused() {
    TempFiles dir;
    std::filesystem::create_directory(dir.path("sub"));
    write_file(dir.path("sub/a.csv"), "x,y\n1,2\n");
    write_file(dir.path("SHA256SUMS"), sha256_hex("x,y\n1,2\n") + "  sub/a.csv\n");
    const std::string root = dir.path("");
    qputenv("DPLAB_DATA_DIR", QByteArray::fromStdString(root));
    const std::string found = data::find_shipped_datasets_dir();
    qunsetenv("DPLAB_DATA_DIR");
    QCOMPARE(std::filesystem::path(found), std::filesystem::path(root));

    write_file(dir.path("sub/b.csv"), "x,y\n1,3\n");
    write_file(dir.path("SHA256SUMS"), sha256_hex("x,y\n1,2\n") + "  sub/a.csv\n" +
                                           sha256_hex("x,y\n1,2\n") + "  sub/b.csv\n");
    QCOMPARE(data::verified_shipped_file(root, "sub/a.csv"), dir.path("sub/a.csv"));
    const QString changed =
        error_of<ParseError>([&] { data::verified_shipped_file(root, "sub/b.csv"); });
    QVERIFY2(changed.contains("sub/b.csv") &&
                 changed.contains(QString::fromStdString(sha256_hex("x,y\n1,3\n"))) &&
                 changed.contains(QString::fromStdString(sha256_hex("x,y\n1,2\n"))),
             qPrintable(changed));
    const QString unlisted =
        error_of<ParseError>([&] { data::verified_shipped_file(root, "sub/c.csv"); });
    QVERIFY2(unlisted.contains("no checksum for 'sub/c.csv'"), qPrintable(unlisted));
    write_file(dir.path("SHA256SUMS"), "abc sub/a.csv\n");
    const QString malformed =
        error_of<ParseError>([&] { data::verified_shipped_file(root, "sub/b.csv"); });
    QVERIFY2(malformed.contains("SHA256SUMS:1"), qPrintable(malformed));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestShippedDatasets)
#include "test_shipped_datasets.moc"
