// Issue #23 item 2: a private Liu-Talwar or Papernot-Steinke release is covered by its epsilon
// only with the number of runs K integrated out, so NO released artefact may contain K or
// anything that depends on it (the runs trained, the hard-stop flag, the wall time, the jobs
// done / total). Runs the quick-demo preset through `dplab-cli tune --release private` (LT and
// PS, 2 replicate searches, --db) and checks every released artefact: stdout, summary.json,
// winners.csv, each file of `history export`, `history list` (table and --json) and `history
// show`: no K field name, and no standalone occurrence of a value of K that no public number
// explains. K itself is in curator-only.json. Also items 6 and 7 on the same runs: the headline
// epsilon is the total over the 2 replicates (one replicate beside it) in stdout, JSON and the
// CSV comment, and a seeded release says that the seed reproduces its noise.
// Issue #42 finding 3: stderr too (it ends up in Slurm and CI logs): no "runs drawn" header, no
// progress in jobs, percent, steps/s or ETA (all reveal K), only the elapsed time; `--show-curator`
// prints K on purpose, and `tune --plan` names its job count only with it.
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <nlohmann/json.hpp>
#include <set>

#include "store/run_history.h"
#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

// Names of K-dependent fields and phrases (old outputs: "runs_trained", "hit_hard_stop",
// "wall_seconds", "trained 4 runs (hard stop)", "best of 4 runs", "in 1.2 s", "jobs 4/4").
const char* const kForbiddenText[] = {
    "runs_trained", "hit_hard_stop", "wall_seconds", "jobs_total",  "jobs_finished",
    "runs trained", "runs drawn",    "best of",      "(hard stop)", "winner_job"};
const std::set<std::string> kForbiddenKeys = {"runs_trained", "hit_hard_stop", "wall_seconds",
                                              "jobs_total",   "jobs_finished", "complete",
                                              "winner_job"};

struct Artefact {
  QString name;
  QString text;
};

// Every key of a JSON document (recursively).
void collect_keys(const nlohmann::json& j, std::set<std::string>& keys) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      keys.insert(key);
      collect_keys(value, keys);
    }
  } else if (j.is_array()) {
    for (const auto& value : j) collect_keys(value, keys);
  }
}

// A standalone integer: not part of a longer number, word, decimal, exponent or time of day.
bool contains_number(const QString& text, std::int64_t k) {
  return text.contains(QRegularExpression(
      QStringLiteral("(?<![\\w.+\\-:])%1(?![\\w.:])").arg(static_cast<qlonglong>(k))));
}

}  // namespace

class TestCliPrivateReleaseK : public QObject {
  Q_OBJECT

