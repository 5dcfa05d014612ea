#include "shell/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "charts/chart_view.h"
#include "charts/export_dialog.h"
#include "charts/theme.h"
#include "experiment/run_count_visibility.h"
#include "form/experiment_form.h"
#include "form/presets.h"
#include "form/privacy_section.h"
#include "playground/playground_window.h"
#include "run/cluster_panel.h"
#include "run/history_panel.h"
#include "run/pause_button.h"
#include "run/run_controller.h"
#include "run/run_data.h"
#include "shell/diagnostics_panel.h"
#include "shell/discard_guard.h"
#include "shell/experiment_files.h"
#include "shell/report_exporter.h"
#include "shell/result_tabs.h"
#include "shell/run_bar.h"
#include "shell/shown_run_label.h"
#include "shell/stall_meter.h"
#include "shell/status_panel.h"
#include "shell/welcome_panel.h"
#include "tuning/release_cost.h"
#include "tuning/run_summary.h"
#include "views/accountant_gap_view.h"
#include "views/accuracy_tab.h"
#include "views/heatmap_tab.h"
#include "views/paper_figure_tabs.h"
#include "views/parallel_coordinates_tab.h"
#include "views/privacy_tab.h"
#include "views/privacy_utility_tab.h"
#include "views/released_winner_tab.h"
#include "views/results_model.h"
#include "views/results_tab.h"
#include "views/step_size_tab.h"
#include "views/subsampled_tuning_view.h"

namespace dplab::ui {
namespace {

// The run bar speaks of the run the charts show (it kept the last local run's "done in …").
void showViewedRun(const RunData& data, RunBar* bar) {
  const tuning::SearchResults& runs = data.runs();
  std::int64_t finished = 0;
  for (const tuning::JobResult& job : runs.jobs)
    finished += job.status == tuning::JobStatus::kFinished ? 1 : 0;
  bar->showViewed(data.title(), finished, static_cast<std::int64_t>(runs.jobs.size()),
                  experiment::hides_run_count(runs.config.release));
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("dplab — honest private hyperparameter selection"));
  files_ = new ExperimentFiles(this);
  data_ = new RunData(this);
  controller_ = new RunController(data_, this);
  exporter_ = new ReportExporter(this);
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
  // Narrow enough for a 1280 × 720 screen; the form scrolls vertically and can be widened.
  scroll->setMinimumWidth(std::min(form_->sizeHint().width() + 24, 330));
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  form_dock_ = new QDockWidget(tr("Experiment"), this);
  form_dock_->setObjectName(QStringLiteral("experimentDock"));
  form_dock_->setWidget(scroll);
  form_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  addDockWidget(Qt::LeftDockWidgetArea, form_dock_);

  // Centre: run bar, which run is shown, tabs.
  auto* centre = new QWidget(this);
  auto* centre_layout = new QVBoxLayout(centre);
  centre_layout->setContentsMargins(4, 4, 4, 0);
  run_bar_ = new RunBar(centre);
  run_bar_->insertControl(new PauseButton(controller_, run_bar_));
  centre_layout->addWidget(run_bar_);
  shown_run_ = new ShownRunLabel(data_, form_, centre);
  centre_layout->addWidget(shown_run_);
  private_banner_ = new QLabel(
      tr("⚠ Not private: for teaching only. Every run of this private selection is shown; the ε "
         "covers only the released winner (switch it off in “Released winner”)."),
      centre);
  private_banner_->setObjectName(QStringLiteral("privateBanner"));
  private_banner_->setWordWrap(true);
  private_banner_->setStyleSheet(QStringLiteral(
      "QLabel { background: #b00020; color: white; font-weight: bold; padding: 4px; }"));
  private_banner_->setVisible(false);
  centre_layout->addWidget(private_banner_);
  // Filled below, once the history panel exists.
  auto* cluster_slot = new QVBoxLayout;
  cluster_slot->setContentsMargins(0, 0, 0, 0);
  centre_layout->addLayout(cluster_slot);
  welcome_ = new WelcomePanel(centre);
  welcome_->setVisible(WelcomePanel::shouldShow());
  centre_layout->addWidget(welcome_);
  tabs_ = new ResultTabs(data_, centre);
  centre_layout->addWidget(tabs_, 1);
  setCentralWidget(centre);

