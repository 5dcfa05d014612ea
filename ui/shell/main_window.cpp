#include "shell/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "charts/chart_view.h"
#include "charts/export_dialog.h"
#include "form/experiment_form.h"
#include "form/privacy_section.h"
#include "run/history_panel.h"
#include "run/pause_button.h"
#include "run/run_controller.h"
#include "run/run_data.h"
#include "shell/discard_guard.h"
#include "shell/stall_meter.h"
#include "shell/status_panel.h"
#include "shell/welcome_panel.h"
#include "store/csv_export.h"
#include "tuning/run_summary.h"
#include "views/accountant_gap_view.h"
#include "views/accuracy_tab.h"
#include "views/heatmap_tab.h"
#include "views/parallel_coordinates_tab.h"
#include "views/privacy_tab.h"
#include "views/privacy_utility_tab.h"
#include "views/results_tab.h"
#include "views/step_size_tab.h"

// Q_INIT_RESOURCE must be used outside any namespace; dplab_ui is a static library, so its
// resources (presets) are registered explicitly.
static void initDplabResources() {
  Q_INIT_RESOURCE(resources);
}

namespace dplab::ui {

namespace {
constexpr int kMaxRecent = 8;

QString formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("–");
  const int s = static_cast<int>(std::lround(seconds));
  return s >= 60 ? QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60)
                 : QStringLiteral("%1 s").arg(s);
}
}  // namespace

experiment::ExperimentConfig MainWindow::defaultExperiment() {
  using experiment::ParamSpec;
  experiment::ExperimentConfig c;
  const bool fashion =
      std::filesystem::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz") ||
      std::filesystem::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte") ||
      qEnvironmentVariableIsSet("DPLAB_FASHION_MNIST_DIR");
  c.name = fashion ? "quick demo (Fashion-MNIST)" : "quick demo (synthetic)";
  c.dataset.source = fashion ? "fashion-mnist" : "synthetic-binary";
  c.model.kind = models::ModelKind::kLogisticRegression;
  c.privacy.noise_multiplier = 4.0;  // paper's σ = 4
  c.privacy.lot_size = 250;          // paper's L
  c.privacy.steps = 1000;            // short, so that Run finishes in seconds
  c.eval_every = 50;
  auto values = [](std::vector<double> v) {
    ParamSpec s;
    s.values = std::move(v);
    return s;
  };
  experiment::OptimizerConfig sgd;
  sgd.kind = optim::OptimizerKind::kDpSgd;
  sgd.grid[static_cast<int>(experiment::Param::kLearningRate)] = values({0.1, 0.5, 2.0});
  sgd.grid[static_cast<int>(experiment::Param::kClip)] = values({0.1, 0.5, 1.0});
  experiment::OptimizerConfig adam;
  adam.kind = optim::OptimizerKind::kDpAdam;
  adam.grid[static_cast<int>(experiment::Param::kLearningRate)] = values({0.001});
  adam.grid[static_cast<int>(experiment::Param::kClip)] = values({0.1, 0.5, 1.0});
  c.optimizers = {sgd, adam};
  c.repeats = 1;
  c.seed = 1;
  return c;
}

