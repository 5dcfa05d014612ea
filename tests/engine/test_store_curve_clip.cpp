// The live clipping threshold C_t in the run history (issue #15): every curve point of an
// adaptive-clipping run (OSO-DPSGD, FixedQuantile) stores the C its next step uses, it reloads
// bit for bit, curves.csv exports it, and a schema-2 file (before the column existed) still opens,
// is migrated in place, and reads its old points with no C (NaN) and everything else intact.
#include <sqlite3.h>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cmath>
#include <sstream>
#include <string>

#include "release/search_tables.h"
#include "store/schema_version.h"
#include "store/store.h"
#include "support/test_registry.h"
#include "tuning/runner.h"

using namespace dplab;
using namespace dplab::tuning;

namespace {

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

// Small and fast: both adaptive optimizers and fixed-threshold DPSGD, 60 steps, a point every 10.
experiment::ExperimentConfig adaptive_experiment() {
  return experiment::parse_experiment_text(R"({
    "name": "adaptive",
    "dataset": {"source": "synthetic-binary", "num_samples": 600, "dim": 5},
    "model": {"kind": "logistic"},
    "privacy": {"noise_multiplier": 1.0, "lot_size": 50, "steps": 60},
    "optimizers": [
      {"name": "oso-dpsgd", "grid": {"learning_rate": 0.5, "clip": 0.1}},
      {"name": "fixed-quantile", "grid": {"learning_rate": 0.5, "clip": 5,
                                          "target_quantile": 0.5}},
      {"name": "dpsgd", "grid": {"learning_rate": 0.5, "clip": 0.7}}
    ],
    "eval_every": 10,
    "seed": 7
  })",
                                           "adaptive");
}

std::int64_t user_version(const std::string& path) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, nullptr);
  sqlite3_step(s);
  const std::int64_t v = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  sqlite3_close(db);
  return v;
}

void exec_raw(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
  const std::string text = message ? message : "";
  sqlite3_free(message);
  sqlite3_close(db);
  QVERIFY2(rc == SQLITE_OK, text.c_str());
}

// Runs the experiment into a new history file; returns the live results and the run's id.
SearchResults run_into(const std::string& path, std::int64_t& id) {
  const auto config = adaptive_experiment();
  store::Store db(path);
  store::StoreWriter writer(db);
  Runner runner(config, load_experiment_data(config), RunOptions{1, true});
  runner.add_listener(&writer);
  SearchResults live = runner.run();
  id = writer.experiment_id();
  if (writer.first_error()) qWarning("%s", writer.first_error()->c_str());
  return live;
}

}  // namespace

