// dplab-cli tune, end to end through the real binary: the quick-demo preset runs (exit 0) and
// writes summary.json with per-optimizer honest-selection fields and the CSVs; a bad config
// exits 2 naming the key, and a comparison or protocol preset exits 2 naming the command that
// runs it; SIGINT cancels, keeps finished jobs and exits 130.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include <signal.h>

#include "support/cli_runner.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

QString preset(const char* name) {
  return QString::fromStdString(dplab::testing::presets_dir() + "/") + name;
}

}  // namespace

class CliTuneTest : public QObject {
  Q_OBJECT

 private slots:
  void quickDemo() {
    QTemporaryDir dir;
    const CliRun run = run_cli({"tune", "--config", preset("quick-demo.json"), "--threads", "2",
                                "--out", dir.path() + "/out", "--db", dir.path() + "/runs.sqlite"});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    const QJsonObject summary =
        QJsonDocument::fromJson(read_file(dir.path() + "/out/summary.json")).object();
    QCOMPARE(summary["cancelled"].toBool(true), false);
    QCOMPARE(summary["jobs"].toObject()["finished"].toInt(), 6);
    // Where the CPU time went (issue #49): shares of 2 threads x the wall time, printed too.
    const QJsonObject cpu = summary["cpu_time"].toObject();
    QCOMPARE(cpu["threads"].toInt(), 2);
    QCOMPARE(cpu["jobs_counted"].toInt(), 6);
    const double step_share = cpu["dp_step_share"].toDouble(-1);
    QVERIFY(step_share > 0 && step_share < 1);
    QVERIFY(cpu["evaluation_share"].toDouble(-1) > 0);
    QVERIFY(cpu["outside_jobs_share"].toDouble(-1) >= 0);
    QVERIFY2(run.out.contains("% in DP steps"), qPrintable(run.out));
    const QJsonArray optimizers = summary["optimizers"].toArray();
    QCOMPARE(optimizers.size(), 2);
    const QJsonObject sgd = optimizers[0].toObject();
    QCOMPARE(sgd["optimizer"].toString(), QString("dpsgd"));
    QCOMPARE(sgd["num_candidates"].toInt(), 4);
    QCOMPARE(sgd["gamma"].toDouble(), 0.25);
    const double accuracy = sgd["best_accuracy"].toDouble(-1);
    QVERIFY(accuracy > 0.5 && accuracy <= 1);
    QVERIFY(sgd["best_candidate"].toObject().contains("learning_rate"));
    const double single = sgd["epsilon_single_run"].toDouble(), ma = sgd["epsilon_ma"].toDouble(),
                 lt = sgd["epsilon_lt"].toDouble();
    QVERIFY(single > 0 && single < ma && ma < lt);  // small K: MA beats LT (paper section 3.2)
    QCOMPARE(sgd["protocol_5_2"].toArray().size(), 4);
    QCOMPARE(optimizers[1].toObject()["num_candidates"].toInt(), 2);
    // The header, 6 jobs x 6 points, each row ending in the epsilon label: the one summary.json
    // carries (explore: all 6 runs trained), with the accountant and the rounding said.
    const QStringList curves =
        QString::fromUtf8(read_file(dir.path() + "/out/curves.csv")).trimmed().split('\n');
    QCOMPARE(curves.size(), 1 + 36);
    const QString release_label = summary["release"].toObject()["label"].toString();
    QVERIFY(!release_label.isEmpty());
    const QString label_field =
        "\"" + release_label + "; accountant: rdp; eps rounded up to 2 decimals\"";
    QVERIFY2(curves[1].endsWith("," + label_field), qPrintable(curves[1]));
    QVERIFY2(curves[1].contains("explore: all 6 runs trained"), qPrintable(curves[1]));
    QVERIFY(curves[0].startsWith("candidate,repeat,"));
    // The curve's epsilon is one run's, so the column says so (the search's is the label's).
    QVERIFY2(curves[0].contains(",val_accuracy,epsilon_per_run,step_size,"), qPrintable(curves[0]));
    for (const char* name : {"/out/aggregate_curves.csv", "/out/alpha_clip_grid.csv"}) {
      const QStringList lines =
          QString::fromUtf8(read_file(dir.path() + name)).trimmed().split('\n');
      QVERIFY2(lines[0].endsWith(",epsilon_label") && lines[1].endsWith("," + label_field), name);
    }
    QVERIFY(QFile::exists(dir.path() + "/out/alpha_clip_grid.csv"));
    QVERIFY(QFile::exists(dir.path() + "/runs.sqlite"));
  }