QStringList MainWindow::presetPaths() {
  initDplabResources();
  QStringList paths;
  const QDir dir(QStringLiteral(":/presets"));
  for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    paths << dir.filePath(name);
  }
  return paths;
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  initDplabResources();
  setWindowTitle(tr("dplab — honest private hyperparameter selection"));
  data_ = new RunData(this);
  controller_ = new RunController(data_, this);
  const QString history_dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  controller_->setHistoryPath(
      QSettings()
          .value(QStringLiteral("history/path"),
                 QDir(history_dir).filePath(QStringLiteral("history.sqlite")))
          .toString());
  stall_ = new StallMeter(this);

  // Left: the form.
  form_ = new ExperimentForm(this);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(form_);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // Narrow enough for a 1280 × 720 screen; the form scrolls vertically and can be widened.
  scroll->setMinimumWidth(std::min(form_->sizeHint().width() + 24, 330));
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  auto* form_dock = new QDockWidget(tr("Experiment"), this);
  form_dock->setObjectName(QStringLiteral("experimentDock"));
  form_dock->setWidget(scroll);
  form_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  addDockWidget(Qt::LeftDockWidgetArea, form_dock);

  // Centre: run bar + tabs.
  auto* centre = new QWidget(this);
  auto* centre_layout = new QVBoxLayout(centre);
  centre_layout->setContentsMargins(4, 4, 4, 0);
  centre_layout->addWidget(buildRunBar());
  shown_run_ = new QLabel(centre);
  shown_run_->setTextFormat(Qt::RichText);
  shown_run_->setWordWrap(true);
  shown_run_->setToolTip(
      tr("Which run the charts, the table and an exported report show. It is "
         "marked when the form has been edited since that run."));
  centre_layout->addWidget(shown_run_);
  welcome_ = new WelcomePanel(centre);
  welcome_->setVisible(WelcomePanel::shouldShow());
  centre_layout->addWidget(welcome_);
  tabs_ = new QTabWidget(centre);
  accuracy_ = new AccuracyTab(data_, tabs_);
  heatmap_ = new HeatmapTab(data_, tabs_);
  privacy_ = new PrivacyTab(tabs_);
  step_size_ = new StepSizeTab(data_, tabs_);
  results_ = new ResultsTab(data_, tabs_);
  privacy_utility_ = new PrivacyUtilityTab(data_, tabs_);
  parallel_ = new ParallelCoordinatesTab(data_, tabs_);
  tabs_->addTab(accuracy_, tr("Accuracy curves"));
  tabs_->addTab(heatmap_, tr("α–C heatmap"));
  tabs_->addTab(privacy_utility_, tr("Privacy–utility"));
  tabs_->addTab(parallel_, tr("Parallel coordinates"));
  tabs_->addTab(privacy_, tr("Privacy of tuning"));
  tabs_->addTab(new AccountantGapView(tabs_), tr("Accountants disagree"));
  tabs_->addTab(step_size_, tr("DPAdam step size"));
  tabs_->addTab(results_, tr("Results"));
  centre_layout->addWidget(tabs_, 1);
  setCentralWidget(centre);

  // Bottom: messages and history.
  status_ = new StatusPanel(this);
  history_ = new HistoryPanel(controller_, data_, this);
  auto* bottom_tabs = new QTabWidget(this);
  bottom_tabs->addTab(status_, tr("Messages"));
  bottom_tabs->addTab(history_, tr("Run history"));
  // Diagnostics: the GUI thread's longest stall (a developer's number, not a status message).
  auto* diagnostics = new QWidget(this);
  auto* diagnostics_layout = new QVBoxLayout(diagnostics);
  stall_text_ = new QLabel(diagnostics);
  stall_text_->setObjectName(QStringLiteral("stallText"));
  stall_text_->setToolTip(
      tr("Longest gap between 10 ms heartbeats of the GUI thread since the last "
         "run started (a responsive GUI stays well under 100 ms)."));
  diagnostics_layout->addWidget(stall_text_);
  diagnostics_layout->addStretch(1);
  bottom_tabs->addTab(diagnostics, tr("Diagnostics"));
  auto* bottom_dock = new QDockWidget(tr("Messages and run history"), this);
  bottom_dock->setObjectName(QStringLiteral("bottomDock"));
  bottom_dock->setWidget(bottom_tabs);
  bottom_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  addDockWidget(Qt::BottomDockWidgetArea, bottom_dock);
  resizeDocks({bottom_dock}, {140}, Qt::Vertical);

  status_text_ = new QLabel(this);
  statusBar()->addWidget(status_text_, 1);

  buildMenus();

  // Wiring: messages from every part go to the status panel (never a dialog per event).
  auto to_status = [this](const QString& text, bool is_error) {
    status_->addMessage(text, is_error);
  };
  connect(form_, &ExperimentForm::message, this, to_status);
  connect(controller_, &RunController::message, this, to_status);
  connect(history_, &HistoryPanel::message, this, to_status);
  connect(accuracy_, &AccuracyTab::message, this, to_status);
  connect(heatmap_, &HeatmapTab::message, this, to_status);
  connect(privacy_, &PrivacyTab::message, this, to_status);
  connect(step_size_, &StepSizeTab::message, this, to_status);
  connect(results_, &ResultsTab::message, this, to_status);
  connect(privacy_utility_, &PrivacyUtilityTab::message, this, to_status);
  connect(parallel_, &ParallelCoordinatesTab::message, this, to_status);
  connect(welcome_, &WelcomePanel::runRequested, this, &MainWindow::startRun);
  connect(welcome_, &WelcomePanel::presetsRequested, this,
          [this] { preset_menu_->popup(mapToGlobal(rect().center())); });
  connect(controller_, &RunController::pausedChanged, this, [this](bool paused) {
    status_->addMessage(paused ? tr("Run paused: jobs wait before their next step; nothing is "
                                    "lost. Resume with F8.")
                               : tr("Run resumed."),
                        false);
  });
  // A history run's config into the form (asks before discarding edits).
  connect(history_, &HistoryPanel::configRequested, this,
          [this](const experiment::ExperimentConfig& config) {
            if (!discard_guard_->confirmDiscard(tr("load the run's experiment"))) return;
            current_path_.clear();
            form_->setConfig(config);
            discard_guard_->markClean();
            status_->addMessage(tr("The form now holds the experiment of the history run "
                                   "“%1”.")
                                    .arg(QString::fromStdString(config.name)),
                                false);
          });
  connect(history_, &HistoryPanel::opened, this, [this] { tabs_->setCurrentWidget(accuracy_); });
  connect(status_, &StatusPanel::latest, this, [this](const QString& text, bool is_error) {
    status_text_->setText(is_error ? QStringLiteral("⚠ ") + text : text);
  });
  connect(form_, &ExperimentForm::validityChanged, this, &MainWindow::updateActions);
  connect(form_, &ExperimentForm::edited, this, [this] {
    updateActions();
    syncPrivacyTab();
    updateShownRun();
  });
  connect(data_, &RunData::changed, this, [this](bool structural) {
    if (structural) updateShownRun();
  });
  connect(controller_, &RunController::progressChanged, this, &MainWindow::onProgress);
  connect(controller_, &RunController::finished, this, &MainWindow::onRunFinished);
  connect(stall_, &StallMeter::longestGapChanged, this, [this](double ms) {
    stall_text_->setText(tr("GUI max stall: %1 ms").arg(ms, 0, 'f', 1));
  });

  // Settings and the starting experiment.
  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
  restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  if (!settings.contains(QStringLiteral("window/geometry"))) resize(1500, 940);
  // Small screens: never larger than the available desktop (the window fits 1280 × 720).
  if (const QScreen* screen = this->screen()) {
    const QSize available = screen->availableGeometry().size();
    if (width() > available.width() || height() > available.height()) {
      resize(std::min(width(), available.width()), std::min(height(), available.height()));
    }
  }
  form_->setConfig(defaultExperiment());
  discard_guard_ = new DiscardGuard(form_, this);
  form_->setThreads(settings.value(QStringLiteral("run/threads"), 0).toInt());
  rebuildRecentMenu();
  history_->reload();
  updateActions();
  updateShownRun();
  status_->addMessage(tr("Ready. Ctrl+R runs the experiment on the left."), false);
}