class TestStoreCurveClip : public QObject {
  Q_OBJECT
 private slots:
  void liveClipIsStoredAndReloaded() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    std::int64_t id = 0;
    const SearchResults live = run_into(path, id);
    QCOMPARE(user_version(path), std::int64_t{store::kSchemaVersion});
    const SearchResults back = store::Store(path).load_results(id);
    QCOMPARE(back.jobs.size(), live.jobs.size());
    for (std::size_t j = 0; j < live.jobs.size(); ++j) {
      const auto& a = live.jobs[j].curve;
      const auto& b = back.jobs[j].curve;
      QCOMPARE(b.size(), a.size());
      QCOMPARE(a.size(), std::size_t{6});
      for (std::size_t k = 0; k < a.size(); ++k) {
        QVERIFY(std::isfinite(a[k].clip) && a[k].clip > 0);
        QVERIFY(same_bits(a[k].clip, b[k].clip));
        QVERIFY(same_bits(a[k].step_size, b[k].step_size));
        QVERIFY(same_bits(a[k].val_mse, b[k].val_mse));  // NaN: a classifier has no MSE
      }
    }
    // The adaptive thresholds move away from C_0 (FixedQuantile's geometric update changes C at
    // every step; OSO-DPSGD's by exp(+-rho_c) once q~_{t-1} is nonzero); DPSGD's stays C.
    const auto& oso = live.jobs[0].curve;
    const auto& quantile = live.jobs[1].curve;
    const auto& fixed = live.jobs[2].curve;
    QVERIFY2(oso.back().clip != 0.1, qPrintable(QString::number(oso.back().clip)));
    QVERIFY2(quantile.back().clip != 5.0, qPrintable(QString::number(quantile.back().clip)));
    for (const auto& p : fixed) QCOMPARE(p.clip, 0.7);
    // OSO-DPSGD's rho_t (step_size) adapts too and is stored with it.
    QVERIFY(oso.back().step_size != 0.5);
  }

  void curvesCsvExportsTheLiveClip() {
    QTemporaryDir dir;
    std::int64_t id = 0;
    const SearchResults live = run_into(dir.filePath("runs.sqlite").toStdString(), id);
    std::istringstream in(csv_text(release::curves_table(live)));
    std::string header;
    std::getline(in, header);
    QVERIFY(header.ends_with(",step_size,clip_threshold,val_mse"));
    // Row 3 of job 1 (FixedQuantile): clip_threshold is the live C_t of that point, not C_0.
    std::string line;
    int row = 0;
    while (std::getline(in, line)) {
      if (row++ != 6 + 2) continue;
      std::vector<std::string> fields;
      std::stringstream cells(line);
      for (std::string f; std::getline(cells, f, ',');) fields.push_back(f);
      if (line.back() == ',') fields.push_back("");
      QCOMPARE(fields.size(), std::size_t{19});
      QCOMPARE(fields[2], std::string("fixed-quantile"));
      QCOMPARE(std::stod(fields[17]), live.jobs[1].curve[2].clip);
      QVERIFY(std::stod(fields[17]) != std::stod(fields[4]));  // C_t != the candidate's C_0
      QCOMPARE(fields[18], std::string());                     // no MSE for a classifier
    }
    QVERIFY(row == 18);
  }

  void schemaTwoFileOpensAndMigrates() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("old.sqlite").toStdString();
    std::int64_t id = 0;
    const SearchResults live = run_into(path, id);
    // Turn the file into what dplab wrote before: curve_points without clip / val_mse, version 3.
    exec_raw(path,
             "ALTER TABLE curve_points DROP COLUMN clip; ALTER TABLE curve_points DROP COLUMN "
             "val_mse; PRAGMA user_version = 3;");
    QCOMPARE(user_version(path), std::int64_t{3});
    {
      store::Store db(path);  // migrates
      const SearchResults back = db.load_results(id);
      QCOMPARE(back.jobs.size(), live.jobs.size());
      for (std::size_t j = 0; j < live.jobs.size(); ++j) {
        QCOMPARE(back.jobs[j].curve.size(), live.jobs[j].curve.size());
        for (std::size_t k = 0; k < live.jobs[j].curve.size(); ++k) {
          const auto& a = live.jobs[j].curve[k];
          const auto& b = back.jobs[j].curve[k];
          QVERIFY(std::isnan(b.clip));  // not recorded then: no number is invented
          QVERIFY(std::isnan(b.val_mse));
          QVERIFY(same_bits(a.train_loss, b.train_loss));
          QVERIFY(same_bits(a.val_accuracy, b.val_accuracy));
          QVERIFY(same_bits(a.step_size, b.step_size));
        }
      }
      // The old run exports with empty clip_threshold (and val_mse) fields on every row.
      std::istringstream in(csv_text(release::curves_table(back)));
      std::string line;
      std::getline(in, line);  // header
      int rows = 0;
      while (std::getline(in, line)) {
        ++rows;
        QVERIFY2(line.ends_with(",,"), line.c_str());
      }
      QCOMPARE(rows, 18);
    }
    QCOMPARE(user_version(path), std::int64_t{store::kSchemaVersion});
    // The migrated file takes new runs with their C_t.
    std::int64_t id2 = 0;
    const SearchResults second = run_into(path, id2);
    const SearchResults back2 = store::Store(path).load_results(id2);
    QVERIFY(same_bits(back2.jobs[1].curve.back().clip, second.jobs[1].curve.back().clip));
    QCOMPARE(store::Store(path).list_experiments().size(), std::size_t{2});
  }
};

DPLAB_TEST_APPLESS_MAIN(TestStoreCurveClip)
#include "test_store_curve_clip.moc"
