// The OSO protocol view (tab "OSO protocol (Figure 4)") on the real main window: it lists the
// shipped presets and says what one runs (the engine's plan), runs a tiny preset file off the GUI
// thread with a runs-done progress bar, shows exactly what tuning::run_oso_protocol returns for
// the same preset (recomputed here: every run is seeded) in the chart (Figure 4), the table
// (Table 3) and the CSV export, labels epsilon as a per-grid plan, Cancel ends a long run and
// leaves the view usable, a bad preset file is refused with an error naming the key, and the
// run-size overrides (seeds, T, training rows) scale a preset exactly as the engine does.
#include <qcustomplot.h>
#include <QComboBox>
#include <QFile>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "charts/chart_view.h"
#include "figure_view_support.h"
#include "form/experiment_form.h"
#include "form/presets.h"
#include "shell/main_window.h"
#include "shell/stall_meter.h"
#include "support/test_registry.h"
#include "tuning/oso_protocol.h"
#include "views/oso_protocol_view.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

constexpr double kMaxStallMs = 200;  // offscreen, 2 shared cores, work on a worker thread

// Two granularities, two epsilons, two seeds of 20 steps on 1,000 synthetic rows: 192 runs in
// about a second.
const char* kTinyPreset = R"({
  "name": "ui tiny oso",
  "protocol": "oso",
  "dataset": "synthetic-binary",
  "model": "logistic",
  "train_subset": 1000,
  "validation_subset": 200,
  "epsilons": [1, 4],
  "delta": 1e-5,
  "granularities": [2, 3],
  "strategies": ["oso-dpsgd", "dpsgd", "fixed-quantile", "dpadamwosm"],
  "lot_size": 50,
  "steps": 20,
  "seeds": 2,
  "eval_every": 10,
  "seed": 3
})";

// Runs of 2,000,000 steps with small rates (no divergence ends them early): minutes, to be
// cancelled.
const char* kLongPreset = R"({
  "name": "ui long oso",
  "dataset": "synthetic-binary",
  "model": "logistic",
  "epsilons": [1],
  "granularities": [3],
  "strategies": ["dpsgd"],
  "clip_range": [0.1, 1],
  "learning_rate_log10": [-2, -1],
  "lot_size": 50,
  "steps": 2000000,
  "seeds": 1,
  "eval_every": 1000000,
  "seed": 3
})";

QString writeFile(const QTemporaryDir& dir, const QString& name, const char* text) {
  const QString path = dir.filePath(name);
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(text);
  return path;
}

QString dash() {
  return QStringLiteral("–");
}

}  // namespace

