// `dplab-cli leaderboard --scale tiny` (issue #47): runs in CI, and its CSV has every cell —
// each task x total epsilon {1, 3, 8} x method x optimizer family, five seeds each — with every
// procedure's epsilon at most its target and close to it (the calibration is tight), exactly one
// best cell per (task, epsilon) and the figures written.
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <map>

#include "core/csv_table.h"
#include "reproduction/leaderboard.h"
#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

class TestCliLeaderboard : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private slots:
  void tiny_scale_has_every_cell() {
    const QString out = dir_.path() + "/board";
    const CliRun r = run_cli({"leaderboard", "--scale", "tiny", "--threads", "2", "--out", out});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("rule for best (stated before the run)"), qPrintable(r.out));
    const auto spec = dplab::reproduction::leaderboard_spec("tiny");
    const QStringList lines =
        QString::fromUtf8(read_file(out + "/leaderboard.csv")).trimmed().split(QLatin1Char('\n'));
    const QStringList header = lines[0].split(',');
    auto column = [&](const char* name) {
      const int i = static_cast<int>(header.indexOf(QString::fromLatin1(name)));
      if (i < 0) qFatal("leaderboard.csv has no column %s", name);
      return i;
    };
    const std::size_t expected_cells =
        spec.tasks.size() * spec.total_epsilons.size() * spec.methods.size() * spec.families.size();
    QCOMPARE(static_cast<std::size_t>(lines.size() - 1), expected_cells);
    QSet<QString> cells;
    std::map<QString, int> best;
    for (int i = 1; i < lines.size(); ++i) {
      const QStringList f = lines[i].split(',');
      QCOMPARE(f.size(), header.size());
      cells.insert(f[column("task")] + "|" + f[column("target_epsilon")] + "|" +
                   f[column("method")] + "|" + f[column("family")]);
      QCOMPARE(f[column("seeds_run")].toInt(), 5);
      const double target = f[column("target_epsilon")].toDouble();
      const double epsilon = f[column("epsilon")].toDouble();
      QVERIFY2(epsilon <= target + 1e-4 && epsilon >= 0.95 * target,
               qPrintable(lines[i]));  // met from the safe side, and not far below
      if (f[column("seeds_released")].toInt() > 0) {
        const double accuracy = f[column("mean_test_accuracy")].toDouble();
        QVERIFY2(accuracy > 0.0 && accuracy <= 1.0, qPrintable(lines[i]));
      }
      if (f[column("best")] == "1") ++best[f[column("task")] + "|" + f[column("target_epsilon")]];
    }
    QCOMPARE(static_cast<std::size_t>(cells.size()), expected_cells);  // no cell twice
    QCOMPARE(best.size(), spec.tasks.size() * spec.total_epsilons.size());
    for (const auto& [key, count] : best) QVERIFY2(count == 1, qPrintable(key));
    for (const auto& task : spec.tasks) {
      const QString png = out + "/leaderboard-" + QString::fromStdString(task.label) + ".png";
      QVERIFY2(QFile(png).size() > 1000, qPrintable(png));
      QVERIFY(r.out.contains("best: " + QString::fromStdString(task.label) + " at total eps 8"));
    }
  }

  void small_cnn_is_small_with_the_cnn() {
    // The CNN row's stated scale: small's Fashion-MNIST subsample, L, T and grids, the CNN.
    const auto small = dplab::reproduction::leaderboard_spec("small");
    const auto cnn = dplab::reproduction::leaderboard_spec("small-cnn");
    QCOMPARE(cnn.tasks.size(), std::size_t{1});
    const auto& task = cnn.tasks[0];
    const auto& fashion = small.tasks.at(1);
    QCOMPARE(task.label, std::string("fashion-mnist-cnn"));
    QCOMPARE(task.base.model.kind, dplab::models::ModelKind::kCnn);
    QCOMPARE(task.max_rows, fashion.max_rows);
    QCOMPARE(task.base.privacy.lot_size, fashion.base.privacy.lot_size);
    QCOMPARE(task.base.privacy.steps, fashion.base.privacy.steps);
    QCOMPARE(cnn.seeds, small.seeds);
    QCOMPARE(cnn.families.size(), small.families.size());
  }

  void a_wrong_scale_is_a_usage_error() {
    const CliRun r = run_cli({"leaderboard", "--scale", "huge", "--out", dir_.path() + "/x"});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("--scale") && r.err.contains("huge"), qPrintable(r.err));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestCliLeaderboard)
#include "test_cli_leaderboard.moc"