  void check_release(const QStringList& strategy, const QString& tag) {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString preset =
        QString::fromStdString(dplab::testing::presets_dir() + "/quick-demo.json");
    const QString out = dir.path() + "/out", db = dir.path() + "/runs.sqlite";
    const CliRun run =
        run_cli(QStringList{"tune", "--config", preset, "--threads", "2", "--out", out, "--db", db,
                            "--release", "private", "--repeats", "2"} +
                strategy);
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));

    // Every released artefact.
    // stderr with its elapsed times taken out (the progress's one allowed figure: "elapsed 3 s").
    QString err = run.err;
    err.remove(QRegularExpression(QStringLiteral("elapsed (\\d+ min )?(\\d+ s|–)")));
    QVERIFY2(run.err.contains("progress: training (private selection: the number of runs is not "
                              "shown), elapsed ") ||
                 !run.err.contains("progress"),
             qPrintable(run.err));
    for (const char* pattern :
         {"jobs \\d", "\\d+ jobs", "steps/s", "ETA", "progress: \\d", "\\d+(\\.\\d+)?%"}) {
      QVERIFY2(!run.err.contains(QRegularExpression(QLatin1String(pattern))),
               qPrintable(tag + " stderr contains " + pattern + ":\n" + run.err));
    }
    std::vector<Artefact> released{{"stdout", run.out}, {"stderr", err}};
    const QString exported = dir.path() + "/export";
    const CliRun exp = run_cli({"history", "export", "--db", db, "--id", "1", "--out", exported});
    QVERIFY2(exp.exit_code == 0, qPrintable(exp.err));
    for (const QString& folder : {out, exported}) {
      for (const QString& name : QDir(folder).entryList(QDir::Files)) {
        if (name.contains("curator")) continue;  // the curator's file, by its name
        released.push_back(
            {folder + "/" + name, QString::fromUtf8(read_file(folder + "/" + name))});
      }
    }
    QVERIFY(QFile::exists(exported + "/summary.json"));
    // The GUI's run history shows a private run's released score as its "best" (the mean of
    // the released winners, as summary.json), never the whole search's best (curator-only).
    {
      const dplab::store::Store store(db.toStdString());
      const auto entries = dplab::store::list_history(store);
      QCOMPARE(entries.size(), std::size_t{1});
      const auto summary = nlohmann::json::parse(read_file(out + "/summary.json").toStdString());
      QVERIFY(entries[0].best_is_released_score);
      QCOMPARE(entries[0].best_metric, summary["released_accuracy"]["mean"].get<double>());
    }
    for (const QStringList& args : {QStringList{"history", "list", "--db", db},
                                    QStringList{"history", "list", "--db", db, "--json"},
                                    QStringList{"history", "show", "--db", db, "--id", "1"}}) {
      const CliRun r = run_cli(args);
      QVERIFY2(r.exit_code == 0, qPrintable(r.err));
      released.push_back({args.join(' '), r.out});
    }

    // No K-dependent field name or phrase, no wall time, in any released artefact.
    for (const Artefact& a : released) {
      const QString where = tag + " " + a.name + ":\n" + a.text;
      for (const char* word : kForbiddenText)
        QVERIFY2(!a.text.contains(QLatin1String(word)), qPrintable(where + "\ncontains " + word));
      QVERIFY2(!a.text.contains(QRegularExpression("\\bin [0-9]+\\.[0-9] s\\b")),
               qPrintable(where));
      if (a.name.endsWith(".json") || a.name.endsWith("--json")) {
        std::set<std::string> keys;
        collect_keys(nlohmann::json::parse(a.text.toStdString()), keys);
        for (const auto& key : keys)
          QVERIFY2(!kForbiddenKeys.count(key),
                   qPrintable(where + "\nkey " + QString::fromStdString(key)));
      }
    }

    // K, for the curator only.
    const QByteArray curator_text = read_file(out + "/curator-only.json");
    QVERIFY2(!curator_text.isEmpty(), "no curator-only.json");
    const auto curator = nlohmann::json::parse(curator_text.toStdString());
    std::set<std::int64_t> ks{curator.at("runs_trained").get<std::int64_t>()};
    for (const auto& rep : curator.at("replicates")) ks.insert(rep.at("runs_trained").get<int>());
    QVERIFY(curator.contains("wall_seconds"));

    // The numbers that public facts explain (candidate indices and counts, replicate numbers,
    // steps and curve points, data sizes, the hard stop, the run id, digits): a K equal to one
    // of them cannot be told apart in text, every other K can.
    const auto summary = nlohmann::json::parse(read_file(out + "/summary.json").toStdString());
    std::set<std::int64_t> explained{summary["steps"].get<std::int64_t>(),
                                     summary["training_size"].get<std::int64_t>(),
                                     summary["validation_size"].get<std::int64_t>(),
                                     100,
                                     3000,
                                     10};
    for (std::int64_t i = 0; i <= 6; ++i) explained.insert(i);
    for (std::int64_t t = 0; t <= 300; t += 50) explained.insert(t);
    if (summary["release"].contains("hard_stop"))
      explained.insert(summary["release"]["hard_stop"].get<std::int64_t>());
    int distinguishable = 0;
    for (const std::int64_t k : ks) distinguishable += explained.count(k) ? 0 : 1;
    QVERIFY2(distinguishable > 0, qPrintable(tag + ": every K is a public number; change mu"));

    // No value of K that no public number explains.
    for (const Artefact& a : released) {
      for (const std::int64_t k : ks) {
        if (explained.count(k)) continue;
        QVERIFY2(!contains_number(a.text, k), qPrintable(tag + " " + a.name + ":\n" + a.text +
                                                         "\ncontains K = " + QString::number(k)));
      }
    }

    // Item 6: the headline composes the 2 replicates, one replicate beside it.
    const auto& release = summary["release"];
    QCOMPARE(release["replicate_searches"].get<int>(), 2);
    QVERIFY(release["epsilon"].get<double>() > release["epsilon_per_replicate"].get<double>());
    const QString label = QString::fromStdString(release["label"].get<std::string>());
    QVERIFY2(label.startsWith("eps <= " + QString::fromStdString(
                                              release["epsilon_rounded_up"].get<std::string>())) &&
                 label.contains("total over 2 replicate searches") &&
                 label.contains("per replicate search: eps <= "),
             qPrintable(label));
    QVERIFY2(run.out.contains(label), qPrintable(run.out));
    QVERIFY2(read_file(out + "/winners.csv").contains(("\"" + label).toUtf8()),
             read_file(out + "/winners.csv").constData());
    // Item 7: a seeded release says that its seed undoes the noise.
    const QString seed_note = "not secure: the seed in the config reproduces the noise";
    QVERIFY2(run.out.contains(seed_note), qPrintable(run.out));
    QVERIFY(
        QString::fromStdString(release["noise_source"].get<std::string>()).startsWith(seed_note));
  }

  // --show-curator: the curator asks for K, and gets it on stderr (the header's runs drawn, the
  // progress in jobs, curator-only.json), stdout unchanged; --plan names its jobs only with it.
  void check_show_curator(const QStringList& strategy, const QString& tag) {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString preset =
        QString::fromStdString(dplab::testing::presets_dir() + "/quick-demo.json");
    const QString out = dir.path() + "/out";
    const CliRun run = run_cli(QStringList{"tune", "--config", preset, "--threads", "2", "--out",
                                           out, "--release", "private", "--show-curator"} +
                               strategy);
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    const auto curator = nlohmann::json::parse(read_file(out + "/curator-only.json").toStdString());
    const auto k = curator.at("runs_trained").get<std::int64_t>();
    QVERIFY2(run.err.contains(QStringLiteral("curator only (--show-curator), not for release: "
                                             "%1 runs drawn")
                                  .arg(k)),
             qPrintable(tag + ":\n" + run.err));
    QVERIFY2(run.err.contains(QStringLiteral("jobs %1/%1").arg(k)), qPrintable(run.err));
    QVERIFY2(run.err.contains("NOT FOR RELEASE") &&
                 run.err.contains(QStringLiteral("\"runs_trained\": %1").arg(k)),
             qPrintable(run.err));
    QVERIFY2(!run.out.contains("runs drawn"), qPrintable(run.out));

    for (const bool show : {false, true}) {
      const QString plan = dir.path() + (show ? "/plan-shown" : "/plan");
      QStringList args{"tune", "--config", preset, "--plan", plan, "--release", "private"};
      if (show) args << "--show-curator";
      const CliRun p = run_cli(args + strategy);
      QVERIFY2(p.exit_code == 0, qPrintable(p.err));
      QVERIFY2(p.err.contains(QRegularExpression("wrote the plan of \\d+ jobs")) == show,
               qPrintable(tag + ":\n" + p.err));
      if (show) continue;
      // run-jobs on the private plan (its log is a Slurm output file): no job count, no line per
      // job, run or rerun (everything already stored).
      for (int attempt = 0; attempt < 2; ++attempt) {
        const CliRun shard = run_cli({"run-jobs", plan, "--shard", "0", "--shards", "1"});
        QVERIFY2(shard.exit_code == 0, qPrintable(shard.err));
        QVERIFY2(!shard.err.contains(QRegularExpression("\\d+ jobs|\\d+/\\d+|ended:")),
                 qPrintable(tag + ":\n" + shard.err));
        QVERIFY2(shard.err.contains(attempt == 0 ? "its share of a private plan"
                                                 : "all its jobs already in"),
                 qPrintable(shard.err));
      }
    }
  }

 private slots:
  // Every run of this private search trains nothing (learning rate 1e-25): the training guards
  // warn for each, with each run's own numbers; stderr says so once, never once per run.
  // The training guards' warnings of a private search: one count-free line, whatever the number
  // of runs that warned, in every private mode; the phased modes' earlier (never shown) phases
  // included: their runs are frozen too, and before this line nothing at all was said for them.
  void training_warnings_do_not_count_the_runs_data() {
    QTest::addColumn<QStringList>("release");
    QTest::newRow("ps") << QStringList{"--release", "private", "--strategy", "ps", "--ps-mu", "10"};
    QTest::newRow("subsampled") << QStringList{"--release", "private-subsampled", "--ps-mu", "4"};
    QTest::newRow("linear-scaling") << QStringList{"--release", "private-linear-scaling"};
  }
  void training_warnings_do_not_count_the_runs() {
    QFETCH(QStringList, release);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString config = dir.path() + "/frozen.json";
    QFile file(config);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"name": "frozen", "dataset": {"source": "synthetic-binary", "num_samples": 600,
                   "dim": 5}, "model": {"kind": "logistic"},
                   "privacy": {"noise_multiplier": 1, "lot_size": 60, "steps": 20},
                   "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [1e-25, 2e-25, 3e-25],
                   "clip": [1]}}], "seed": 3})");
    file.close();
    QStringList args{"tune", "--config", config, "--threads", "2", "--out", dir.path() + "/out"};
    const CliRun run = run_cli(args + release);
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    QCOMPARE(run.err.count("warning"), 1);  // ps: this seed draws 6 runs, each of them frozen
    QVERIFY2(run.err.contains("at least one run of the search warned") &&
                 run.err.contains("no parameter moved"),
             qPrintable(run.err));
  }
  void lt_release_hides_k() { check_release({"--strategy", "lt"}, "lt"); }
  void ps_release_hides_k() {
    check_release({"--strategy", "ps", "--ps-distribution", "poisson", "--ps-mu", "9"}, "ps");
  }
  void lt_show_curator_prints_k() { check_show_curator({"--strategy", "lt"}, "lt"); }
  void ps_show_curator_prints_k() {
    check_show_curator({"--strategy", "ps", "--ps-mu", "4"}, "ps");
  }
};

DPLAB_TEST_GUILESS_MAIN(TestCliPrivateReleaseK)
#include "test_cli_private_release_k.moc"