class TestOsoProtocolView : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    window_ = test::openWindow(dir_, test::tinyExperiment());
    QVERIFY(window_->form()->dataReady());
    view_ = window_->findChild<OsoProtocolView*>("osoProtocolView");
    QVERIFY(view_);
    const int tab = window_->tabs()->indexOf(view_);
    QVERIFY(tab >= 0);
    QCOMPARE(window_->tabs()->tabText(tab), QStringLiteral("OSO protocol (Figure 4)"));
    window_->tabs()->setCurrentWidget(view_);
  }
  void cleanupTestCase() { delete window_; }

  void listsTheShippedPresetsAndTheirPlan() {
    QStringList names;
    for (int i = 0; i < view_->presetBox()->count(); ++i) names << view_->presetBox()->itemText(i);
    QCOMPARE(names, QStringList({"oso-fashion-mnist-autoencoder-scaled.json",
                                 "oso-fashion-mnist-autoencoder.json",
                                 "oso-fashion-mnist-logistic.json"}));
    // The scaled autoencoder is shown first; its plan is the engine's.
    QVERIFY(view_->preset().has_value());
    QCOMPARE(view_->preset()->name, std::string("oso-fashion-mnist-autoencoder-scaled"));
    for (int i = 0; i < names.size(); ++i) {
      view_->presetBox()->setCurrentIndex(i);
      const QString path = view_->presetBox()->itemData(i).toString();
      const auto config = tuning::parse_oso_protocol(readPresetText(path), "expected");
      QCOMPARE(view_->preset()->name, config.name);
      const auto plan = tuning::plan_oso_protocol(config);
      const QString text = view_->planText();
      QVERIFY2(text.contains(QStringLiteral("work: %1 runs × T × L ≈ %2 example gradients")
                                 .arg(plan.total_runs)
                                 .arg(formatReadable(plan.example_gradients, 3))),
               qPrintable(text));
      QVERIFY(text.contains(QStringLiteral("ε per grid (a plan)")));
      QVERIFY(text.contains(QStringLiteral("T = %1 steps").arg(config.steps)));
      QVERIFY(text.contains(QStringLiteral("FixedThreshold (dpsgd) %1").arg(plan.grids[1].runs)));
      // Before any run the empty chart already names the preset's score.
      QVERIFY(view_->chart()->plot()->yAxis->label().contains(tuning::higher_is_better(config.model)
                                                                  ? QStringLiteral("accuracy")
                                                                  : QStringLiteral("MSE")));
    }
    // The full logistic protocol: 302 runs per epsilon and seed (k = 5, 7, 9).
    QVERIFY(view_->planText().contains(QStringLiteral("work: %1 runs").arg(302 * 4 * 5)));
    view_->presetBox()->setCurrentIndex(0);
  }

  void runsATinyPresetAndShowsTheEngineNumbers() {
    const QString path = writeFile(dir_, "tiny-oso.json", kTinyPreset);
    QVERIFY(view_->loadPreset(path));
    QCOMPARE(view_->presetBox()->currentText(), QStringLiteral("tiny-oso.json"));
    // The click returns while the protocol runs; the GUI thread never stalls.
    QVERIFY(test::clickRunToEnd(window_, view_, kMaxStallMs));
    QVERIFY(view_->runButton()->isEnabled());
    QVERIFY(!view_->cancelButton()->isEnabled());

    // The same protocol straight from the engine.
    const auto config = tuning::parse_oso_protocol(kTinyPreset, "expected");
    const auto data = tuning::load_oso_protocol_data(config);
    const auto expected = tuning::run_oso_protocol(config, data);
    const auto plan = tuning::plan_oso_protocol(config);
    QCOMPARE(expected.size(), std::size_t{2 * 4 * 2});
    QCOMPARE(view_->progressBar()->maximum(), static_cast<int>(plan.total_runs));
    QCOMPARE(view_->progressBar()->value(), static_cast<int>(plan.total_runs));
    QCOMPARE(view_->progressBar()->text(), QStringLiteral("%1 / %1 runs").arg(plan.total_runs));
    QVERIFY(view_->result().has_value());
    QCOMPARE(view_->result()->grids.size(), expected.size());

    // Table 3: one row per grid, in the engine's order.
    QTableWidget* table = view_->table();
    QCOMPARE(table->rowCount(), static_cast<int>(expected.size()));
    QVERIFY(table->horizontalHeaderItem(2)->text().contains(QStringLiteral("plan")));
    for (int r = 0; r < table->rowCount(); ++r) {
      const auto& g = expected[static_cast<std::size_t>(r)];
      QVERIFY(std::isfinite(g.score));  // separable data: no grid diverges entirely
      QCOMPARE(table->item(r, 0)->text(), QString::number(g.granularity));
      QCOMPARE(table->item(r, 1)->text(),
               QString::fromStdString(tuning::oso_strategy_label(g.strategy)));
      QCOMPARE(table->item(r, 2)->text(), formatReadable(g.epsilon, 6));
      QCOMPARE(table->item(r, 3)->text(), QString::number(g.runs));
      QCOMPARE(table->item(r, 4)->text(), formatReadable(g.noise_multiplier, 4));
      QCOMPARE(table->item(r, 5)->text(),
               formatReadable(g.score, 4) + " ± " + formatReadable(g.score_std, 2));
      const bool adam = g.strategy == optim::OptimizerKind::kDpAdamWosm;
      QCOMPARE(table->item(r, 6)->text(), adam ? dash() : formatReadable(g.learning_rate, 4));
      QCOMPARE(table->item(r, 7)->text(), formatReadable(g.clip, 4));
      QCOMPARE(table->item(r, 8)->text(), g.strategy == optim::OptimizerKind::kFixedQuantile
                                              ? formatReadable(g.target_quantile, 2)
                                              : dash());
    }

    // Figure 4: per k, one series per strategy, the points (epsilon, mean score) +- sd.
    QCustomPlot* plot = view_->chart()->plot();
    QCOMPARE(view_->shownGranularity()->count(), 2);
    QVERIFY(plot->xAxis->label().contains(QStringLiteral("plan")));
    QVERIFY(plot->yAxis->label().contains(QStringLiteral("accuracy")));
    for (int shown = 0; shown < 2; ++shown) {
      view_->shownGranularity()->setCurrentIndex(shown);
      const int k = config.granularities[static_cast<std::size_t>(shown)];
      QCOMPARE(view_->shownGranularity()->currentData().toInt(), k);
      QCOMPARE(plot->graphCount(), 4);
      for (int s = 0; s < 4; ++s) {
        const auto strategy = config.strategies[static_cast<std::size_t>(s)];
        QCPGraph* graph = plot->graph(s);
        QCOMPARE(graph->name(), QString::fromStdString(tuning::oso_strategy_label(strategy)));
        QCPErrorBars* bars = nullptr;
        for (int p = 0; p < plot->plottableCount(); ++p) {
          auto* candidate = qobject_cast<QCPErrorBars*>(plot->plottable(p));
          if (candidate && candidate->dataPlottable() == graph) bars = candidate;
        }
        QVERIFY(bars);
        int i = 0;
        for (const auto& g : expected) {
          if (g.granularity != k || g.strategy != strategy) continue;
          QVERIFY(i < graph->dataCount());
          QCOMPARE(graph->data()->at(i)->key, g.epsilon);
          QVERIFY(test::closeRel(graph->data()->at(i)->value, g.score, 1e-12));
          QCOMPARE(bars->data()->at(i).errorPlus, g.score_std);
          ++i;
        }
        QCOMPARE(graph->dataCount(), 2);
        QCOMPARE(i, 2);
      }
    }

    // The CSV export: the table's rows at full precision, under the engine's epsilon note.
    const QString csv = dir_.filePath("oso.csv");
    QString error;
    QVERIFY2(view_->chart()->exportCsv(csv, &error), qPrintable(error));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + static_cast<int>(expected.size()));  // header, rows
    QVERIFY(lines[0].startsWith(QStringLiteral("granularity_k,strategy,epsilon_per_grid_plan")));
    QVERIFY(lines[0].endsWith(QStringLiteral(",epsilon_note")));
    QVERIFY(lines[1].contains(QString::fromStdString(tuning::oso_epsilon_note(1e-5))));
    const QStringList first = lines[1].trimmed().split(',');
    QCOMPARE(first[0], QString::number(expected[0].granularity));
    QCOMPARE(first[1], QStringLiteral("oso-dpsgd"));
    QCOMPARE(first[4], QString::number(expected[0].runs));
    QVERIFY(test::closeRel(first[6].toDouble(), expected[0].noise_multiplier, 1e-9));
    QCOMPARE(first[7], QStringLiteral("val_accuracy"));
    QVERIFY(test::closeRel(first[8].toDouble(), expected[0].score, 1e-9));
  }

  void cancelStopsALongRunAndTheViewStaysUsable() {
    QVERIFY(view_->result().has_value());
    const auto before = view_->result()->grids;
    const QString long_path = writeFile(dir_, "long-oso.json", kLongPreset);
    QVERIFY(view_->loadPreset(long_path));
    QVERIFY(test::runThenCancel(view_, 500));
    QVERIFY(view_->statusText().contains(QStringLiteral("cancelled")));
    // The shown result is the previous one, untouched.
    QCOMPARE(view_->result()->grids.size(), before.size());
    QCOMPARE(view_->result()->grids[0].score, before[0].score);
    QCOMPARE(view_->table()->rowCount(), static_cast<int>(before.size()));

    // Usable: the tiny preset runs again to the same numbers.
    view_->presetBox()->setCurrentIndex(view_->presetBox()->findText("tiny-oso.json"));
    QCOMPARE(view_->preset()->name, std::string("ui tiny oso"));
    QSignalSpy finished(view_, &OsoProtocolView::finished);
    QVERIFY(view_->run());
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 120000);
    QVERIFY(finished.at(0).at(0).toBool());
    QCOMPARE(view_->result()->grids[0].score, before[0].score);
    QCOMPARE(view_->finishedRuns(), 2);
  }

  void badPresetFileNamesTheKey() {
    QSignalSpy messages(view_, &OsoProtocolView::message);
    const std::string shown = view_->preset()->name;
    const QString plan = view_->planText();
    const struct {
      const char* file;
      const char* text;
      const char* key;
    } cases[] = {
        {"bad-type.json", R"({"protocol": "oso", "steps": "many"})", "steps"},
        {"bad-key.json", R"({"protocol": "oso", "epsilon": [1, 2]})", "epsilon"},
        {"bad-value.json", R"({"granularities": [0]})", "granularities"},
    };
    int expected_messages = 0;
    for (const auto& c : cases) {
      const QString path = writeFile(dir_, c.file, c.text);
      QVERIFY(!view_->loadPreset(path));
      ++expected_messages;
      QCOMPARE(messages.count(), expected_messages);
      const QString text = messages.last().at(0).toString();
      QVERIFY(messages.last().at(1).toBool());  // an error
      QVERIFY2(text.contains(path + ": " + c.key), qPrintable(text));
      QVERIFY2(view_->statusText().contains(c.key), qPrintable(view_->statusText()));
      // Nothing changed: the preset in use, its plan, and the list (a bad file is not added).
      QCOMPARE(view_->preset()->name, shown);
      QCOMPARE(view_->planText(), plan);
      QCOMPARE(view_->presetBox()->findText(c.file), -1);
    }
    // A file that does not exist says so.
    QVERIFY(!view_->loadPreset(dir_.filePath("missing.json")));
    QVERIFY(messages.last().at(0).toString().contains("missing.json"));
  }

  // The run-size overrides (the CLI's --seeds, --steps, --train-subset): they start at the
  // preset's values, the plan follows them, Run runs exactly the overridden protocol (checked
  // against the engine), a preset load resets them, and a size the engine refuses is refused
  // before any work with the engine's rule.
  void overridesScaleThePresetAndRunIt() {
    const QString path = writeFile(dir_, "tiny-oso.json", kTinyPreset);
    QVERIFY(view_->loadPreset(path));
    QCOMPARE(view_->seedsBox()->value(), 2);
    QCOMPARE(view_->stepsBox()->value(), 20);
    QCOMPARE(view_->trainRowsBox()->value(), 1000);
    view_->seedsBox()->setValue(1);
    view_->stepsBox()->setValue(10);
    view_->trainRowsBox()->setValue(500);
    auto expected_config = tuning::parse_oso_protocol(kTinyPreset, "expected");
    expected_config.seeds = 1;
    expected_config.steps = 10;
    expected_config.train_subset = 500;
    const auto plan = tuning::plan_oso_protocol(expected_config);
    QCOMPARE(plan.total_runs, std::int64_t{96});  // (18 + 30) runs per k pair x 2 budgets x 1 seed
    QVERIFY2(view_->planText().contains(QStringLiteral("work: 96 runs")),
             qPrintable(view_->planText()));
    QVERIFY(view_->planText().contains(QStringLiteral("first 500 training rows")));
    QVERIFY(
        view_->planText().contains(QStringLiteral("1 seed(s) per configuration, T = 10 steps")));

    QSignalSpy ended(view_, &OsoProtocolView::message);
    QVERIFY(test::clickRunToEnd(window_, view_, kMaxStallMs));
    // A success is announced too (after the earlier cancel, the status bar must not keep it).
    QVERIFY(!ended.isEmpty());
    QCOMPARE(ended.last().at(0).toString(), QStringLiteral("OSO protocol finished"));
    QVERIFY(!ended.last().at(1).toBool());
    QVERIFY(view_->result().has_value());
    QCOMPARE(view_->result()->config.seeds, 1);
    QCOMPARE(view_->result()->config.steps, std::int64_t{10});
    QCOMPARE(view_->result()->train_rows, std::int64_t{500});
    const auto expected =
        tuning::run_oso_protocol(expected_config, tuning::load_oso_protocol_data(expected_config));
    QCOMPARE(view_->result()->grids.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      QCOMPARE(view_->result()->grids[i].score, expected[i].score);
      QVERIFY(std::isnan(view_->result()->grids[i].score_std));  // one seed: no sd
    }

    // "all" rows: the override removes the preset's train_subset.
    view_->trainRowsBox()->setValue(view_->trainRowsBox()->minimum());
    QCOMPARE(view_->trainRowsBox()->text(), QStringLiteral("all"));
    QVERIFY(!view_->effectiveConfig().train_subset.has_value());

    // Loading the shipped logistic preset resets the run size to its values; 828 seeds would be
    // 1,000,224 runs, over the engine's cap: the plan says so and Run is refused naming seeds.
    QVERIFY(view_->loadPreset(QStringLiteral(":/oso-presets/oso-fashion-mnist-logistic.json")));
    QCOMPARE(view_->seedsBox()->value(), 5);
    QCOMPARE(view_->stepsBox()->value(), 1170);
    QCOMPARE(view_->trainRowsBox()->text(), QStringLiteral("all"));
    view_->seedsBox()->setValue(828);
    QVERIFY(view_->planText().contains(
        QStringLiteral("cannot run: seeds: gives 1000224 training runs")));
    QSignalSpy messages(view_, &OsoProtocolView::message);
    QVERIFY(!view_->run());
    QCOMPARE(messages.count(), 1);
    QVERIFY2(messages.last().at(0).toString().contains(QStringLiteral("seeds: gives 1000224")),
             qPrintable(messages.last().at(0).toString()));
    QVERIFY(messages.last().at(1).toBool());
    QVERIFY(view_->runButton()->isEnabled());
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
  OsoProtocolView* view_ = nullptr;
};

DPLAB_TEST_MAIN(TestOsoProtocolView)
#include "test_oso_protocol_view.moc"
