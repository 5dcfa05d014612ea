// dplab-cli bench --json, end to end through the real binary (a very short run): the lot gather
// is reported on its own with lots of the expected size, and each model's ceiling is the gather
// plus its GEMMs (both timed in the step's rounds), with the DP step reported as a share of it.
// Image data are stored as bytes (a quarter of the float bytes), and then the same gather and DP
// step on a float copy are reported as ratios. The sparse vector technique's fast scan is reported
// against its full scan. The secure-noise DP step is reported as a multiple of the DP step.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "support/cli_runner.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::run_cli;

class CliBenchTest : public QObject {
  Q_OBJECT

 private slots:
  void reportsGatherAndCeiling() {
    const CliRun run =
        run_cli({"bench", "--json", "--seconds", "0.03", "--skip-accounting", "--threads", "2"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    const QJsonObject report = QJsonDocument::fromJson(run.out.toUtf8()).object();
    const QJsonObject gather = report["lot_gather"].toObject();
    const double gather_seconds = gather["seconds_per_lot"].toDouble(-1);
    QVERIFY2(gather_seconds > 0, qPrintable(run.out));
    QVERIFY(qAbs(gather["lots_per_second"].toDouble() * gather_seconds - 1) < 1e-9);
    // 512 Poisson lots with q = 250 / n: the mean size is 250 with std < 1.
    const double mean_rows = gather["mean_rows"].toDouble();
    QVERIFY2(mean_rows > 244 && mean_rows < 256, qPrintable(QString::number(mean_rows)));
    QVERIFY(gather["gigabytes_per_second"].toDouble() > 0);
    QVERIFY(gather["poisson_sampling_seconds_per_lot"].toDouble() > 0);

    const QJsonObject storage = report["data_storage"].toObject();
    const bool bytes = storage["kind"].toString() == "uint8 pixels";
    QVERIFY2(bytes || storage["kind"].toString() == "float", qPrintable(run.out));
    const double feature_bytes = storage["feature_bytes"].toDouble();
    QCOMPARE(storage["float_feature_bytes"].toDouble(), (bytes ? 4 : 1) * feature_bytes);
    // Bytes per gathered lot: mean_rows rows of 784 features, 1 or 4 bytes each.
    QVERIFY(qAbs(gather["gigabytes_per_second"].toDouble() * gather_seconds * 1e9 -
                 mean_rows * 784 * (bytes ? 1 : 4)) < 1e-3 * mean_rows * 784);
    if (bytes) {
      const double float_gather = gather["float_storage_seconds_per_lot"].toDouble(-1);
      QVERIFY(float_gather > 0);
      QVERIFY(qAbs(gather["speedup_vs_float_storage"].toDouble() * gather_seconds - float_gather) <
              1e-9 * float_gather);
    } else {
      QVERIFY(!gather.contains("float_storage_seconds_per_lot"));
    }

    const QJsonArray models = report["models"].toArray();
    QCOMPARE(models.size(), 2);
    for (const auto& value : models) {
      const QJsonObject model = value.toObject();
      const double gemm = 1 / model["gemm_only_steps_per_second"].toDouble();
      const double dp = 1 / model["dp_steps_per_second"].toDouble();
      const double nonprivate = 1 / model["nonprivate_steps_per_second"].toDouble();
      // The secure DP step (exact discrete Gaussian on the grid), as a multiple of the DP step.
      const double secure = 1 / model["secure_dp_steps_per_second"].toDouble(-1);
      QVERIFY2(secure > 0, qPrintable(run.out));
      QVERIFY(qAbs(model["secure_cost_vs_seeded"].toDouble() * dp - secure) < 1e-9 * secure);
      // The ceiling's gather is timed in the step's own rounds (bench_timing.h), so it is the
      // model's, not the header's lot_gather.
      const double gather_here = model["ceiling_gather_seconds_per_lot"].toDouble(-1);
      QVERIFY2(gather_here > 0, qPrintable(run.out));
      const double ceiling = model["ceiling_steps_per_second"].toDouble();
      QVERIFY(qAbs(ceiling * (gather_here + gemm) - 1) < 1e-9);
      QVERIFY(qAbs(model["fraction_of_ceiling"].toDouble() - (gather_here + gemm) / dp) < 1e-9);
      QVERIFY(qAbs(model["nonprivate_fraction_of_ceiling"].toDouble() -
                   (gather_here + gemm) / nonprivate) < 1e-9);
      if (bytes) {
        const double float_dp = 1 / model["dp_steps_per_second_float_storage"].toDouble();
        QVERIFY(qAbs(model["speedup_vs_float_storage"].toDouble() - float_dp / dp) < 1e-9);
      }
    }

    // The conv rows' 1 vs 2 threads (bench_conv.h, issue #30): the one-thread entry repeats the
    // row's own timings, the 2-thread entry's speed-ups are the ratios of the two. The wide-cnn
    // runs at min(L, 32) (issue #49), and its step's FLOPs are that lot's.
    const QJsonArray conv = report["conv_models"].toArray();
    QCOMPARE(conv.size(), 3);
    QCOMPARE(conv[2].toObject()["model"].toString(), QStringLiteral("wide-cnn"));
    for (const auto& value : conv) {
      const QJsonObject row = value.toObject();
      const double lot = row["model"].toString() == "wide-cnn" ? 32 : 250;
      QCOMPARE(row["lot_size"].toDouble(), lot);
      double per_example = 0;
      for (const auto& layer : row["gemm_flops_by_layer"].toArray())
        per_example += layer.toObject()["dp_flops_per_example"].toDouble();
      QVERIFY(qAbs(row["dp_step_gemm_flops"].toDouble() - per_example * lot) <
              1e-9 * per_example * lot);
      const QJsonArray by_threads = row["by_threads"].toArray();
      QCOMPARE(by_threads.size(), 2);
      const QJsonObject one = by_threads[0].toObject(), two = by_threads[1].toObject();
      QCOMPARE(one["threads"].toInt(), 1);
      QCOMPARE(two["threads"].toInt(), 2);
      QCOMPARE(one["dp_steps_per_second"].toDouble(), row["dp_steps_per_second"].toDouble());
      QCOMPARE(one["nonprivate_steps_per_second"].toDouble(),
               row["nonprivate_steps_per_second"].toDouble());
      const double dp1 = one["dp_steps_per_second"].toDouble();
      const double dp2 = two["dp_steps_per_second"].toDouble();
      QVERIFY2(dp1 > 0 && dp2 > 0, qPrintable(run.out));
      QVERIFY(qAbs(two["dp_speedup_vs_one_thread"].toDouble() - dp2 / dp1) < 1e-9 * dp2 / dp1);
      const double np1 = one["nonprivate_steps_per_second"].toDouble();
      const double np2 = two["nonprivate_steps_per_second"].toDouble();
      QVERIFY(qAbs(two["nonprivate_speedup_vs_one_thread"].toDouble() - np2 / np1) <
              1e-9 * np2 / np1);
      // GFLOP/s = the step's GEMM FLOPs x steps/s.
      const double flops = row["dp_step_gemm_flops"].toDouble();
      QVERIFY(qAbs(two["dp_gflops"].toDouble() - flops * dp2 / 1e9) < 1e-9 * flops * dp2 / 1e9);
    }

    // The sparse vector rows (bench_sparse.h): the ratio is full-scan time over fast-scan time,
    // and the fast scan never passes more than c1 coordinates.
    const QJsonArray svt = report["sparse_vector"].toArray();
    QCOMPARE(svt.size(), 2);
    for (const auto& value : svt) {
      const QJsonObject row = value.toObject();
      const double fast = row["fast_selections_per_second"].toDouble();
      const double full = row["full_scan_selections_per_second"].toDouble();
      QVERIFY(fast > 0 && full > 0);
      QVERIFY(qAbs(row["speedup_full_over_fast"].toDouble() - fast / full) < 1e-9 * fast / full);
      const double passes = row["mean_passes"].toDouble();
      QVERIFY2(passes > 0 && passes <= row["max_count"].toDouble(), qPrintable(run.out));
    }
  }

  void rejectsBadThreads() {
    const CliRun run = run_cli({"bench", "--threads", "0", "--skip-accounting"});
    QVERIFY(run.exit_code != 0);
    QVERIFY2(run.err.contains("--threads = 0"), qPrintable(run.err));
  }
};

DPLAB_TEST_GUILESS_MAIN(CliBenchTest)
#include "test_cli_bench.moc"