  // Issue #23 items 3 and 4: explore exports the runs' training losses (un-noised, private
  // training set) and, without public bounds, a min-max scaling fitted on the data; stdout, the
  // CSV comment and summary.json name them as not covered. dataset.feature_range removes the
  // preprocessing entry; a bad value exits 2 naming the key.
  void exploreLabelsWhatEpsilonDoesNotCover() {
    QTemporaryDir dir;
    QFile csv(dir.path() + "/people.csv");
    QVERIFY(csv.open(QIODevice::WriteOnly));
    QByteArray text = "height,weight,label\n";
    for (int i = 0; i < 80; ++i) {
      text += QByteArray::number(150 + i) + "," + QByteArray::number(50 + (i * 7) % 40) + "," +
              QByteArray::number(i % 2) + "\n";
    }
    csv.write(text);
    csv.close();
    auto experiment = [&](const QString& name, const QString& extra) {
      QFile file(dir.path() + "/" + name + ".json");
      if (!file.open(QIODevice::WriteOnly)) return QString();
      file.write(QStringLiteral(R"({"name": "%1",
        "dataset": {"source": "%2"%3},
        "model": {"kind": "logistic"},
        "privacy": {"noise_multiplier": 1, "lot_size": 10, "steps": 20},
        "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5], "clip": 1}}],
        "eval_every": 10, "seed": 3})")
                     .arg(name, csv.fileName(), extra)
                     .toUtf8());
      return file.fileName();
    };
    const CliRun fitted = run_cli({"tune", "--config", experiment("fitted", ""), "--threads", "1",
                                   "--out", dir.path() + "/fitted"});
    QVERIFY2(fitted.exit_code == 0, qPrintable(fitted.err));
    const QString training_clause =
        "train_loss, final_train_loss: un-noised losses on the private training set, not "
        "covered by eps";
    const QString preprocessing_clause = "preprocessing fitted on private data: not covered";
    QVERIFY2(fitted.out.contains(training_clause), qPrintable(fitted.out));
    QVERIFY2(fitted.out.contains(preprocessing_clause), qPrintable(fitted.out));
    QVERIFY2(fitted.err.contains("preprocessing: min-max ranges fitted"), qPrintable(fitted.err));
    // The label: the epsilon_label column of every row.
    const QString comment =
        QString::fromUtf8(read_file(dir.path() + "/fitted/curves.csv")).split('\n').at(1);
    QVERIFY2(comment.contains(training_clause) && comment.contains(preprocessing_clause),
             qPrintable(comment));
    const QJsonObject summary =
        QJsonDocument::fromJson(read_file(dir.path() + "/fitted/summary.json")).object();
    const QVariantList not_covered = summary["not_covered"].toArray().toVariantList();
    QVERIFY(not_covered.contains("train_loss"));
    QVERIFY(not_covered.contains("final_train_loss"));
    QVERIFY(not_covered.contains("preprocessing"));
    const QJsonObject release = summary["release"].toObject();
    QCOMPARE(release["not_covered"].toArray().toVariantList(), not_covered);
    QVERIFY(release["label"].toString().contains(preprocessing_clause));
    QVERIFY(release["preprocessing"].toObject()["fitted_on_private_data"].toBool(false));

    const CliRun bounded =
        run_cli({"tune", "--config", experiment("bounded", R"(, "feature_range": "0:300")"),
                 "--threads", "1", "--out", dir.path() + "/bounded"});
    QVERIFY2(bounded.exit_code == 0, qPrintable(bounded.err));
    QVERIFY2(bounded.out.contains(training_clause), qPrintable(bounded.out));
    QVERIFY2(!bounded.out.contains(preprocessing_clause), qPrintable(bounded.out));
    QVERIFY2(bounded.err.contains("public feature bounds"), qPrintable(bounded.err));
    const QJsonObject bounded_summary =
        QJsonDocument::fromJson(read_file(dir.path() + "/bounded/summary.json")).object();
    QVERIFY(!bounded_summary["not_covered"].toArray().toVariantList().contains("preprocessing"));