MainWindow::~MainWindow() = default;

QWidget* MainWindow::buildRunBar() {
  auto* bar = new QWidget(this);
  auto* layout = new QHBoxLayout(bar);
  layout->setContentsMargins(0, 0, 0, 0);
  run_button_ = new QPushButton(tr("▶ Run"), bar);
  run_button_->setToolTip(
      tr("Train every candidate of the experiment (Ctrl+R). Disabled while a "
         "field is invalid — hover it for the reason."));
  cancel_button_ = new QPushButton(tr("■ Cancel"), bar);
  cancel_button_->setToolTip(tr("Stop the run (Esc or Ctrl+.); finished jobs are kept."));
  progress_ = new QProgressBar(bar);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setFormat(tr("%v / %m jobs"));
  progress_->setToolTip(tr("Jobs (candidate × repeat) finished out of all jobs."));
  progress_text_ = new QLabel(tr("idle"), bar);
  progress_text_->setMinimumWidth(180);
  progress_text_->setToolTip(
      tr("Training throughput over all worker threads and the estimated "
         "time left."));
  layout->addWidget(run_button_);
  layout->addWidget(new PauseButton(controller_, bar));
  layout->addWidget(cancel_button_);
  layout->addWidget(progress_, 1);
  layout->addWidget(progress_text_);
  connect(run_button_, &QPushButton::clicked, this, &MainWindow::startRun);
  connect(cancel_button_, &QPushButton::clicked, controller_, &RunController::cancel);
  return bar;
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  new_action_ = file->addAction(tr("&New (default experiment)"), QKeySequence::New, this,
                                [this] { newExperiment(); });
  file->addAction(tr("&Open experiment…"), QKeySequence::Open, this, &MainWindow::openDialog);
  preset_menu_ = file->addMenu(tr("Open &preset"));
  for (const QString& path : presetPaths()) {
    preset_menu_->addAction(QFileInfo(path).fileName(), this,
                            [this, path] { openExperiment(path, nullptr); });
  }
  preset_menu_->setEnabled(!preset_menu_->isEmpty());
  recent_menu_ = file->addMenu(tr("Open &recent"));
  file->addAction(tr("&Save experiment"), QKeySequence::Save, this, [this] { saveDialog(false); });
  file->addAction(tr("Save experiment &as…"), QKeySequence::SaveAs, this,
                  [this] { saveDialog(true); });
  file->addSeparator();
  file->addAction(tr("&Export report…"), QKeySequence(tr("Ctrl+E")), this,
                  &MainWindow::exportReportDialog);
  file->addAction(tr("Export image &size and DPI…"), this, [this] {
    ExportImageDialog dialog(this);
    dialog.exec();
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run_action_ = run->addAction(tr("&Run experiment"), this, &MainWindow::startRun);
  run_action_->setShortcut(QKeySequence(tr("Ctrl+R")));
  cancel_action_ = run->addAction(tr("&Cancel run"), controller_, &RunController::cancel);
  cancel_action_->setShortcuts({QKeySequence(Qt::Key_Escape), QKeySequence(tr("Ctrl+."))});

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("Show &welcome"), this, [this] { welcome_->show(); });
  about_action_ = help->addAction(tr("&About dplab"), this, [this] {
    QMessageBox::about(this, tr("About dplab"),
                       tr("<b>dplab %1</b> — a laboratory for differentially private ML and honest "
                          "private hyperparameter selection.<br>GPL-3.0-or-later; uses Qt and "
                          "QCustomPlot.")
                           .arg(QStringLiteral(DPLAB_VERSION)));
  });
}

bool MainWindow::newExperiment() {
  if (!discard_guard_->confirmDiscard(tr("start a new experiment"))) return false;
  current_path_.clear();
  form_->setConfig(defaultExperiment());
  discard_guard_->markClean();
  setWindowTitle(tr("dplab — honest private hyperparameter selection"));
  return true;
}

QList<ChartView*> MainWindow::charts() const {
  QList<ChartView*> list = accuracy_->charts();
  list << heatmap_->chart() << privacy_utility_->chart() << parallel_->chart()
       << privacy_->charts() << step_size_->chart();
  return list;
}

double MainWindow::longestStallMs() const {
  return stall_->longestGapMs();
}

void MainWindow::updateActions() {
  const bool running = controller_->running();
  const QStringList errors = form_->errors();
  const bool can_run = !running && errors.isEmpty();
  run_action_->setEnabled(can_run);
  run_button_->setEnabled(can_run);
  cancel_action_->setEnabled(running);
  cancel_button_->setEnabled(running);
  run_button_->setToolTip(errors.isEmpty()
                              ? tr("Train every candidate of the experiment (Ctrl+R).")
                              : tr("Fix first:\n• %1").arg(errors.join(QStringLiteral("\n• "))));
}

void MainWindow::syncPrivacyTab() {
  // The teaching tab starts from the experiment's mechanism (one way only: the tab's own controls
  // are free to explore afterwards until the form changes again).
  const auto c = form_->config();
  const qint64 n = form_->trainingSize();
  if (n > 0 && form_->privacy()->error().isEmpty()) {
    privacy_->setSettings(c.privacy.noise_multiplier, static_cast<int>(c.privacy.lot_size),
                          static_cast<int>(c.privacy.steps), n, c.privacy.delta.value_or(0.0));
  }
}

bool MainWindow::startRun() {
  if (controller_->running() || !form_->isValid()) return false;
  const experiment::ExperimentConfig config = form_->config();
  QSettings().setValue(QStringLiteral("run/threads"), form_->threads());
  stall_->reset();
  if (!controller_->start(config, form_->loadedData(), form_->threads())) return false;
  status_->addMessage(tr("Run started: %1").arg(QString::fromStdString(config.name)), false);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_text_->setText(tr("loading data and starting workers …"));
  tabs_->setCurrentWidget(accuracy_);
  updateActions();
  return true;
}

void MainWindow::onProgress() {
  const tuning::Progress p = controller_->progress();
  progress_->setRange(0, static_cast<int>(std::max<std::int64_t>(1, p.jobs_total)));
  progress_->setValue(static_cast<int>(p.jobs_done));
  if (p.paused) {
    progress_text_->setText(tr("paused · %1 / %2 steps").arg(p.steps_done).arg(p.steps_total));
    return;
  }
  progress_text_->setText(tr("%1 steps/s · ETA %2 · %3 / %4 steps")
                              .arg(p.steps_per_second, 0, 'f', 0)
                              .arg(formatDuration(p.eta_seconds))
                              .arg(p.steps_done)
                              .arg(p.steps_total));
}

void MainWindow::onRunFinished(bool ok, bool cancelled) {
  updateActions();
  const tuning::Progress p = controller_->progress();
  progress_->setValue(progress_->maximum() * (ok && !cancelled ? 1 : 0) +
                      (ok && !cancelled ? 0 : static_cast<int>(p.jobs_done)));
  progress_text_->setText(!ok         ? tr("failed — see Messages")
                          : cancelled ? tr("cancelled after %1 s").arg(p.elapsed_seconds, 0, 'f', 1)
                                      : tr("done in %1 s (%2 steps/s)")
                                            .arg(p.elapsed_seconds, 0, 'f', 1)
                                            .arg(p.steps_per_second, 0, 'f', 0));
  status_->addMessage(!ok         ? tr("Run failed.")
                      : cancelled ? tr("Run cancelled; finished jobs are kept.")
                                  : tr("Run finished. Longest GUI stall during the run: %1 ms.")
                                        .arg(longestStallMs(), 0, 'f', 1),
                      !ok);
  emit runFinished(ok, cancelled);
}

bool MainWindow::openExperiment(const QString& path, QString* error) {
  const bool resource = path.startsWith(QStringLiteral(":/"));
  try {
    experiment::ExperimentConfig config;
    if (resource) {
      QFile file(path);
      if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error(tr("cannot read %1").arg(path).toStdString());
      config = experiment::parse_experiment_text(file.readAll().toStdString(), path.toStdString());
    } else {
      config = experiment::load_experiment_file(path.toStdString());
    }
    current_path_ = resource ? QString() : path;
    form_->setConfig(config);
    discard_guard_->markClean();
    if (!resource) addRecent(path);
    setWindowTitle(tr("dplab — %1").arg(QFileInfo(path).fileName()));
    status_->addMessage(tr("Opened %1").arg(path), false);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    status_->addMessage(QString::fromStdString(e.what()), true);
    return false;
  }
}

bool MainWindow::saveExperiment(const QString& path, QString* error) {
  QSaveFile file(path);
  const QByteArray bytes =
      QByteArray::fromStdString(experiment::to_json(form_->config()).dump(2) + "\n");
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
    if (error) *error = tr("cannot save %1: %2").arg(path, file.errorString());
    return false;
  }
  current_path_ = path;
  discard_guard_->markClean();
  addRecent(path);
  return true;
}

