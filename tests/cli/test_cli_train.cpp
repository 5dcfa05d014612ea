// dplab-cli train, end to end through the real binary: output files, determinism, the
// JSON config path, and exit status 2 with the flag named for bad input.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include <cmath>

#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

QStringList quick_binary_run(const QString& out) {
  return {"train",   "--dataset",  "synthetic-binary",
          "--model", "logistic",   "--optimizer",
          "dpadam",  "--lr",       "0.01",
          "--clip",  "1",          "--noise-multiplier",
          "1",       "--lot-size", "100",
          "--steps", "200",        "--eval-every",
          "50",      "--seed",     "5",
          "--out",   out};
}

}  // namespace

class CliTrainTest : public QObject {
  Q_OBJECT

 private slots:
  void writesCurveAndSummary() {
    QTemporaryDir dir;
    const CliRun run = run_cli(quick_binary_run(dir.path() + "/a"));
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    const QList<QByteArray> lines = read_file(dir.path() + "/a/curve.csv").trimmed().split('\n');
    // Line 1 is the header (pandas.read_csv reads it); the label is the last column (see below).
    QCOMPARE(lines.front(), QByteArray("iteration,train_loss,val_loss,val_accuracy,"
                                       "epsilon_per_run,step_size,clip,val_mse,epsilon_label"));
    QVERIFY(lines[1].contains(",\"eps <= "));
    QCOMPARE(lines.size(), 1 + 4);  // points at 50, 100, 150, 200
    QVERIFY(lines.back().startsWith("200,"));
    const QJsonObject summary =
        QJsonDocument::fromJson(read_file(dir.path() + "/a/summary.json")).object();
    const double accuracy = summary["final"].toObject()["validation_accuracy"].toDouble(-1);
    QVERIFY2(accuracy > 0.6 && accuracy <= 1.0, qPrintable(QString::number(accuracy)));
    const QJsonObject privacy = summary["privacy"].toObject();
    QCOMPARE(privacy["noise_gradient_queries"].toInt(), 200);
    QVERIFY(privacy["epsilon"].toDouble() > 0);
    QCOMPARE(summary["config"].toObject()["optimizer"].toString(), QString("dpadam"));
    QVERIFY(summary["wall_seconds"].toDouble() > 0);
    QVERIFY2(!run.err.contains("warning"), qPrintable(run.err));  // a sound run: no guard fires
  }

  // A run whose parameters never move (training/training_guards.h) says so on stderr.
  void frozenRunWarns() {
    QTemporaryDir dir;
    QStringList args = quick_binary_run(dir.path() + "/a");
    args[args.indexOf("--lr") + 1] = "1e-25";
    const CliRun run = run_cli(args);
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    QVERIFY2(run.err.contains("dplab-cli train: warning: no parameter moved"), qPrintable(run.err));
  }

  void sameSeedGivesIdenticalCurves() {
    QTemporaryDir dir;
    QCOMPARE(run_cli(quick_binary_run(dir.path() + "/a")).exit_code, 0);
    QCOMPARE(run_cli(quick_binary_run(dir.path() + "/b")).exit_code, 0);
    const QByteArray a = read_file(dir.path() + "/a/curve.csv");
    QVERIFY(!a.isEmpty());
    QCOMPARE(a, read_file(dir.path() + "/b/curve.csv"));
    QStringList other_seed = quick_binary_run(dir.path() + "/c");
    other_seed[other_seed.indexOf("--seed") + 1] = "6";
    QCOMPARE(run_cli(other_seed).exit_code, 0);
    QVERIFY(a != read_file(dir.path() + "/c/curve.csv"));
  }

  // Issue #49: --threads 1 and --threads 2 write the same model, bit for bit (the lot's fixed
  // chunks, models/batch_parallel_model.h; lots of ~250 rows are 2 chunks), and the same curve.
  void threadsGiveTheSameModel() {
    QTemporaryDir dir;
    for (const QString threads : {"1", "2"}) {
      QStringList args = quick_binary_run(dir.path() + "/t" + threads);
      args[args.indexOf("--lot-size") + 1] = "250";
      args << "--threads" << threads;
      const CliRun run = run_cli(args);
      QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    }
    const QByteArray model = read_file(dir.path() + "/t1/model/model.npz");
    QVERIFY(!model.isEmpty());
    QVERIFY(model == read_file(dir.path() + "/t2/model/model.npz"));
    QCOMPARE(read_file(dir.path() + "/t1/curve.csv"), read_file(dir.path() + "/t2/curve.csv"));
  }

