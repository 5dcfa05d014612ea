// Text from the user that is not UTF-8 (issue #45 item 5): a Latin-1 byte in a CSV's file name
// and header ended `train` in "internal error: json type_error.316" after its training, with
// summary.json lost, and exit 0. Now a CSV that is not UTF-8 is read as Latin-1 (its column
// "b\xE9" is "bé" in every output, a note says so, and `predict` on the same file matches the
// model's columns), and every JSON dplab writes goes through core/json_text.h: a file name's
// bytes that are not UTF-8 are shown as U+FFFD. The run ends with exit 0, every file is written
// and parses as JSON (Debian's python3 reads it).
#include <QFile>
#include <QProcess>
#include <QTest>
#include <fstream>
#include <random>

#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_registry.h"

namespace {

// dplab-cli through /bin/sh, so that the file name's bytes reach it as they are (a QString would
// turn 0xE9 into U+FFFD): `script` (after "dplab-cli") names the data file through the shell's
// glob "$1"/caf?.csv and the output folder as "$2". Waits as run_cli does.
dplab::testing::CliRun run_cli_in_shell(const QString& script, const QString& dir,
                                        const QString& out) {
  QProcess sh;
  sh.start("/bin/sh", {"-c", "exec \"$0\" " + script, dplab::testing::cli_program(), dir, out});
  if (!sh.waitForFinished(dplab::testing::cli_time_limit_ms())) {
    sh.kill();
    sh.waitForFinished();
    return {-1, {}, QStringLiteral("dplab-cli did not finish")};
  }
  return {sh.exitStatus() == QProcess::NormalExit ? sh.exitCode() : -1,
          QString::fromUtf8(sh.readAllStandardOutput()),
          QString::fromUtf8(sh.readAllStandardError())};
}

}  // namespace

class TestCliLatin1 : public QObject {
  Q_OBJECT
  dplab::testing::TempFiles temp_;

 private slots:
  void latin1NameAndHeaderStillWriteEveryFile() {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(0, 1);
    std::string rows = "a,b\xe9,label\n";
    for (int i = 0; i < 300; ++i) {
      const double a = u(rng), b = u(rng);
      rows += std::to_string(a) + "," + std::to_string(b) + "," + (a + b > 1 ? "1" : "0") + "\n";
    }
    // The file name's bytes as they are (a QString would turn 0xE9 into U+FFFD): written with
    // std::ofstream, handed to dplab-cli through the shell's glob.
    const std::string dir = temp_.path("");
    std::ofstream(dir + "/caf\xe9.csv", std::ios::binary) << rows;
    const QString out = QString::fromStdString(temp_.path("run"));
    const QString folder = QString::fromStdString(dir);
    const auto train = run_cli_in_shell(
        "train --dataset \"$1\"/caf?.csv --steps 20 --lot-size 50 --out \"$2\"", folder, out);
    QVERIFY2(train.exit_code == 0, qPrintable(train.err));
    QVERIFY2(!train.err.contains("internal error"), qPrintable(train.err));
    for (const char* file : {"summary.json", "release.json", "model/model.json"}) {
      const QString path = out + "/" + file;
      QVERIFY2(QFile::exists(path), file);
      QProcess python;
      python.start("/usr/bin/python3",
                   {"-c", "import json,sys; json.load(open(sys.argv[1], encoding='utf-8'))", path});
      QVERIFY(python.waitForFinished(30000));
      QVERIFY2(python.exitCode() == 0,
               qPrintable(QString::fromUtf8(python.readAllStandardError())));
    }
    QFile summary(out + "/summary.json");
    QVERIFY(summary.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(summary.readAll());
    QVERIFY(text.contains(QChar(0xFFFD)));  // the file name's byte
    QVERIFY2(text.contains(QString::fromUtf8("'b\xc3\xa9' numeric")), qPrintable(text));
    QVERIFY2(text.contains("read as Latin-1"), qPrintable(text));

    // predict reads the same file the same way: its column is the model's "bé".
    const auto predict = run_cli_in_shell(
        "predict --model \"$2\" --dataset \"$1\"/caf?.csv --out \"$2\"/preds.csv", folder, out);
    QVERIFY2(predict.exit_code == 0, qPrintable(predict.err));
    QVERIFY(QFile::exists(out + "/preds.csv"));
  }
};

DPLAB_TEST_MAIN(TestCliLatin1)
#include "test_cli_latin1.moc"