namespace {
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
    if (error) *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}
}  // namespace

bool MainWindow::exportReport(const QString& dir, QString* error) {
  // A report describes the results it shows: their own config and summary, never the form's
  // (which may have been edited since, or belong to another run than a history one). Writing it
  // changes neither the current experiment file nor the recent files.
  if (!data_->hasRun()) {
    if (error)
      *error = tr("nothing to report yet: run the experiment or open a run from the history");
    return false;
  }
  if (!QDir().mkpath(dir)) {
    if (error) *error = tr("cannot create folder %1").arg(dir);
    return false;
  }
  const QDir d(dir);
  const tuning::SearchResults& results = data_->results();
  QString e;
  try {
    const tuning::RunSummary summary = tuning::summarize_run(results);
    if (!writeFileAtomically(
            d.filePath(QStringLiteral("experiment.json")),
            QByteArray::fromStdString(experiment::to_json(results.config).dump(2) + "\n"), &e) ||
        !writeFileAtomically(
            d.filePath(QStringLiteral("summary.json")),
            QByteArray::fromStdString(tuning::run_summary_json(results, summary).dump(2) + "\n"),
            &e) ||
        !writeFileAtomically(
            d.filePath(QStringLiteral("README.md")),
            QByteArray::fromStdString(tuning::run_summary_markdown(results, summary)), &e)) {
      if (error) *error = e;
      return false;
    }
    store::export_csv(results, d.absolutePath().toStdString());
  } catch (const std::exception& ex) {
    if (error) *error = QString::fromStdString(ex.what());
    return false;
  }
  const ImageExportOptions options = ExportImageDialog::savedOptions();
  for (ChartView* chart : charts()) {
    for (const char* suffix : {"png", "pdf", "svg"}) {
      if (!chart->exportImage(d.filePath(chart->fileStem() + "." + suffix), options, &e)) {
        if (error) *error = e;
        return false;
      }
    }
    if (!chart->exportCsv(d.filePath(chart->fileStem() + ".csv"), &e)) {
      if (error) *error = e;
      return false;
    }
  }
  if (!results_->exportCsv(d.filePath(QStringLiteral("results.csv")), &e)) {
    if (error) *error = e;
    return false;
  }
  return true;
}