  // Bottom: messages, history, diagnostics.
  bottom_dock_ = new QDockWidget(tr("Messages and run history"), this);
  bottom_dock_->setObjectName(QStringLiteral("bottomDock"));
  bottom_dock_->setWidget(buildBottomPanel());
  bottom_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  addDockWidget(Qt::BottomDockWidgetArea, bottom_dock_);
  resizeDocks({bottom_dock_}, {kBottomDockHeight}, Qt::Vertical);

  cluster_ = new ClusterPanel(data_, controller_, history_, centre);
  cluster_slot->addWidget(cluster_);

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
  connect(cluster_, &ClusterPanel::message, this, to_status);
  connect(cluster_, &ClusterPanel::attachedChanged, this, [this](bool attached) {
    if (attached) stall_->reset();  // the stall meter measures the time attached
  });
  connect(tabs_, &ResultTabs::message, this, to_status);
  connect(data_, &RunData::changed, this, [this](bool structural) {
    if (structural) syncPrivateView();
    // A run the charts show but this window did not start (a cluster plan being watched, a
    // history run): the run bar names it and counts its jobs as they arrive, instead of keeping
    // the last local run's "done in …".
    if (data_->hasRun() && !data_->startedFromForm() && !controller_->running())
      showViewedRun(*data_, run_bar_);
  });
  connect(data_, &RunData::revealChanged, this, &MainWindow::syncPrivateView);
  // Charts and tables whose numbers depend on the shown search carry its ε label in their CSV.
  QList<ChartView*> all_charts = charts();
  all_charts << tabs_->winner()->chart();
  for (ChartView* chart : all_charts) {
    if (!tabs_->privacy()->charts().contains(chart))
      chart->setCsvConstantColumns([this] { return searchCsvColumns(); });
  }
  connect(history_, &HistoryPanel::opened, this,
          [this] { tabs_->showRunStart(data_->isPrivate()); });
  connect(tabs_->accountantGap(), &AccountantGapView::experimentSettingsRequested, this, [this] {
    const auto c = form_->config();
    const qint64 n = form_->trainingSize();
    if (n <= 0 || !form_->privacy()->error().isEmpty()) {
      status_->addMessage(tr("Accountants disagree: the experiment's data or privacy fields are "
                             "not ready (see the form)."),
                          true);
      return;
    }
    tabs_->accountantGap()->setExperimentSettings(
        c.privacy.noise_multiplier,
        static_cast<double>(c.privacy.lot_size) / static_cast<double>(n),
        static_cast<int>(c.privacy.steps), form_->privacy()->resolvedDelta(), 40);
  });
  connect(welcome_, &WelcomePanel::runRequested, this, &MainWindow::startRun);
  connect(welcome_, &WelcomePanel::playgroundRequested, this, [this] { openPlayground(); });
  connect(welcome_, &WelcomePanel::presetsRequested, this,
          [this] { preset_menu_->popup(mapToGlobal(rect().center())); });
  connect(controller_, &RunController::pausedChanged, this, [this](bool paused) {
    status_->addMessage(paused ? tr("Run paused: jobs wait before their next step; nothing is "
                                    "lost. Resume with F8.")
                               : tr("Run resumed."),
                        false);
  });
  // A history run's experiment into the form, asking before it discards edits.
  connect(
      history_, &HistoryPanel::configRequested, this,
      [this](const experiment::ExperimentConfig& config) {
        if (!discard_guard_->confirmDiscard(tr("load the run's experiment"))) return;
        files_->clearCurrentPath();
        form_->setConfig(config);
        discard_guard_->markClean();
        status_->addMessage(
            tr("The form holds the experiment of “%1”.").arg(QString::fromStdString(config.name)),
            false);
      });
  connect(history_, &HistoryPanel::opened, this, [this] {
    tabs_->setCurrentWidget(tabs_->accuracy());
    showViewedRun(*data_, run_bar_);
  });
  connect(status_, &StatusPanel::latest, this, [this](const QString& text, bool is_error) {
    status_text_->setText(is_error ? QStringLiteral("⚠ ") + text : text);
  });
  connect(form_, &ExperimentForm::validityChanged, this, &MainWindow::updateActions);
  connect(form_, &ExperimentForm::edited, this, [this] {
    updateActions();
    syncPrivacyTab();
    shown_run_->refresh();
  });
  connect(run_bar_, &RunBar::runClicked, this, &MainWindow::startRun);
  connect(run_bar_, &RunBar::cancelClicked, controller_, &RunController::cancel);
  connect(controller_, &RunController::progressChanged, run_bar_, &RunBar::showProgress);
  connect(controller_, &RunController::started, this, &MainWindow::onRunStarted);
  connect(controller_, &RunController::finished, this, &MainWindow::onRunFinished);
  connect(files_, &ExperimentFiles::recentChanged, this, &MainWindow::rebuildRecentMenu);
  connect(exporter_, &ReportExporter::finished, this,
          [this](bool ok, const QString& dir, const QString& error) {
            status_->addMessage(
                ok ? tr("Report written to %1").arg(dir) : tr("report: %1").arg(error), !ok);
            emit reportExported(ok, dir, error);
          });