    const CliRun bad =
        run_cli({"tune", "--config", experiment("bad", R"(, "feature_range": "300:0")"), "--out",
                 dir.path() + "/bad"});
    QCOMPARE(bad.exit_code, 2);
    QVERIFY2(bad.err.contains("dataset.feature_range"), qPrintable(bad.err));
  }

  void badConfigExits2NamingKey() {
    QTemporaryDir dir;
    QFile file(dir.path() + "/bad.json");
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(read_file(preset("quick-demo.json"))
                   .replace("\"dpadam\", \"grid\": {\"clip\": [0.5, 1]}",
                            "\"dpadam\", \"grid\": {\"clip\": \"big\"}"));
    file.close();
    const CliRun run =
        run_cli({"tune", "--config", dir.path() + "/bad.json", "--out", dir.path() + "/o"});
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.err.contains("optimizers[1].grid.clip: expected a number or list, got \"big\""),
             qPrintable(run.err));
    const CliRun missing = run_cli({"tune", "--out", dir.path() + "/o"});
    QCOMPARE(missing.exit_code, 2);
    QVERIFY(missing.err.contains("--config"));
  }

  // An objpert --compare or oso-protocol preset given to tune: the error names the command that
  // runs it (it used to be the first key the experiment schema does not know:
  // "dataset.test_fraction: unknown key"), and that command line is one the CLI accepts.
  void otherPresetKindsNameTheirCommand_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QStringList>("fast_fail");  // an override its command rejects at once
    QTest::addColumn<QString>("fast_fail_error");
    QTest::newRow("objpert comparison")
        << preset("objpert-vs-dpsgd-synthetic-l.json") << "an objpert --compare preset"
        << QStringList{"objpert", "--compare"} << QStringList{"--trials", "0"}
        << "--trials must be >= 1";
    QTest::newRow("oso protocol") << preset("oso-fashion-mnist-logistic.json")
                                  << "an oso-protocol preset"
                                  << QStringList{"oso-protocol", "--preset"}
                                  << QStringList{"--seeds", "0"} << "--seeds must be in";
  }
  void otherPresetKindsNameTheirCommand() {
    QFETCH(QString, file);
    QFETCH(QString, kind);
    QFETCH(QStringList, command);
    QFETCH(QStringList, fast_fail);
    QFETCH(QString, fast_fail_error);
    QTemporaryDir dir;
    const CliRun run = run_cli({"tune", "--config", file, "--out", dir.path() + "/o"});
    QCOMPARE(run.exit_code, 2);
    const QString hint = "dplab-cli tune: --config: " + file + ": this is " + kind +
                         ": run `dplab-cli " + command.join(' ') + " " + file + "`\n";
    QCOMPARE(run.err, hint);
    QVERIFY(run.out.isEmpty());
    QVERIFY(!QFile::exists(dir.path() + "/o"));
    // The named command takes the file (its own flags, not tune's): it fails only on the
    // override given here to keep the run short.
    const CliRun named = run_cli(QStringList{command} << file << fast_fail);
    QCOMPARE(named.exit_code, 2);
    QVERIFY2(named.err.contains(fast_fail_error), qPrintable(named.err));
  }

  void sigintCancelsWith130() {
    QTemporaryDir dir;
    // A run far longer than the wait before SIGINT on any machine: 6 jobs of 3,000,000 steps on
    // one thread (a step of this tiny model takes >= 1 us, so >= 18 s in all; cancel takes
    // effect within one step, so the test itself stays short).
    QByteArray text = read_file(preset("quick-demo.json"));
    text.replace("\"steps\": 300", "\"steps\": 3000000")
        .replace("\"eval_every\": 50", "\"eval_every\": 100000");
    QFile file(dir.path() + "/long.json");
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    QProcess process;
    process.start(dplab::testing::cli_program(), {"tune", "--config", dir.path() + "/long.json",
                                                  "--threads", "1", "--out", dir.path() + "/o"});
    QVERIFY(process.waitForStarted());
    QTest::qWait(700);
    ::kill(static_cast<pid_t>(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(30000));
    QCOMPARE(process.exitCode(), 130);
    const QJsonObject summary =
        QJsonDocument::fromJson(read_file(dir.path() + "/o/summary.json")).object();
    QCOMPARE(summary["cancelled"].toBool(false), true);
    QVERIFY(summary["jobs"].toObject()["finished"].toInt() < 6);
  }
};

DPLAB_TEST_MAIN(CliTuneTest)
#include "test_cli_tune.moc"