QString MainWindow::shownRunText() const {
  return shown_run_->text();
}

bool MainWindow::formModifiedSinceShownRun() const {
  if (!data_->hasRun()) return false;
  nlohmann::json form = experiment::to_json(form_->config());
  nlohmann::json run = experiment::to_json(data_->results().config);
  form.erase("name");  // the name is a label, not part of what was run
  run.erase("name");
  return form != run;
}

void MainWindow::updateShownRun() {
  if (!data_->hasRun()) {
    shown_run_->setText(tr("No run shown yet — Ctrl+R runs the experiment on the left."));
    shown_run_->setStyleSheet(QString());
    return;
  }
  QString text =
      tr("Showing: %1%2")
          .arg(data_->title().toHtmlEscaped(), data_->live() ? tr(" (running)") : QString());
  const bool modified = formModifiedSinceShownRun();
  if (modified)
    text += tr(" · <b>form modified since this run</b> (charts show the run, not the form)");
  shown_run_->setText(text);
  shown_run_->setStyleSheet(modified ? QStringLiteral("color: #8a4b00;") : QString());
}

void MainWindow::openDialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open experiment"), settings.value(QStringLiteral("files/lastDir")).toString(),
      tr("Experiments (*.json)"));
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("files/lastDir"), QFileInfo(path).absolutePath());
  openExperiment(path, nullptr);
}