  // Settings and the starting experiment.
  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
  restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  // A layout saved on a short screen: moved back below the charts once the window is tall.
  compact_docks_ = dockWidgetArea(bottom_dock_) != Qt::BottomDockWidgetArea;
  if (!settings.contains(QStringLiteral("window/geometry"))) resize(1500, 940);
  // Small screens: never larger than the available desktop (the window fits 1280 × 720), its
  // frame included: at the available height the title bar pushed the status bar below a
  // 1024 × 768 screen at first launch (issue #44). The frame is not known before the window is
  // shown: the style's title bar and frame stand for it.
  if (const QScreen* screen = this->screen()) {
    const QRect available = screen->availableGeometry();
    const int frame = style()->pixelMetric(QStyle::PM_MdiSubWindowFrameWidth);
    const QSize room(
        available.width() - 2 * frame,
        available.height() - style()->pixelMetric(QStyle::PM_TitleBarHeight) - 2 * frame);
    if (width() > room.width() || height() > room.height()) {
      resize(std::min(width(), room.width()), std::min(height(), room.height()));
      move(available.topLeft());
    }
  }
  newExperiment();
  discard_guard_ = new DiscardGuard(form_, this);
  form_->setThreads(settings.value(QStringLiteral("run/threads"), 0).toInt());
  rebuildRecentMenu();
  history_->reload();
  updateActions();
  syncPrivateView();
  status_->addMessage(tr("Ready. Ctrl+R runs the experiment on the left."), false);
}

MainWindow::~MainWindow() = default;

QWidget* MainWindow::buildBottomPanel() {
  status_ = new StatusPanel(this);
  history_ = new HistoryPanel(controller_, data_, this);
  auto* bottom_tabs = new QTabWidget(this);
  bottom_tabs->addTab(status_, tr("Messages"));
  bottom_tabs->addTab(history_, tr("Run history"));
  bottom_tabs->addTab(new DiagnosticsPanel(stall_, this), tr("Diagnostics"));
  return bottom_tabs;
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  new_action_ = file->addAction(tr("&New (default experiment)"), QKeySequence::New, this, [this] {
    if (!discard_guard_->confirmDiscard(tr("start a new experiment"))) return;
    newExperiment();
    discard_guard_->markClean();
  });
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
  open_cluster_action_ =
      file->addAction(tr("Open &cluster run…"), this, &MainWindow::openClusterDialog);
  open_cluster_action_->setToolTip(
      tr("Watch a plan folder of dplab-cli tune --plan / slurm while its shards run elsewhere"));
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
  pause_action_ =
      run->addAction(tr("&Pause / resume run"), controller_, &RunController::togglePause);
  pause_action_->setShortcut(QKeySequence(Qt::Key_F8));

  // Ctrl+Tab / Ctrl+Shift+Tab step through the visible result tabs wherever the focus is. (The
  // tab widget's own Ctrl+Tab needs the focus inside it, and that focus left with the hidden
  // page after the first press.)
  QMenu* view = menuBar()->addMenu(tr("&View"));
  next_tab_action_ = view->addAction(tr("&Next tab"), this, [this] { stepTab(+1); });
  next_tab_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Tab));
  QAction* previous_tab = view->addAction(tr("&Previous tab"), this, [this] { stepTab(-1); });
  previous_tab->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab),
                              QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab)});

  // The window's colours: the desktop's (Fusion with the system palette), light or dark; charts
  // follow on screen, exported figures stay as on paper (charts/theme.h).
  view->addSeparator();
  QMenu* theme_menu = view->addMenu(tr("&Theme"));
  auto* themes = new QActionGroup(this);
  const std::pair<Theme, QString> choices[] = {{Theme::kSystem, tr("&System colours")},
                                               {Theme::kLight, tr("&Light")},
                                               {Theme::kDark, tr("&Dark")}};
  for (const auto& [theme, label] : choices) {
    QAction* a = theme_menu->addAction(label);
    a->setCheckable(true);
    a->setChecked(theme == currentTheme());
    a->setObjectName(QStringLiteral("theme-") + themeName(theme));
    themes->addAction(a);
    connect(a, &QAction::triggered, this, [theme] {
      applyTheme(theme);
      saveTheme(theme);
    });
  }

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("Show &welcome"), this, [this] { welcome_->show(); });
  help->addAction(tr("&Playground (teaching DP-SGD)"), this, [this] { openPlayground(); });
  about_action_ = help->addAction(tr("&About dplab"), this, [this] {
    QMessageBox::about(this, tr("About dplab"),
                       tr("<b>dplab %1</b> — a laboratory for differentially private ML and honest "
                          "private hyperparameter selection.<br>GPL-3.0-or-later; uses Qt and "
                          "QCustomPlot.")
                           .arg(version()));
  });
}

