// `dplab-cli plot RELEASE --out FIG` (issue #43: a new user's path ends in a figure): the figure
// of a release folder in the format its name asks for, drawn from the released tables only, with
// the release's ε headline as its subtitle.
//   - a private search's folder: PNG, PDF and SVG with their magic bytes; the SVG holds the
//     release's "eps <= ..." headline (stderr: Cairo draws text as glyphs); --width 252 (one
//     column) is honoured;
//   - an explore search's folder: best and median per optimizer (both legend entries);
//   - refusals: an unknown extension and a bad --width are usage errors (exit 2) before anything
//     is read; a folder without release.json is an error naming it (exit 1); nothing is written.
#include <QFile>
#include <QTest>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;
namespace fs = std::filesystem;

class TestCliPlot : public QObject {
  Q_OBJECT
  dplab::testing::TempFiles temp_;
  QString path(const std::string& name) const {
    return QString::fromStdString(temp_.path(name.c_str()));
  }

  QString tune(const QString& out, const QStringList& extra) {
    const QString config = QString::fromStdString(
        temp_.write("tiny.json", dplab::testing::tiny_experiment_json(30, 1)));
    QStringList args{"tune", "--config", config, "--out", out, "--threads", "2"};
    args += extra;
    const CliRun r = run_cli(args);
    return r.exit_code == 0 ? QString() : r.err;
  }

 private slots:
  void privateReleaseInEveryFormat() {
    const QString run = path("private");
    const QString failed = tune(run, {"--release", "private", "--strategy", "ma"});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const auto release = nlohmann::json::parse(read_file(run + "/release.json").toStdString());
    const std::string label = release["privacy"]["epsilon_label"].get<std::string>();
    const QString headline = QString::fromStdString(label.substr(0, label.find(" (")));
    QVERIFY(headline.startsWith("eps <= "));

    struct Format {
      const char* file;
      QByteArray magic;
    };
    for (const Format& f : {Format{"fig.png", QByteArray("\x89PNG", 4)}, Format{"fig.pdf", "%PDF"},
                            Format{"fig.svg", "<?xml"}}) {
      const QString out = run + "/" + f.file;
      const CliRun r = run_cli({"plot", run, "--out", out});
      QVERIFY2(r.exit_code == 0, qPrintable(r.err));
      QVERIFY2(read_file(out).startsWith(f.magic), f.file);
      QVERIFY2(r.err.contains(headline), qPrintable(r.err));
    }
    const QString svg = QString::fromUtf8(read_file(run + "/fig.svg"));
    QVERIFY2(svg.contains("width=\"504"), qPrintable(svg.left(300)));
    // Cairo's SVG draws text as glyphs: the subtitle is checked through stderr above.
    const CliRun column = run_cli({"plot", run, "--out", run + "/column.svg", "--width", "252"});
    QVERIFY2(column.exit_code == 0, qPrintable(column.err));
    QVERIFY2(QString::fromUtf8(read_file(run + "/column.svg")).contains("width=\"252"),
             qPrintable(QString::fromUtf8(read_file(run + "/column.svg")).left(300)));
  }

  void exploreReleaseDrawsBestAndMedian() {
    const QString run = path("explore");
    const QString failed = tune(run, {});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const CliRun r = run_cli({"plot", run, "--out", run + "/fig.png"});
    QVERIFY2(r.exit_code == 0 && r.err.contains("(explore)"), qPrintable(r.err));
    QVERIFY(QFile(run + "/fig.png").size() > 1000);
  }

  void refusals() {
    const QString run = path("none");
    fs::create_directories(run.toStdString());
    CliRun r = run_cli({"plot", run, "--out", run + "/fig.txt"});
    QVERIFY2(r.exit_code == 2 && r.err.contains(".png, .pdf or .svg"), qPrintable(r.err));
    r = run_cli({"plot", run, "--out", run + "/fig.png"});
    QVERIFY2(r.exit_code == 1 && r.err.contains("release.json"), qPrintable(r.err));
    QVERIFY(!QFile::exists(run + "/fig.png"));
    r = run_cli({"plot", run, "--out", run + "/fig.png", "--width", "10"});
    QVERIFY2(r.exit_code == 2 && r.err.contains("--width"), qPrintable(r.err));
    r = run_cli({"plot", "--out", run + "/fig.png"});
    QCOMPARE(r.exit_code, 2);
  }
};

DPLAB_TEST_MAIN(TestCliPlot)
#include "test_cli_plot.moc"