void MainWindow::saveDialog(bool save_as) {
  QString path = current_path_;
  if (save_as || path.isEmpty()) {
    path = QFileDialog::getSaveFileName(this, tr("Save experiment"),
                                        path.isEmpty() ? QStringLiteral("experiment.json") : path,
                                        tr("Experiments (*.json)"));
    if (path.isEmpty()) return;
  }
  QString error;
  if (saveExperiment(path, &error)) {
    status_->addMessage(tr("Saved %1").arg(path), false);
  } else {
    status_->addMessage(error, true);
  }
}

void MainWindow::exportReportDialog() {
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Export report into folder"),
      QSettings().value(QStringLiteral("export/lastDir")).toString());
  if (dir.isEmpty()) return;
  QString error;
  if (exportReport(dir, &error)) {
    status_->addMessage(tr("Report written to %1").arg(dir), false);
  } else {
    status_->addMessage(tr("report: %1").arg(error), true);
  }
}

void MainWindow::addRecent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value(QStringLiteral("files/recent")).toStringList();
  recent.removeAll(path);
  recent.prepend(QFileInfo(path).absoluteFilePath());
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue(QStringLiteral("files/recent"), recent);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recent_menu_->clear();
  const QStringList recent = QSettings().value(QStringLiteral("files/recent")).toStringList();
  for (const QString& path : recent) {
    recent_menu_->addAction(path, this, [this, path] { openExperiment(path, nullptr); });
  }
  recent_menu_->setEnabled(!recent.isEmpty());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  controller_->cancel();
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  event->accept();
}

}  // namespace dplab::ui