// DPLAB_VERSION is defined for this file alone (ui/CMakeLists.txt), so a new version number
// recompiles one file, not the whole UI.
QString MainWindow::version() {
  return QStringLiteral(DPLAB_VERSION);
}

void MainWindow::stepTab(int direction) {
  const int n = tabs_->count();
  for (int step = 1; step < n; ++step) {
    const int i = ((tabs_->currentIndex() + direction * step) % n + n) % n;
    if (tabs_->isTabVisible(i) && tabs_->isTabEnabled(i)) {
      tabs_->setCurrentIndex(i);
      return;
    }
  }
}

PlaygroundWindow* MainWindow::openPlayground() {
  if (!playground_) {
    playground_ = new PlaygroundWindow(this);
    playground_->setWindowFlag(Qt::Window, true);  // its own window, owned by this one
    connect(playground_, &PlaygroundWindow::message, status_, &StatusPanel::addMessage);
  }
  playground_->show();
  playground_->raise();
  playground_->activateWindow();
  return playground_;
}

QList<ChartView*> MainWindow::charts() const {
  QList<ChartView*> list = tabs_->accuracy()->charts();
  list << tabs_->heatmap()->chart() << tabs_->privacy()->charts() << tabs_->stepSize()->chart();
  if (data_->isPrivate()) list << tabs_->winner()->chart();  // a private run's released winner
  list << tabs_->heatmap()->chart() << tabs_->privacyUtility()->chart()
       << tabs_->parallelCoordinates()->chart() << tabs_->privacy()->charts()
       << tabs_->stepSize()->chart();
  return list;
}

double MainWindow::longestStallMs() const {
  return stall_->longestGapMs();
}

QString MainWindow::currentPath() const {
  return files_->currentPath();
}

void MainWindow::updateActions() {
  const bool running = controller_->running();
  const QStringList errors = form_->errors();
  run_action_->setEnabled(!running && errors.isEmpty());
  cancel_action_->setEnabled(running);
  pause_action_->setEnabled(running);
  run_bar_->setState(running, errors);
}