  void configFileEqualsFlags() {
    QTemporaryDir dir;
    QFile config(dir.path() + "/run.json");
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(R"({"dataset": "synthetic-binary", "model": "logistic", "optimizer": "dpadam",
                     "lr": 0.01, "clip": 1, "noise_multiplier": 1, "lot_size": 100,
                     "steps": 200, "eval_every": 50, "seed": 5})");
    config.close();
    QCOMPARE(
        run_cli({"train", "--config", config.fileName(), "--out", dir.path() + "/json"}).exit_code,
        0);
    QCOMPARE(run_cli(quick_binary_run(dir.path() + "/flags")).exit_code, 0);
    QCOMPARE(read_file(dir.path() + "/json/curve.csv"), read_file(dir.path() + "/flags/curve.csv"));
  }

  // Issue #15: the autoencoder has no accuracy; train prints and stores its validation MSE
  // (never "val acc nan"), in the progress lines, summary.json and curve.csv.
  void autoencoderReportsValidationMse() {
    QTemporaryDir dir;
    QFile csv(dir.path() + "/images.csv");
    QVERIFY(csv.open(QIODevice::WriteOnly));
    QByteArray text;
    for (int j = 0; j < 784; ++j) text += "p" + QByteArray::number(j) + ",";
    text += "label\n";
    for (int i = 0; i < 40; ++i) {  // 40 28x28 "images" of smooth stripes, 2 classes
      for (int j = 0; j < 784; ++j)
        text += QByteArray::number(0.5 + 0.4 * std::sin(0.1 * (j % 28) + 0.3 * i), 'g', 4) + ",";
      text += QByteArray::number(i % 2) + "\n";
    }
    csv.write(text);
    csv.close();
    const CliRun run = run_cli({"train",
                                "--dataset",
                                csv.fileName(),
                                "--model",
                                "conv-autoencoder",
                                "--optimizer",
                                "dpsgd",
                                "--lr",
                                "0.5",
                                "--clip",
                                "1",
                                "--noise-multiplier",
                                "1",
                                "--lot-size",
                                "8",
                                "--steps",
                                "4",
                                "--eval-every",
                                "2",
                                "--seed",
                                "1",
                                "--out",
                                dir.path() + "/ae"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    QVERIFY2(run.err.contains("val mse "), qPrintable(run.err));
    QVERIFY2(!run.err.contains("val acc") && !run.err.contains("nan"), qPrintable(run.err));
    const QJsonObject final_metrics =
        QJsonDocument::fromJson(read_file(dir.path() + "/ae/summary.json"))
            .object()["final"]
            .toObject();
    QVERIFY(!final_metrics.contains("validation_accuracy"));
    const double mse = final_metrics["validation_mse"].toDouble(-1);
    QVERIFY2(mse > 0 && mse < 1, qPrintable(QString::number(mse)));  // pixels in [0.1, 0.9]
    const QList<QByteArray> lines = read_file(dir.path() + "/ae/curve.csv").trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 2);  // header, 2 points
    const QList<QByteArray> last = lines.back().split(',');
    QVERIFY(last.size() > 8);                          // then the quoted label, which holds commas
    QVERIFY(last[3].isEmpty());                        // val_accuracy: none
    QVERIFY(last[7].toDouble() > 0);                   // val_mse
    QCOMPARE(last[7].toDouble(), last[2].toDouble());  // = the reconstruction loss (per-pixel MSE)
  }

  void badInputExitsTwoNamingTheFlag_data() {
    QTest::addColumn<QStringList>("change");
    QTest::addColumn<QString>("named");
    QTest::newRow("negative sigma")
        << QStringList{"--noise-multiplier", "-1"} << "--noise-multiplier";
    QTest::newRow("lot larger than n") << QStringList{"--lot-size", "1000000"} << "--lot-size";
    QTest::newRow("unknown optimizer") << QStringList{"--optimizer", "rmsprop"} << "--optimizer";
    QTest::newRow("unreadable file")
        << QStringList{"--dataset", "/nonexistent/data.csv"} << "--dataset";
    QTest::newRow("not a number") << QStringList{"--lr", "fast"} << "--lr";
    QTest::newRow("unknown flag") << QStringList{"--learning-rate", "0.1"} << "--learning-rate";
    QTest::newRow("zero steps") << QStringList{"--steps", "0"} << "--steps";
    QTest::newRow("custom network needs an experiment")
        << QStringList{"--model", "custom"} << "--model";
    QTest::newRow("feature range reversed")
        << QStringList{"--feature-range", "5:1"} << "--feature-range";
    QTest::newRow("feature range not LO:HI")
        << QStringList{"--feature-range", "0-255"} << "--feature-range";
    QTest::newRow("feature bounds file missing")
        << QStringList{"--feature-bounds", "/nonexistent/bounds.json"} << "--feature-bounds";
    QTest::newRow("threads 0") << QStringList{"--threads", "0"} << "--threads";
    QTest::newRow("threads 9") << QStringList{"--threads", "9"} << "--threads";
  }

  // Issue #23 items 3 and 4: the training losses (un-noised, on the private training set) and a
  // feature scaling fitted on the data are outside eps: curve.csv's first line and summary.json
  // say so, naming the fields; public bounds (--feature-range) remove the preprocessing entry.
  void labelsWhatEpsilonDoesNotCover() {
    QTemporaryDir dir;
    QFile csv(dir.path() + "/people.csv");
    QVERIFY(csv.open(QIODevice::WriteOnly));
    QByteArray text = "height,weight,label\n";
    for (int i = 0; i < 60; ++i) {
      text += QByteArray::number(150 + i) + "," + QByteArray::number(50 + (i * 7) % 40) + "," +
              QByteArray::number(i % 2) + "\n";
    }
    csv.write(text);
    csv.close();
    auto run_on = [&](const QString& out, const QStringList& extra) {
      QStringList arguments = {
          "train",        "--dataset", csv.fileName(), "--lot-size",          "10", "--steps", "20",
          "--eval-every", "10",        "--out",        dir.path() + "/" + out};
      return run_cli(arguments + extra);
    };
    const CliRun fitted = run_on("fitted", {});
    QVERIFY2(fitted.exit_code == 0, qPrintable(fitted.err));
    QVERIFY2(fitted.err.contains("preprocessing: min-max ranges fitted"), qPrintable(fitted.err));
    // The label: curve.csv's epsilon_label column (the same text on every row).
    const QByteArray row = read_file(dir.path() + "/fitted/curve.csv").split('\n').at(1);
    const QByteArray comment = row.mid(row.indexOf(",\"eps <= ") + 2).chopped(1);
    QVERIFY2(comment.startsWith("eps <= "), row.constData());
    QVERIFY2(comment.contains("train_loss, final_train_loss: un-noised losses on the private "
                              "training set, not covered by eps"),
             comment.constData());
    QVERIFY2(comment.contains("preprocessing fitted on private data: not covered"),
             comment.constData());
    const QJsonObject summary =
        QJsonDocument::fromJson(read_file(dir.path() + "/fitted/summary.json")).object();
    const QJsonObject privacy = summary["privacy"].toObject();
    const QVariantList not_covered = privacy["not_covered"].toArray().toVariantList();
    QVERIFY(not_covered.contains("curve.csv:train_loss"));
    QVERIFY(not_covered.contains("final.train_loss"));
    QVERIFY(not_covered.contains("data.preprocessing"));
    QCOMPARE(privacy["epsilon_label"].toString().toUtf8(), comment);
    QVERIFY(summary["data"].toObject()["preprocessing"].toObject()["fitted_on_private_data"].toBool(
        false));

    const CliRun bounded = run_on("bounded", {"--feature-range", "0:300"});
    QVERIFY2(bounded.exit_code == 0, qPrintable(bounded.err));
    QVERIFY2(bounded.err.contains("public feature bounds"), qPrintable(bounded.err));
    const QJsonObject bounded_summary =
        QJsonDocument::fromJson(read_file(dir.path() + "/bounded/summary.json")).object();
    const QVariantList bounded_list =
        bounded_summary["privacy"].toObject()["not_covered"].toArray().toVariantList();
    QVERIFY(bounded_list.contains("final.train_loss"));
    QVERIFY(!bounded_list.contains("data.preprocessing"));
    QVERIFY(!bounded_summary["privacy"].toObject()["epsilon_label"].toString().contains(
        "preprocessing"));
    QVERIFY(!bounded_summary["data"]
                 .toObject()["preprocessing"]
                 .toObject()["fitted_on_private_data"]
                 .toBool(true));
    QCOMPARE(bounded_summary["config"].toObject()["feature_range"].toString(), QString("0:300"));
  }
  void badInputExitsTwoNamingTheFlag() {
    QFETCH(QStringList, change);
    QFETCH(QString, named);
    QTemporaryDir dir;
    QStringList arguments = quick_binary_run(dir.path() + "/x");
    const int at = arguments.indexOf(change[0]);
    if (at >= 0) {
      arguments[at + 1] = change[1];
    } else {
      arguments << change;
    }
    const CliRun run = run_cli(arguments);
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains(named), qPrintable(run.err));
    QVERIFY(!QFile::exists(dir.path() + "/x/summary.json"));
  }
};

DPLAB_TEST_GUILESS_MAIN(CliTrainTest)
#include "test_cli_train.moc"
