// dplab-cli tune with an objective-perturbation entry next to DP-SGD (experiment/objpert_entry.h),
// end to end through the real binary: the objpert candidates run after the DP-SGD jobs and are
// printed; summary.json holds them and an epsilon that covers both kinds of runs (above the
// DP-SGD-only cost of the same search); a bad entry exits 2 naming its key; private release
// modes refuse objpert entries instead of mis-charging them.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

// The DP-SGD search, with `more` appended to its optimizer list.
QString experiment(const QString& more) {
  return QString(R"({
    "name": "objpert-tune",
    "dataset": {"source": "synthetic-binary", "num_samples": 600, "dim": 5},
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1.0, "lot_size": 50, "steps": 30},
    "optimizers": [
      {"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5], "clip": 1}}%1
    ],
    "eval_every": 10,
    "seed": 3
  })")
      .arg(more);
}

const char* kEntry =
    R"(, {"name": "objpert", "privacy": {"noise_std": 4, "regularization": 5,
        "output_noise_std": 0.1}, "grid": {"learning_rate": [0.5, 1], "max_iterations": 3000}})";

QString write(const QTemporaryDir& dir, const QString& name, const QString& text) {
  const QString path = dir.filePath(name);
  QFile file(path);
  if (file.open(QIODevice::WriteOnly)) file.write(text.toUtf8());
  return path;
}

}  // namespace

class CliTuneObjpertTest : public QObject {
  Q_OBJECT

 private slots:
  void searchesAndChargesBoth() {
    QTemporaryDir dir;
    const QString with = write(dir, "with.json", experiment(kEntry));
    const CliRun run =
        run_cli({"tune", "--config", with, "--threads", "1", "--out", dir.path() + "/with"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("objpert lr=0.5 iters=3000"), qPrintable(run.out));
    QVERIFY2(run.out.contains("objpert    best"), qPrintable(run.out));
    QVERIFY2(run.out.contains("2 objective-perturbation runs"), qPrintable(run.out));
    const QJsonObject summary =
        QJsonDocument::fromJson(read_file(dir.path() + "/with/summary.json")).object();
    const QJsonObject objpert = summary["objective_perturbation"].toObject();
    QCOMPARE(objpert["candidates"].toArray().size(), 2);
    // Each run's record has no gradient norm: it depends on the private data (not covered).
    for (const auto& candidate : objpert["candidates"].toArray()) {
      for (const auto& run_record : candidate.toObject()["runs"].toArray()) {
        QVERIFY(run_record.toObject().contains("iterations"));
        QVERIFY(!run_record.toObject().contains("gradient_norm"));
      }
    }
    const double best = objpert["best"].toObject()["val_accuracy"].toDouble(-1);
    QVERIFY(best > 0.5 && best <= 1);
    const QJsonObject release = summary["release"].toObject();
    QVERIFY(release["recompute"].isNull());  // not one `account` command
    QCOMPARE(release["num_candidates"].toInt(), 2 + 2);

    // The same search without the entry costs less: the objpert runs are charged.
    const QString without = write(dir, "without.json", experiment(""));
    const CliRun plain =
        run_cli({"tune", "--config", without, "--threads", "1", "--out", dir.path() + "/without"});
    QVERIFY2(plain.exit_code == 0, qPrintable(plain.err));
    const QJsonObject plain_summary =
        QJsonDocument::fromJson(read_file(dir.path() + "/without/summary.json")).object();
    QVERIFY(!plain_summary.contains("objective_perturbation"));
    QVERIFY(release["epsilon"].toDouble() >
            plain_summary["release"].toObject()["epsilon"].toDouble());
  }

  void badEntryNamesItsKey() {
    QTemporaryDir dir;
    const QString path =
        write(dir, "bad.json",
              experiment(R"(, {"name": "objpert", "privacy": {"noise_std": 4, "regularization": 0.2,
                       "output_noise_std": 0.1}})"));
    const CliRun run = run_cli({"tune", "--config", path, "--out", dir.path() + "/out"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("optimizers[1].privacy.regularization"), qPrintable(run.err));
  }

  void privateReleaseRefusesObjpert() {
    QTemporaryDir dir;
    const QString path = write(dir, "private.json", experiment(kEntry));
    const CliRun run = run_cli({"tune", "--config", path, "--release", "private", "--strategy",
                                "ma", "--out", dir.path() + "/out"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("objpert entries are searched in explore mode only"),
             qPrintable(run.err));
  }
};

DPLAB_TEST_GUILESS_MAIN(CliTuneObjpertTest)
#include "test_cli_tune_objpert.moc"