QList<CsvConstantColumn> MainWindow::searchCsvColumns() const {
  if (!data_->hasRun()) return {};
  try {
    return {{QStringLiteral("epsilon_label"),
             QString::fromStdString(tuning::epsilon_csv_label(data_->releaseCost()))}};
  } catch (const std::exception& e) {
    return {
        {QStringLiteral("epsilon_label"), QStringLiteral("eps not available: %1").arg(e.what())}};
  }
}

void MainWindow::syncPrivateView() {
  // A private search shows only its released winner (ResultTabs::showRunViews); its per-run views
  // only under the explicit teaching switch, with the banner.
  const bool is_private = data_->isPrivate();
  tabs_->showRunViews(is_private, data_->revealAll());
  private_banner_->setVisible(is_private && data_->revealAll());
}

void MainWindow::syncPrivacyTab() {
  // The teaching tab starts from the experiment's mechanism (one way only: the tab's own controls
  // are free to explore afterwards until the form changes again).
  const auto c = form_->config();
  const qint64 n = form_->trainingSize();
  if (n > 0 && form_->privacy()->error().isEmpty()) {
    tabs_->privacy()->setSettings(c.privacy.noise_multiplier, static_cast<int>(c.privacy.lot_size),
                                  static_cast<int>(c.privacy.steps), n,
                                  c.privacy.delta.value_or(0.0));
    // Release "private on a subsample": the ε-vs-q chart at the experiment's settings, its q
    // marked.
    auto* subsampled_tuning = findChild<SubsampledTuningView*>();
    if (c.release.subsampled && subsampled_tuning) {
      subsampled_tuning->setSettings(
          c.privacy.noise_multiplier, static_cast<double>(c.privacy.lot_size) / n,
          static_cast<int>(c.privacy.steps), form_->privacy()->resolvedDelta(), c.release.ps_mu,
          c.release.tuning_fraction);
    }
  }
}

bool MainWindow::startRun() {
  if (controller_->running() || !form_->isValid()) return false;
  const experiment::ExperimentConfig config = form_->config();
  QSettings().setValue(QStringLiteral("run/threads"), form_->threads());
  if (!controller_->start(config, form_->loadedData(), form_->threads())) return false;
  status_->addMessage(tr("Run started: %1").arg(QString::fromStdString(config.name)), false);
  if (config.release.mode == experiment::ReleaseMode::kPrivate) {
    tabs_->setTabVisible(tabs_->indexOf(tabs_->winner()), true);
    tabs_->setCurrentWidget(tabs_->winner());
  } else {
    tabs_->setCurrentWidget(tabs_->accuracy());
  }
  return true;
}

// Every run — Run (Ctrl+R, the button, the welcome panel) or Run history → Resume — enters here
// through RunController::started, so Cancel/Esc, Pause/F8 and Run's state are the same for all.
void MainWindow::onRunStarted() {
  stall_->reset();
  // After the first run the welcome has done its job (Help → Show welcome brings it back).
  if (welcome_->isVisible()) welcome_->dismiss();
  run_bar_->showStarting(controller_->hidesRunCount());
  updateActions();
}

void MainWindow::onRunFinished(bool ok, bool cancelled) {
  updateActions();
  std::int64_t jobs_finished = 0;
  for (const tuning::JobResult& job : data_->runs().jobs)
    jobs_finished += job.status == tuning::JobStatus::kFinished ? 1 : 0;
  run_bar_->showFinished(ok, cancelled, controller_->progress(), jobs_finished,
                         controller_->released());
  status_->addMessage(!ok         ? tr("Run failed.")
                      : cancelled ? tr("Run cancelled; finished jobs are kept.")
                                  : tr("Run finished. Longest GUI stall during the run: %1 ms.")
                                        .arg(longestStallMs(), 0, 'f', 1),
                      !ok);
  emit runFinished(ok, cancelled);
}

void MainWindow::newExperiment() {
  files_->clearCurrentPath();
  try {
    form_->setConfig(defaultExperiment());
  } catch (const std::exception& e) {  // a broken build: the preset is compiled in
    status_->addMessage(tr("default experiment: %1").arg(QString::fromStdString(e.what())), true);
  }
}

