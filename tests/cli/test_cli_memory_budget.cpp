// Issue #24 items 2 and 3 through the real binary: --max-memory and --categorical on `train`
// (and --max-memory on `tune`), the identifier rule naming the column, the encoding line on stderr
// and in summary.json, and non-regular files (--config /dev/zero, a FIFO as --dataset) refused
// at once instead of read for ever.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

// 2,000 rows with an identifier column, a numeric feature and a binary label.
QString write_id_csv(const QTemporaryDir& dir) {
  QByteArray text = "id,x,y\n";
  for (int i = 0; i < 2000; ++i) {
    text += "row" + QByteArray::number(100000 + i) + "," + QByteArray::number(i % 7) + "," +
            QByteArray::number(i % 2) + "\n";
  }
  const QString path = dir.filePath("ids.csv");
  QFile file(path);
  if (file.open(QIODevice::WriteOnly)) file.write(text);
  return path;
}

QStringList train(const QString& dataset, const QString& out) {
  return {"train", "--dataset",    dataset, "--steps", "5", "--lot-size",
          "50",    "--eval-every", "5",     "--out",   out};
}

}  // namespace

class TestCliMemoryBudget : public QObject {
  Q_OBJECT
 private slots:
  void idLikeColumnNeedsCategorical() {
    QTemporaryDir dir;
    const QString csv = write_id_csv(dir);
    const CliRun refused = run_cli(train(csv, dir.filePath("a")));
    QCOMPARE(refused.exit_code, 2);
    QVERIFY2(refused.err.contains("column 'id' has 2000 distinct text values in 2000 rows") &&
                 refused.err.contains("--categorical 'id'"),
             qPrintable(refused.err));

    // Asked for, within a budget too small for 2000 x 2001 floats twice (32 MB): named.
    const CliRun small = run_cli(train(csv, dir.filePath("b")) +
                                 QStringList{"--categorical", "id", "--max-memory", "10M"});
    QCOMPARE(small.exit_code, 2);
    QVERIFY2(small.err.contains("the 2000 x 2001 feature matrix") &&
                 small.err.contains("column 'id' one-hot encoded into 2000 features") &&
                 small.err.contains("the memory budget is 10.0 MB (--max-memory)"),
             qPrintable(small.err));

    // Enough memory: trains, and says how each column was encoded (stderr and summary.json).
    const CliRun ok = run_cli(train(csv, dir.filePath("c")) +
                              QStringList{"--categorical", "id", "--max-memory", "1G"});
    QCOMPARE(ok.exit_code, 0);
    const QString encoding =
        "encoding of '" + csv +
        "': 'id' one-hot (2000 levels), 'x' numeric; label 'y' (2 classes); delimiter ','; "
        "missing values: drop";
    QVERIFY2(ok.err.contains("note: " + encoding), qPrintable(ok.err));
    const QJsonObject summary =
        QJsonDocument::fromJson(read_file(dir.filePath("c/summary.json"))).object();
    QCOMPARE(summary["data"].toObject()["encoding"].toString(), encoding);
    QCOMPARE(summary["config"].toObject()["categorical"].toString(), QString("id"));

    // tune reads the same rule from the experiment file's dataset.categorical.
    const auto experiment = [&](const QString& name, const QString& categorical) {
      const QString path = dir.filePath(name);
      QFile file(path);
      if (!file.open(QIODevice::WriteOnly)) return QString();
      file.write(QStringLiteral(R"({"name": "id", "seed": 1, "dataset": {"source": "%1"%2},
        "model": {"kind": "logistic"},
        "privacy": {"noise_multiplier": 1.0, "lot_size": 100, "steps": 5},
        "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": 0.1, "clip": 1.0}}]})")
                     .arg(csv, categorical)
                     .toUtf8());
      return path;
    };
    const CliRun tune_refused =
        run_cli({"tune", "--config", experiment("plain.json", ""), "--threads", "1"});
    QCOMPARE(tune_refused.exit_code, 2);
    QVERIFY2(tune_refused.err.contains("\"categorical\": [\"id\"] in \"dataset\""),
             qPrintable(tune_refused.err));
    const CliRun tune_ok =
        run_cli({"tune", "--config", experiment("asked.json", R"(, "categorical": ["id"])"),
                 "--threads", "1", "--max-memory", "1G"});
    QVERIFY2(tune_ok.exit_code == 0, qPrintable(tune_ok.err));
    const CliRun tune_bad = run_cli(
        {"tune", "--config", experiment("bad.json", R"(, "categorical": "id")"), "--threads", "1"});
    QCOMPARE(tune_bad.exit_code, 2);
    QVERIFY2(tune_bad.err.contains("dataset.categorical") &&
                 tune_bad.err.contains("expected an array of column names"),
             qPrintable(tune_bad.err));
  }

  void badMaxMemoryIsAUsageError() {
    QTemporaryDir dir;
    const CliRun run =
        run_cli(train("synthetic-binary", dir.filePath("o")) + QStringList{"--max-memory", "lots"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("--max-memory = lots must be a size such as 4G"),
             qPrintable(run.err));
    const CliRun tune = run_cli({"tune", "--config", "x.json", "--max-memory", "0"});
    QCOMPARE(tune.exit_code, 2);
    QVERIFY2(tune.err.contains("--max-memory = 0 must be a size"), qPrintable(tune.err));
  }

  // The budget reaches the synthetic generators too (one rule for every loader).
  void maxMemoryAppliesToBuiltInData() {
    QTemporaryDir dir;
    const CliRun run =
        run_cli(train("synthetic-binary", dir.filePath("o")) + QStringList{"--max-memory", "100K"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("the synthetic feature matrix") &&
                 run.err.contains("the memory budget is 100.0 KB (--max-memory)"),
             qPrintable(run.err));
  }

  void nonRegularFilesAreRefused() {
    QTemporaryDir dir;
    const CliRun zero = run_cli({"train", "--config", "/dev/zero", "--out", dir.filePath("o")});
    QCOMPARE(zero.exit_code, 2);
    QVERIFY2(zero.err.contains("--config: cannot read '/dev/zero': it is a character device"),
             qPrintable(zero.err));
    const QString fifo = dir.filePath("data.csv");
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    const CliRun pipe = run_cli(train(fifo, dir.filePath("p")));
    QVERIFY(pipe.exit_code == 1 || pipe.exit_code == 2);
    QVERIFY2(pipe.err.contains("it is a FIFO (named pipe), not a regular file"),
             qPrintable(pipe.err));
    // oso-protocol's preset is read by the same rule (it used to block on the FIFO for ever).
    const CliRun preset = run_cli({"oso-protocol", "--preset", fifo});
    QCOMPARE(preset.exit_code, 2);
    QVERIFY2(preset.err.contains("--preset: ") &&
                 preset.err.contains("it is a FIFO (named pipe), not a regular file"),
             qPrintable(preset.err));
    const CliRun folder = run_cli({"oso-protocol", "--preset", dir.path()});
    QCOMPARE(folder.exit_code, 2);
    QVERIFY2(folder.err.contains("is a directory"), qPrintable(folder.err));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestCliMemoryBudget)
#include "test_cli_memory_budget.moc"