bool MainWindow::openExperiment(const QString& path, QString* error) {
  QString e;
  const auto config = files_->open(path, &e);
  if (!config) {
    status_->addMessage(e, true);
    if (error) {
      *error = e;
    } else {
      // Opened by the user (File → Open, a recent file, a drop): the reason, which names the
      // field, line or byte, in a box of its own (window-modal, not blocking the loop).
      auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open the experiment"),
                                  tr("%1 was not opened.").arg(QFileInfo(path).fileName()),
                                  QMessageBox::Ok, this);
      box->setObjectName(QStringLiteral("openErrorBox"));
      box->setInformativeText(e);
      box->setAttribute(Qt::WA_DeleteOnClose);
      box->open();
    }
    return false;
  }
  form_->setConfig(*config);
  if (discard_guard_) discard_guard_->markClean();
  setWindowTitle(tr("dplab — %1").arg(QFileInfo(path).fileName()));
  status_->addMessage(tr("Opened %1").arg(path), false);
  return true;
}

bool MainWindow::saveExperiment(const QString& path, QString* error) {
  const bool saved = files_->save(form_->config(), path, error);
  if (saved) discard_guard_->markClean();
  return saved;
}

bool MainWindow::exportReport(const QString& dir, QString* error) {
  // A report describes the results it shows (data_), never the form.
  if (!data_->hasRun()) {
    if (error)
      *error = tr("nothing to report yet: run the experiment or open a run from the history");
    return false;
  }
  return exporter_->start(dir, data_->results(), data_->runs(), data_->privateRelease(),
                          data_->spentBudget(), charts(), tabs_->results()->csvTable(),
                          ExportImageDialog::savedOptions(), error);
}

QString MainWindow::shownRunText() const {
  return shown_run_->text();
}

bool MainWindow::formModifiedSinceShownRun() const {
  return shown_run_->formModifiedSinceRun();
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
  QString path = files_->currentPath();
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
    status_->addMessage(tr("Writing the report to %1 …").arg(dir), false);
  } else {
    status_->addMessage(tr("report: %1").arg(error), true);
  }
}

void MainWindow::openClusterDialog() {
  QSettings settings;
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Open cluster run (a plan folder of dplab-cli tune --plan or slurm)"),
      settings.value(QStringLiteral("cluster/lastDir")).toString());
  if (dir.isEmpty()) return;
  settings.setValue(QStringLiteral("cluster/lastDir"), dir);
  openClusterRun(dir);
}

void MainWindow::openClusterRun(const QString& dir) {
  if (welcome_->isVisible()) welcome_->dismiss();
  cluster_->attach(dir);
  tabs_->setCurrentWidget(tabs_->accuracy());
}

void MainWindow::rebuildRecentMenu() {
  recent_menu_->clear();
  const QStringList recent = ExperimentFiles::recent();
  for (const QString& path : recent) {
    recent_menu_->addAction(path, this, [this, path] { openExperiment(path, nullptr); });
  }
  recent_menu_->setEnabled(!recent.isEmpty());
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  arrangeDocks();
}

void MainWindow::arrangeDocks() {
  // A short window (a 1024 × 700 projector) gives the charts the height: the messages and run
  // history become a tab beside the form. Hysteresis, so that a drag around the limit does not
  // move the panel back and forth.
  const bool compact = compact_docks_ ? height() < kTallHeight : height() < kShortHeight;
  if (compact == compact_docks_) return;
  compact_docks_ = compact;
  if (compact) {
    tabifyDockWidget(form_dock_, bottom_dock_);
    form_dock_->raise();
  } else {
    addDockWidget(Qt::BottomDockWidgetArea, bottom_dock_);
    resizeDocks({bottom_dock_}, {kBottomDockHeight}, Qt::Vertical);
  }
}

void MainWindow::closeEvent(QCloseEvent* event) {
  controller_->cancel();
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  event->accept();
}

}  // namespace dplab::ui
