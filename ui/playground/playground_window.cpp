#include "playground/playground_window.h"

#include <qcustomplot.h>
#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QPainter>
#include <QPicture>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

#include "charts/chart_export.h"
#include "charts/chart_view.h"
#include "core/error.h"
#include "core/thread_priority.h"
#include "playground/lesson_panel.h"
#include "playground/plane_view.h"
#include "playground/playground_labels.h"
#include "playground/steady_label.h"
#include "playground/step_view.h"
#include "playground/study_views.h"
#include "privacy/accounting/epsilon_display.h"

namespace dplab::ui {

using namespace dplab::playground;

namespace {

constexpr int kFrameMs = 33;  // 30 frames per second

// Model choices: hidden layer widths.
const std::vector<std::vector<int>> kModels = {{}, {4}, {8}, {4, 4}, {8, 8}};

// Optimizer combo rows: the three fixed-C DP optimizers, the non-private baseline, adaptive C.
constexpr int kNonPrivateRow = 3;
constexpr int kAdaptiveRow = 4;

int optimizer_row(const TrainingOptions& t) {
  if (!t.is_private) return kNonPrivateRow;
  if (t.optimizer == OptimizerChoice::kFixedQuantile) return kAdaptiveRow;
  return static_cast<int>(t.optimizer);
}

QDoubleSpinBox* number(QWidget* parent, const char* name, double lo, double hi, double step,
                       int decimals) {
  auto* box = new QDoubleSpinBox(parent);
  box->setObjectName(QLatin1String(name));
  box->setRange(lo, hi);
  box->setSingleStep(step);
  box->setDecimals(decimals);
  box->setKeyboardTracking(false);
  return box;
}

QSpinBox* integer(QWidget* parent, const char* name, int lo, int hi, int step) {
  auto* box = new QSpinBox(parent);
  box->setObjectName(QLatin1String(name));
  box->setRange(lo, hi);
  box->setSingleStep(step);
  box->setKeyboardTracking(false);
  return box;
}

}  // namespace

PlaygroundWindow::PlaygroundWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName(QStringLiteral("playgroundWindow"));
  setWindowTitle(tr("dplab Playground — DP-SGD, every knob at once"));
  runner_ = new PlaygroundRunner(this);
  connect(runner_, &PlaygroundRunner::snapshotReady, this,
          [this](int, const std::shared_ptr<const PlaygroundSnapshot>& s) {
            // A run of a setting the knobs have already left is not drawn (its successor is on
            // the worker): while a knob is dragged only the setting under it costs a redraw.
            if (shown_ && !(s->settings == settings_) && runner_->busy()) return;
            onSnapshot(s);
          });
  connect(runner_, &PlaygroundRunner::failed, this, [this](const QString& error) {
    pause();
    emit message(tr("Playground: %1").arg(error), true);
    step_label_->setText(tr("<span style='color:#b00'>%1</span>").arg(error.toHtmlEscaped()));
  });
  epsilon_task_ = std::make_unique<LatestOnlyTask<EpsilonQuery, PlaygroundEpsilon>>(
      this,
      [](const EpsilonQuery& q) {
        lower_this_thread_priority();  // the GUI thread keeps a core (core/thread_priority.h)
        PlaygroundEpsilon e;
        e.rdp = setting_epsilon(q.settings.training, q.train_size, privacy::Accountant::kRdp);
        e.pld = setting_epsilon(q.settings.training, q.train_size, privacy::Accountant::kPld);
        e.ledger = q.ledger.cost(q.settings, q.train_size);
        return e;
      },
      [this](int, const PlaygroundEpsilon& e) { onEpsilon(e); },
      [this](int, const QString& error) { emit message(tr("Playground ε: %1").arg(error), true); });
  study_task_ = std::make_unique<LatestOnlyTask<StudyQuery, StudyResult>>(
      this,
      [](const StudyQuery& q) {
        lower_this_thread_priority();  // the GUI thread keeps a core (core/thread_priority.h)
        StudyResult r;
        r.kind = q.kind;
        r.settings = q.settings;
        const auto cancelled = [flag = q.cancel] { return flag->load(); };
        switch (q.kind) {
          case StudyKind::kGrid:
            r.grid = alpha_clip_grid(q.settings, cancelled);
            break;
          case StudyKind::kSpread:
            r.spread = seed_spread(q.settings, cancelled);
            break;
          case StudyKind::kObjPert:
            r.objpert = objpert_baseline(q.settings);
            break;
        }
        return r;
      },
      [this](int, const StudyResult& r) { onStudy(r); },
      [this](int, const QString& error) {
        grid_view_->setStatus(QString());
        objpert_view_->setStatus(
            tr("<span style='color:#b00'>%1</span>").arg(error.toHtmlEscaped()));
        emit message(tr("Playground study: %1").arg(error), true);
      });

  auto* central = new QWidget(this);
  auto* layout = new QHBoxLayout(central);
  layout->setContentsMargins(4, 4, 4, 4);
  knobs_scroll_ = new QScrollArea(central);
  knobs_scroll_->setWidget(buildKnobs());
  knobs_scroll_->setObjectName(QStringLiteral("pgKnobs"));
  knobs_scroll_->setWidgetResizable(true);
  knobs_scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  fitKnobsWidth();
  layout->addWidget(knobs_scroll_);

  auto* middle = new QWidget(central);
  auto* middle_layout = new QVBoxLayout(middle);
  middle_layout->setContentsMargins(0, 0, 0, 0);
  auto* controls = new QHBoxLayout;
  play_button_ = new QPushButton(tr("▶ Play"), middle);
  play_button_->setObjectName(QStringLiteral("pgPlay"));
  step_button_ = new QPushButton(tr("Step"), middle);
  step_button_->setObjectName(QStringLiteral("pgStep"));
  reset_button_ = new QPushButton(tr("⟲ Reset"), middle);
  reset_button_->setObjectName(QStringLiteral("pgReset"));
  speed_ = new QSlider(Qt::Horizontal, middle);
  speed_->setObjectName(QStringLiteral("pgSpeed"));
  speed_->setRange(1, 50);
  speed_->setValue(5);
  speed_->setToolTip(tr("Steps per frame (30 frames per second)"));
  spread_button_ = new QPushButton(tr("Spread (5 seeds)"), middle);
  spread_button_->setObjectName(QStringLiteral("pgSpread"));
  spread_button_->setToolTip(
      tr("Rerun this setting with 5 seeds and draw the min–max band of the test curves: one run "
         "is not a result. The 5 runs are counted in the ledger."));
  // "step 200 / 200 · ε spent so far 20.65" wraps rather than widening the window past 1280.
  step_label_ = new SteadyLabel(longest_step_label_text(), 120, middle);
  step_label_->setObjectName(QStringLiteral("pgStepLabel"));
  speed_->setMinimumWidth(80);
  controls->addWidget(play_button_);
  controls->addWidget(step_button_);
  controls->addWidget(reset_button_);
  controls->addWidget(spread_button_);
  controls->addWidget(new QLabel(tr("speed"), middle));
  controls->addWidget(speed_, 1);
  controls->addWidget(step_label_, 2);
  middle_layout->addLayout(controls);
  auto* pictures = new QHBoxLayout;
  plane_ = new PlaneView(middle);
  picture_tabs_ = new QTabWidget(middle);
  picture_tabs_->setObjectName(QStringLiteral("pgPictureTabs"));
  picture_tabs_->setDocumentMode(true);
  step_view_ = new StepView(picture_tabs_);
  grid_view_ = new AlphaClipView(picture_tabs_);
  objpert_view_ = new ObjPertView(picture_tabs_);
  picture_tabs_->addTab(step_view_, tr("DP step"));
  picture_tabs_->addTab(grid_view_, tr("α–C grid"));
  picture_tabs_->addTab(objpert_view_, tr("vs objective perturbation"));
  pictures->addWidget(plane_, 1);
  pictures->addWidget(picture_tabs_, 1);
  middle_layout->addLayout(pictures, 3);
  auto* projection = new QHBoxLayout;
  proj_a_ = new QComboBox(middle);
  proj_a_->setObjectName(QStringLiteral("pgProjA"));
  proj_b_ = new QComboBox(middle);
  proj_b_->setObjectName(QStringLiteral("pgProjB"));
  // A long line (adaptive C_t) wraps instead of widening.
  clip_label_ = new SteadyLabel(longest_clip_label_text(), 100, middle);
  clip_label_->setObjectName(QStringLiteral("pgClipLabel"));
  projection->addWidget(clip_label_, 1);
  projection->addWidget(new QLabel(tr("step view axes:"), middle));
  projection->addWidget(proj_a_);
  projection->addWidget(proj_b_);
  middle_layout->addLayout(projection);
  auto* charts = new QHBoxLayout;
  loss_chart_ = new ChartView(tr("Loss"), QStringLiteral("playground_loss"), middle);
  accuracy_chart_ = new ChartView(tr("Accuracy"), QStringLiteral("playground_accuracy"), middle);
  // Room for the axes and the legend under them at 1280 x 720 (the pictures give way).
  for (ChartView* chart : {loss_chart_, accuracy_chart_}) chart->setMinimumHeight(240);
  charts->addWidget(loss_chart_);
  charts->addWidget(accuracy_chart_);
  middle_layout->addLayout(charts, 2);
  layout->addWidget(middle, 1);
  layout->addWidget(buildRightPanel());
  setCentralWidget(central);

  for (ChartView* chart : {loss_chart_, accuracy_chart_}) {
    QCustomPlot* plot = chart->plot();
    plot->xAxis->setLabel(tr("step"));
    const struct {
      QColor colour;
      Qt::PenStyle style;
      QString name;
    } series[] = {{QColor(214, 39, 40), Qt::SolidLine, tr("DP train")},
                  {QColor(214, 39, 40), Qt::DashLine, tr("DP test")},
                  {QColor(100, 100, 100), Qt::SolidLine, tr("non-private train")},
                  {QColor(100, 100, 100), Qt::DashLine, tr("non-private test")},
                  {QColor(245, 147, 34), Qt::DotLine, tr("DP test, minority")},
                  {QColor(140, 140, 140), Qt::DotLine, tr("non-private, minority")}};
    for (const auto& s : series) {
      QCPGraph* g = plot->addGraph();
      g->setPen(QPen(s.colour, 2, s.style));
      g->setName(s.name);
    }
    // Graphs 6 and 7: the spread band (min and max of DP test over 5 seeds), filled between.
    QCPGraph* lo = plot->addGraph();
    QCPGraph* hi = plot->addGraph();
    for (QCPGraph* g : {lo, hi}) g->setPen(QPen(QColor(214, 39, 40, 90), 1));
    hi->setBrush(QColor(214, 39, 40, 50));
    hi->setChannelFillGraph(lo);
    hi->setName(tr("DP test, 5 seeds"));
    lo->removeFromLegend();
    // The minority lines and the band join the legend only while drawn (updateCurves).
    for (int g : {4, 5, 7}) plot->graph(g)->removeFromLegend();
    // A compact legend (small icons, no gaps) in as many columns as fit, so
    // that at 1280 x 720 it takes two rows under the axes, not half the chart.
    plot->legend->setIconSize(18, 8);
    plot->legend->setRowSpacing(0);
    plot->legend->setColumnSpacing(6);
    plot->legend->setVisible(true);
    chart->layoutLegend(chart->width());
  }
  accuracy_chart_->plot()->yAxis->setRange(0, 1.02);

  connect(play_button_, &QPushButton::clicked, this, [this] { playing_ ? pause() : play(); });
  connect(step_button_, &QPushButton::clicked, this, &PlaygroundWindow::stepOnce);
  connect(reset_button_, &QPushButton::clicked, this, &PlaygroundWindow::reset);
  connect(spread_button_, &QPushButton::clicked, this, &PlaygroundWindow::computeSpread);
  connect(grid_view_, &AlphaClipView::computeRequested, this,
          &PlaygroundWindow::computeAlphaClipGrid);
  connect(objpert_view_, &ObjPertView::computeRequested, this, &PlaygroundWindow::computeObjPert);
  connect(plane_, &PlaneView::outlierPlaced, this, [this](double x, double y, int label) {
    PlaygroundSettings s = settings_;
    s.data.outlier = OutlierPoint{x, y, label};
    applySettings(s);
  });
  const auto projection_changed = [this] {
    if (writing_knobs_) return;
    projection_a_ = std::max(0, proj_a_->currentIndex());
    projection_b_ = std::max(0, proj_b_->currentIndex());
    submitRun();
  };
  connect(proj_a_, &QComboBox::currentIndexChanged, this, projection_changed);
  connect(proj_b_, &QComboBox::currentIndexChanged, this, projection_changed);

  timer_ = new QTimer(this);
  timer_->setInterval(kFrameMs);
  connect(timer_, &QTimer::timeout, this, &PlaygroundWindow::onTick);

  buildMenus();
  knobs_ = {{"dataset", dataset_},
            {"points", points_},
            {"label_noise", label_noise_},
            {"minority", minority_},
            {"data_seed", data_seed_},
            {"outlier", clear_outlier_},
            {"model", model_},
            {"activation", activation_},
            {"optimizer", optimizer_},
            {"sigma", sigma_},
            {"clip", clip_},
            {"lot", lot_},
            {"alpha", alpha_},
            {"steps", steps_},
            {"delta", delta_},
            {"seed", seed_},
            {"features", feat_x2_->parentWidget()}};
  writeKnobs(settings_);
  readKnobs();
  submitRun();
  submitEpsilon();
  resize(1280, 720);
}

PlaygroundWindow::~PlaygroundWindow() {
  timer_->stop();
  if (study_cancel_) study_cancel_->store(true);  // a study in progress stops at its next run
  study_task_.reset();
  epsilon_task_.reset();
}

void PlaygroundWindow::fitKnobsWidth() {
  // Horizontal scrolling is off, so the panel must hold the knobs' minimum width plus the
  // vertical scroll bar and the frame; a fixed guess cut the combo boxes off at 1280 x 720.
  QWidget* knobs = knobs_scroll_->widget();
  knobs->ensurePolished();
  const int bar = knobs_scroll_->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
  knobs_scroll_->setFixedWidth(knobs->minimumSizeHint().width() + bar +
                               2 * knobs_scroll_->frameWidth());
}

QWidget* PlaygroundWindow::buildKnobs() {
  auto* box = new QWidget;
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(2, 2, 2, 2);

  auto* data = new QGroupBox(tr("Data"), box);
  auto* data_form = new QFormLayout(data);
  dataset_ = new QComboBox(data);
  dataset_->setObjectName(QStringLiteral("pgDataset"));
  dataset_->addItems({tr("Two Gaussians"), tr("Circles"), tr("XOR"), tr("Spiral")});
  points_ =
      integer(data, "pgPoints", static_cast<int>(kMinPoints), static_cast<int>(kMaxPoints), 50);
  label_noise_ = number(data, "pgLabelNoise", 0, 0.5, 0.05, 2);
  minority_ = number(data, "pgMinority", 0, 0.3, 0.02, 2);
  minority_->setToolTip(tr("Fraction of the points in a small orange cluster (group 1)"));
  data_seed_ = integer(data, "pgDataSeed", 0, 1000000, 1);
  clear_outlier_ = new QCheckBox(tr("outlier (click the plane)"), data);
  clear_outlier_->setObjectName(QStringLiteral("pgOutlier"));
  clear_outlier_->setToolTip(tr("Click the plane to place it; untick to remove it."));
  data_form->addRow(tr("data set"), dataset_);
  data_form->addRow(tr("points n"), points_);
  data_form->addRow(tr("label noise"), label_noise_);
  data_form->addRow(tr("minority"), minority_);
  data_form->addRow(tr("data seed"), data_seed_);
  data_form->addRow(clear_outlier_);
  layout->addWidget(data);

  auto* model = new QGroupBox(tr("Model"), box);
  auto* model_form = new QFormLayout(model);
  model_ = new QComboBox(model);
  model_->setObjectName(QStringLiteral("pgModel"));
  model_->addItems({tr("logistic regression"), tr("1 hidden × 4"), tr("1 hidden × 8"),
                    tr("2 hidden × 4"), tr("2 hidden × 8")});
  activation_ = new QComboBox(model);
  activation_->setObjectName(QStringLiteral("pgActivation"));
  activation_->addItems({QStringLiteral("tanh"), QStringLiteral("ReLU")});
  auto* feature_box = new QWidget(model);
  feature_box->setObjectName(QStringLiteral("pgFeatures"));
  auto* features = new QHBoxLayout(feature_box);
  features->setContentsMargins(0, 0, 0, 0);
  feat_x2_ = new QCheckBox(QStringLiteral("x²"), feature_box);
  feat_x2_->setObjectName(QStringLiteral("pgFeatX2"));
  feat_y2_ = new QCheckBox(QStringLiteral("y²"), feature_box);
  feat_y2_->setObjectName(QStringLiteral("pgFeatY2"));
  feat_xy_ = new QCheckBox(QStringLiteral("xy"), feature_box);
  feat_xy_->setObjectName(QStringLiteral("pgFeatXY"));
  features->addWidget(feat_x2_);
  features->addWidget(feat_y2_);
  features->addWidget(feat_xy_);
  model_form->addRow(tr("model"), model_);
  model_form->addRow(tr("activation"), activation_);
  model_form->addRow(tr("features"), feature_box);
  layout->addWidget(model);

  auto* training = new QGroupBox(tr("DP-SGD"), box);
  auto* training_form = new QFormLayout(training);
  optimizer_ = new QComboBox(training);
  optimizer_->setObjectName(QStringLiteral("pgOptimizer"));
  optimizer_->addItems({QStringLiteral("DPSGD"), QStringLiteral("DPMomentum"),
                        QStringLiteral("DPAdam"), tr("non-private SGD"),
                        tr("DPSGD, adaptive C (quantile)")});
  optimizer_->setItemData(kAdaptiveRow,
                          tr("Andrew et al. 2021: C_t follows the median of the gradient norms; "
                             "the clip C is C_0"),
                          Qt::ToolTipRole);
  sigma_ = number(training, "pgSigma", 0.1, 20, 0.1, 2);
  clip_ = number(training, "pgClip", 0.01, 20, 0.05, 2);
  lot_ = number(training, "pgLot", 1, 2000, 5, 0);
  alpha_ = number(training, "pgAlpha", 0.001, 10, 0.05, 3);
  steps_ = integer(training, "pgSteps", 1, 100000, 50);
  delta_ = number(training, "pgDelta", 1e-10, 0.1, 1e-6, 10);
  seed_ = integer(training, "pgSeed", 0, 1000000, 1);
  sigma_->setToolTip(tr("σ, the noise multiplier: noise std σC on the clipped sum"));
  clip_->setToolTip(tr("C, the clipping norm of every per-example gradient"));
  lot_->setToolTip(tr("L, the expected lot size (Poisson sampling, q = L / n)"));
  alpha_->setToolTip(tr("α, the learning rate"));
  steps_->setToolTip(tr("T, the number of steps (each one costs privacy)"));
  delta_->setToolTip(tr("δ of the (ε, δ) shown; it does not change the run"));
  training_form->addRow(tr("optimizer"), optimizer_);
  training_form->addRow(tr("noise σ"), sigma_);
  training_form->addRow(tr("clip C"), clip_);
  training_form->addRow(tr("lot L"), lot_);
  training_form->addRow(tr("rate α"), alpha_);
  training_form->addRow(tr("steps T"), steps_);
  training_form->addRow(tr("δ"), delta_);
  training_form->addRow(tr("seed"), seed_);
  layout->addWidget(training);
  layout->addStretch(1);

  for (QComboBox* c : {dataset_, model_, activation_, optimizer_}) {
    connect(c, &QComboBox::currentIndexChanged, this, &PlaygroundWindow::onKnobChanged);
  }
  for (QSpinBox* s : {points_, data_seed_, steps_, seed_}) {
    connect(s, &QSpinBox::valueChanged, this, &PlaygroundWindow::onKnobChanged);
  }
  for (QDoubleSpinBox* s : {label_noise_, minority_, sigma_, clip_, lot_, alpha_, delta_}) {
    connect(s, &QDoubleSpinBox::valueChanged, this, &PlaygroundWindow::onKnobChanged);
  }
  for (QCheckBox* c : {feat_x2_, feat_y2_, feat_xy_, clear_outlier_}) {
    connect(c, &QCheckBox::toggled, this, &PlaygroundWindow::onKnobChanged);
  }
  return box;
}

QWidget* PlaygroundWindow::buildRightPanel() {
  auto* panel = new QWidget;
  panel->setFixedWidth(300);
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* privacy = new QGroupBox(tr("Privacy"), panel);
  auto* privacy_layout = new QVBoxLayout(privacy);
  epsilon_label_ = new SteadyLabel(longest_epsilon_label_text(), 100, privacy);
  epsilon_label_->setObjectName(QStringLiteral("pgEpsilon"));
  epsilon_label_->setTextFormat(Qt::RichText);
  accuracy_label_ = new SteadyLabel(longest_accuracy_label_text(), 100, privacy);
  accuracy_label_->setObjectName(QStringLiteral("pgAccuracy"));
  privacy_layout->addWidget(epsilon_label_);
  privacy_layout->addWidget(accuracy_label_);
  layout->addWidget(privacy);

  auto* ledger = new QGroupBox(tr("Ledger: the cost of trying"), panel);
  auto* ledger_layout = new QVBoxLayout(ledger);
  ledger_label_ = new SteadyLabel(longest_ledger_label_text(), 100, ledger);
  ledger_label_->setObjectName(QStringLiteral("pgLedger"));
  ledger_label_->setTextFormat(Qt::RichText);
  ledger_list_ = new QListWidget(ledger);
  ledger_list_->setObjectName(QStringLiteral("pgLedgerList"));
  ledger_list_->setMaximumHeight(110);
  ledger_list_->setWordWrap(true);  // the seed closes each line: spread runs differ only there
  ledger_list_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  ledger_list_->setResizeMode(QListView::Adjust);
  auto* reset_ledger = new QPushButton(tr("Reset ledger"), ledger);
  reset_ledger->setObjectName(QStringLiteral("pgResetLedger"));
  reset_ledger->setToolTip(tr("Forget the settings tried (the data have still been used!)"));
  ledger_layout->addWidget(ledger_label_);
  ledger_layout->addWidget(ledger_list_);
  ledger_layout->addWidget(reset_ledger);
  layout->addWidget(ledger);
  connect(reset_ledger, &QPushButton::clicked, this, &PlaygroundWindow::resetLedger);
  auto* lessons = new QGroupBox(tr("Lessons"), panel);
  auto* lessons_layout = new QVBoxLayout(lessons);
  lessons_ = new LessonPanel(lessons);
  lessons_layout->addWidget(lessons_);
  layout->addWidget(lessons, 1);
  connect(lessons_, &LessonPanel::lessonChosen, this, &PlaygroundWindow::applyLesson);
  connect(lessons_, &LessonPanel::message, this, &PlaygroundWindow::message);
  frame_label_ = new SteadyLabel(longest_frame_label_text(), 100, panel);
  frame_label_->setObjectName(QStringLiteral("pgFrame"));
  frame_label_->setStyleSheet(QStringLiteral("color: #777"));
  layout->addWidget(frame_label_);
  return panel;
}

void PlaygroundWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("Save &picture (PNG, SVG, PDF)…"), this, [this] {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save the picture"), QStringLiteral("playground.png"),
        tr("PNG images (*.png);;SVG drawings (*.svg);;PDF documents (*.pdf)"));
    if (!path.isEmpty()) savePicture(path);
  });
  file->addAction(tr("&Save state…"), this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the Playground state"),
                                                      QStringLiteral("playground-state.json"),
                                                      tr("Playground state (*.json)"));
    if (!path.isEmpty()) saveState(path);
  });
  file->addAction(tr("&Open state…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a Playground state"), {},
                                                      tr("Playground state (*.json)"));
    if (!path.isEmpty()) openState(path);
  });
  file->addSeparator();
  file->addAction(tr("Open &lesson…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a Playground lesson"), LessonPanel::userLessonDir(), tr("Lessons (*.json)"));
    if (!path.isEmpty()) lessons_->openFile(path);
  });
  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* large = view->addAction(tr("&Large font (projector)"));
  large->setObjectName(QStringLiteral("pgLargeFont"));
  large->setCheckable(true);
  large->setShortcut(QKeySequence(tr("Ctrl+L")));
  connect(large, &QAction::toggled, this, &PlaygroundWindow::setLargeFont);
  view->addAction(tr("&Unlock and show every knob"), this, [this] {
    Lesson free_play;
    free_play.title = tr("Free play").toStdString();
    free_play.settings = settings_;
    applyLesson(free_play);
  });
  QAction* full = view->addAction(tr("&Full screen"));
  full->setCheckable(true);
  full->setShortcut(QKeySequence::FullScreen);
  connect(full, &QAction::toggled, this, [this](bool on) { on ? showFullScreen() : showNormal(); });
}

QWidget* PlaygroundWindow::knob(const QString& name) const {
  const auto it = knobs_.find(name);
  return it == knobs_.end() ? nullptr : it->second;
}

void PlaygroundWindow::applyLesson(const Lesson& lesson) {
  for (const auto& [name, widget] : knobs_) {
    const std::string key = name.toStdString();
    const bool locked =
        std::find(lesson.locked.begin(), lesson.locked.end(), key) != lesson.locked.end();
    const bool hidden =
        std::find(lesson.hidden.begin(), lesson.hidden.end(), key) != lesson.hidden.end();
    widget->setProperty("pgLocked", locked);
    widget->setEnabled(!locked);
    // Hide the whole form row (label and field).
    for (QFormLayout* form : findChildren<QFormLayout*>()) {
      if (form->indexOf(widget) >= 0) form->setRowVisible(widget, !hidden);
    }
  }
  applySettings(lesson.settings);
  // The picture the lesson points at, when it is one of the tabs.
  if (lesson.picture == "grid")
    picture_tabs_->setCurrentWidget(grid_view_);
  else if (lesson.picture == "objpert")
    picture_tabs_->setCurrentWidget(objpert_view_);
  else  // plane, step, curves, ledger: the DP step beside the plane
    picture_tabs_->setCurrentWidget(step_view_);
  emit message(tr("Lesson: %1").arg(QString::fromStdString(lesson.title)), false);
}

bool PlaygroundWindow::savePicture(const QString& path) {
  const auto format = formatForSuffix(path);
  if (!format) {
    emit message(tr("Could not write the picture to %1: use .png, .svg or .pdf").arg(path), true);
    return false;
  }
  // The central area as drawn, recorded once and replayed by the charts' writer (PNG at twice
  // the screen's pixels for slides, SVG / PDF at the same physical size).
  QWidget* area = centralWidget();
  QPicture picture;
  {
    QPainter painter(&picture);
    area->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
  }
  ImageExportOptions options;
  options.width_in = area->width() / ImageExportOptions::kLogicalDpi;
  options.height_in = area->height() / ImageExportOptions::kLogicalDpi;
  options.dpi = 2 * static_cast<int>(ImageExportOptions::kLogicalDpi);
  QString error;
  if (!writePicture(picture, path, *format, options, &error)) {
    emit message(tr("Could not write the picture to %1: %2").arg(path, error), true);
    return false;
  }
  emit message(tr("Picture saved: %1").arg(path), false);
  return true;
}

void PlaygroundWindow::recordRun(const PlaygroundSettings& s, Index train_size, double accuracy) {
  const auto before = ledger_.entries().size();
  ledger_.record(s, train_size);
  ledger_.note_accuracy(s, accuracy);
  refreshLedgerLabel();
  if (ledger_.entries().size() != before) {
    ledger_list_->addItem(QString::fromStdString(ledger_.entries().back().summary));
    ledger_list_->scrollToBottom();
    submitEpsilon();  // a new candidate: the ledger's epsilon grows
  }
}

void PlaygroundWindow::computeAlphaClipGrid() {
  submitStudy(StudyKind::kGrid);
}
void PlaygroundWindow::computeSpread() {
  submitStudy(StudyKind::kSpread);
}
void PlaygroundWindow::computeObjPert() {
  submitStudy(StudyKind::kObjPert);
}

void PlaygroundWindow::submitStudy(StudyKind kind) {
  if (!settings_.training.is_private && kind != StudyKind::kSpread) {
    emit message(tr("Choose a private optimizer first: this study needs σ and C."), true);
    return;
  }
  cancelStudy();
  study_cancel_ = std::make_shared<std::atomic<bool>>(false);
  StudyQuery q;
  q.kind = kind;
  q.settings = settings_;
  q.cancel = study_cancel_;
  if (kind == StudyKind::kGrid) grid_view_->setStatus(tr("Computing 25 runs…"));
  if (kind == StudyKind::kObjPert) objpert_view_->setStatus(tr("Training…"));
  if (kind == StudyKind::kSpread) spread_button_->setText(tr("Spread: running…"));
  study_task_->submit(q);
}

void PlaygroundWindow::cancelStudy() {
  if (study_cancel_) study_cancel_->store(true);
  study_cancel_.reset();
}

void PlaygroundWindow::clearStudies() {
  cancelStudy();
  // Redraw only what was shown: every knob step comes here, and replotting two empty charts and
  // an empty heatmap on each cost the GUI thread ~5 ms per step while a student drags a knob.
  const bool had_grid = grid_.has_value(), had_spread = spread_.has_value(),
             had_objpert = objpert_.has_value();
  grid_.reset();
  spread_.reset();
  objpert_.reset();
  if (had_grid) grid_view_->heatmap()->setGrid(std::nullopt);
  grid_view_->setStatus(QString());
  if (had_objpert) objpert_view_->plane()->setField({});
  objpert_view_->setStatus(QString());
  spread_button_->setText(tr("Spread (5 seeds)"));
  if (had_spread) updateBand();
}

void PlaygroundWindow::onStudy(const StudyResult& r) {
  if (!(r.settings == settings_)) return;  // a study of a setting no longer shown
  const Index n = train_size_of(r.settings.data);
  if (r.grid && !r.grid->cancelled) {
    grid_ = r.grid;
    for (std::size_t i = 0; i < grid_->runs.size(); ++i)
      recordRun(grid_->runs[i], n, grid_->test_accuracy[i]);
    grid_view_->heatmap()->setGrid(grid_);
    const auto best = std::max_element(grid_->test_accuracy.begin(), grid_->test_accuracy.end());
    const auto at = static_cast<std::size_t>(best - grid_->test_accuracy.begin());
    grid_view_->setStatus(
        tr("Final test accuracy of each (α, C), one seed each. Best %1% at α = %2, C = %3. "
           "Red: the current setting. The 25 runs are in the ledger.")
            .arg(100 * *best, 0, 'f', 1)
            .arg(grid_->runs[at].training.learning_rate, 0, 'g', 3)
            .arg(grid_->runs[at].training.clip, 0, 'g', 3));
  }
  if (r.spread && !r.spread->cancelled) {
    spread_ = r.spread;
    for (std::size_t k = 0; k < spread_->runs.size(); ++k)
      recordRun(spread_->runs[k], n, spread_->histories[k].back().test_accuracy);
    spread_button_->setText(tr("Spread (5 seeds)"));
    updateBand();
  }
  if (r.objpert) {
    objpert_ = r.objpert;
    const auto data = std::make_shared<const PlaygroundData>(make_playground_data(r.settings.data));
    objpert_view_->plane()->setData(data);
    objpert_view_->plane()->setField(objpert_->field);
    const double dpsgd = shown_ && shown_->settings == settings_ && !shown_->history.empty()
                             ? shown_->history.back().test_accuracy
                             : std::nan("");
    objpert_view_->setStatus(
        tr("<b>Objective perturbation</b> (Algorithm 1, linear logistic model): test accuracy "
           "<b>%1%</b> at ε = %2 (δ = %3), calibrated to DP-SGD's ε = %4; σ = %5, λ = %6.<br>"
           "DP-SGD now: %7. <i>This run is a further use of the data, not counted in the "
           "ledger (another mechanism).</i>")
            .arg(100 * objpert_->test_accuracy, 0, 'f', 1)
            .arg(playground_eps_text(objpert_->epsilon))
            .arg(objpert_->delta, 0, 'g', 3)
            .arg(playground_eps_text(objpert_->target_epsilon))
            .arg(objpert_->noise_std, 0, 'g', 3)
            .arg(objpert_->regularization, 0, 'g', 3)
            .arg(std::isnan(dpsgd)
                     ? tr("not trained yet")
                     : tr("%1% after %2 steps").arg(100 * dpsgd, 0, 'f', 1).arg(shown_->steps)));
  }
}

void PlaygroundWindow::updateBand() {
  for (ChartView* chart : {loss_chart_, accuracy_chart_}) {
    const bool loss = chart == loss_chart_;
    QVector<double> x, lo, hi;
    if (spread_) {
      const SpreadBand& b = spread_->band;
      for (std::size_t i = 0; i < b.steps.size(); ++i) {
        x.push_back(static_cast<double>(b.steps[i]));
        lo.push_back(loss ? b.test_loss_min[i] : b.test_accuracy_min[i]);
        hi.push_back(loss ? b.test_loss_max[i] : b.test_accuracy_max[i]);
      }
    }
    chart->plot()->graph(6)->setData(x, lo, true);
    chart->plot()->graph(7)->setData(x, hi, true);
    if (loss) chart->fitValueRange();
    chart->plot()->replot(QCustomPlot::rpQueuedReplot);
  }
  if (shown_) updateCurves();  // the legend lists the band only while there is one
}

PlaygroundState PlaygroundWindow::state() const {
  PlaygroundState st;
  st.settings = settings_;
  st.steps = shown_ && shown_->settings == settings_ ? shown_->steps : 0;
  st.projection_a = projection_a_;
  st.projection_b = projection_b_;
  for (const auto& e : ledger_.entries()) {
    st.ledger.emplace_back(settings_from_json(nlohmann::json::parse(e.identity)),
                           e.best_test_accuracy);
  }
  return st;
}

bool PlaygroundWindow::saveState(const QString& path) {
  QSaveFile file(path);
  const std::string text = state_to_text(state());
  if (!file.open(QIODevice::WriteOnly) ||
      file.write(text.data(), static_cast<qint64>(text.size())) !=
          static_cast<qint64>(text.size()) ||
      !file.commit()) {
    emit message(tr("Could not write the state to %1").arg(path), true);
    return false;
  }
  emit message(tr("State saved: %1").arg(path), false);
  return true;
}

bool PlaygroundWindow::openState(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly) || file.size() > 4 * 1024 * 1024) {
    emit message(tr("Could not read %1 (missing or larger than 4 MB)").arg(path), true);
    return false;
  }
  try {
    const PlaygroundState st =
        state_from_text(file.readAll().toStdString(), QFileInfo(path).fileName().toStdString());
    ledger_.reset();
    ledger_list_->clear();
    for (const auto& [setting, accuracy] : st.ledger) {
      ledger_.record(setting, train_size_of(setting.data));
      ledger_.note_accuracy(setting, accuracy);
      ledger_list_->addItem(QString::fromStdString(ledger_.entries().back().summary));
    }
    pause();
    projection_a_ = st.projection_a;
    projection_b_ = st.projection_b;
    applySettings(st.settings);
    target_ = st.steps;
    submitRun();
    return true;
  } catch (const Error& e) {
    emit message(tr("Playground state: %1").arg(QString::fromUtf8(e.what())), true);
    return false;
  }
}

void PlaygroundWindow::writeKnobs(const PlaygroundSettings& s) {
  writing_knobs_ = true;
  dataset_->setCurrentIndex(static_cast<int>(s.data.shape));
  points_->setValue(static_cast<int>(s.data.num_points));
  label_noise_->setValue(s.data.label_noise);
  minority_->setValue(s.data.minority_fraction);
  data_seed_->setValue(static_cast<int>(s.data.seed));
  clear_outlier_->setChecked(s.data.outlier.has_value());
  clear_outlier_->setEnabled(s.data.outlier.has_value());
  int model = 0;
  for (std::size_t i = 0; i < kModels.size(); ++i)
    if (kModels[i] == s.model.hidden) model = static_cast<int>(i);
  model_->setCurrentIndex(model);
  activation_->setCurrentIndex(s.model.activation == HiddenActivation::kTanh ? 0 : 1);
  feat_x2_->setChecked(s.model.features.x_squared);
  feat_y2_->setChecked(s.model.features.y_squared);
  feat_xy_->setChecked(s.model.features.xy);
  optimizer_->setCurrentIndex(optimizer_row(s.training));
  sigma_->setValue(s.training.noise_multiplier);
  clip_->setValue(s.training.clip);
  lot_->setValue(s.training.lot_size);
  alpha_->setValue(s.training.learning_rate);
  steps_->setValue(static_cast<int>(s.training.steps));
  delta_->setValue(s.training.delta);
  seed_->setValue(static_cast<int>(s.training.seed));
  writing_knobs_ = false;
}

void PlaygroundWindow::readKnobs() {
  PlaygroundSettings s = settings_;
  s.data.shape = kAllDataShapes[std::max(0, dataset_->currentIndex())];
  s.data.num_points = points_->value();
  s.data.label_noise = label_noise_->value();
  s.data.minority_fraction = minority_->value();
  s.data.seed = static_cast<std::uint64_t>(data_seed_->value());
  if (!clear_outlier_->isChecked()) s.data.outlier.reset();
  s.model.hidden = kModels[static_cast<std::size_t>(std::max(0, model_->currentIndex()))];
  s.model.activation =
      activation_->currentIndex() == 0 ? HiddenActivation::kTanh : HiddenActivation::kRelu;
  s.model.features = {feat_x2_->isChecked(), feat_y2_->isChecked(), feat_xy_->isChecked()};
  const int opt = optimizer_->currentIndex();
  s.training.is_private = opt != kNonPrivateRow;
  s.training.optimizer = opt == kNonPrivateRow ? OptimizerChoice::kDpSgd
                         : opt == kAdaptiveRow ? OptimizerChoice::kFixedQuantile
                                               : static_cast<OptimizerChoice>(opt);
  s.training.noise_multiplier = sigma_->value();
  s.training.clip = clip_->value();
  // L cannot exceed the training set (the oracle's rule): the spin box follows n.
  const double n_train = static_cast<double>(train_size_of(s.data));
  lot_->setMaximum(n_train);
  s.training.lot_size = std::min(lot_->value(), n_train);
  s.training.learning_rate = alpha_->value();
  s.training.steps = steps_->value();
  s.training.delta = delta_->value();
  s.training.seed = static_cast<std::uint64_t>(seed_->value());
  sigma_->setEnabled(s.training.is_private && !sigma_->property("pgLocked").toBool());
  clip_->setEnabled(s.training.is_private && !clip_->property("pgLocked").toBool());
  settings_ = s;
}

void PlaygroundWindow::applySettings(const PlaygroundSettings& settings) {
  validate_data_options(settings.data);
  validate(settings);
  if (!(settings == settings_)) clearStudies();
  settings_ = settings;
  writeKnobs(settings_);
  readKnobs();
  target_ = 0;
  submitRun();
  submitEpsilon();
}

void PlaygroundWindow::onKnobChanged() {
  if (writing_knobs_) return;
  const PlaygroundSettings before = settings_;
  readKnobs();
  clear_outlier_->setEnabled(settings_.data.outlier.has_value());
  if (settings_ == before) return;
  clearStudies();
  target_ = 0;  // every knob restarts the run (Play keeps playing)
  submitRun();
  submitEpsilon();
}

void PlaygroundWindow::submitRun() {
  PlaygroundQuery q;
  q.settings = settings_;
  q.target_steps = target_;
  q.projection_a = projection_a_;
  q.projection_b = projection_b_;
  runner_->submit(q);
}

void PlaygroundWindow::submitEpsilon() {
  EpsilonQuery q;
  q.settings = settings_;
  q.train_size = train_size_of(settings_.data);
  q.ledger = ledger_;
  epsilon_task_->submit(q);
}

bool PlaygroundWindow::busy() const {
  return runner_->busy() || epsilon_task_->busy() || study_task_->busy();
}

void PlaygroundWindow::play() {
  if (shown_ && shown_->finished && shown_->settings == settings_) reset();
  playing_ = true;
  play_button_->setText(tr("⏸ Pause"));
  timer_->start();
}

void PlaygroundWindow::pause() {
  playing_ = false;
  play_button_->setText(tr("▶ Play"));
  timer_->stop();
}

void PlaygroundWindow::stepOnce() {
  pause();
  target_ = std::min<std::int64_t>(settings_.training.steps, target_ + 1);
  submitRun();
}

void PlaygroundWindow::reset() {
  pause();
  target_ = 0;
  submitRun();
}

void PlaygroundWindow::resetLedger() {
  ledger_.reset();
  ledger_list_->clear();
  submitEpsilon();
}

void PlaygroundWindow::setLargeFont(bool large) {
  large_font_ = large;
  QFont f = QFont();  // the application font
  if (large) f.setPointSizeF(f.pointSizeF() * 1.6);
  setFont(f);
  fitKnobsWidth();
  for (ChartView* chart : {loss_chart_, accuracy_chart_}) {
    QFont tick = chart->plot()->xAxis->tickLabelFont();
    tick.setPointSizeF(large ? 13 : 8);
    for (QCPAxis* axis : {chart->plot()->xAxis, chart->plot()->yAxis}) {
      axis->setTickLabelFont(tick);
      axis->setLabelFont(tick);
    }
    chart->plot()->legend->setFont(tick);
    chart->plot()->replot();
  }
}

void PlaygroundWindow::onTick() {
  if (!playing_ || runner_->busy()) return;  // the worker is behind: draw what we have
  if (target_ >= settings_.training.steps) {
    if (shown_ && shown_->steps >= settings_.training.steps) pause();
    return;
  }
  target_ = std::min<std::int64_t>(settings_.training.steps, target_ + speed_->value());
  submitRun();
}

void PlaygroundWindow::onSnapshot(const std::shared_ptr<const PlaygroundSnapshot>& snapshot) {
  QElapsedTimer clock;
  clock.start();
  const bool new_data = !shown_ || shown_->data != snapshot->data;
  const bool new_model = !shown_ || shown_->parameter_names != snapshot->parameter_names;
  shown_ = snapshot;
  if (new_data) plane_->setData(snapshot->data);
  plane_->setLot(snapshot->picture.lot);
  plane_->setField(snapshot->field);
  if (new_model) {
    writing_knobs_ = true;
    for (QComboBox* c : {proj_a_, proj_b_}) {
      c->clear();
      for (const auto& name : snapshot->parameter_names) c->addItem(QString::fromStdString(name));
    }
    projection_a_ = snapshot->picture.param_a;
    projection_b_ = snapshot->picture.param_b;
    proj_a_->setCurrentIndex(projection_a_);
    proj_b_->setCurrentIndex(projection_b_);
    writing_knobs_ = false;
  }
  const auto& names = snapshot->parameter_names;
  const auto name = [&](int i) {
    return i >= 0 && i < static_cast<int>(names.size())
               ? QString::fromStdString(names[static_cast<std::size_t>(i)])
               : QString();
  };
  step_view_->setPicture(snapshot->picture, snapshot->settings.training.learning_rate,
                         name(snapshot->picture.param_a), name(snapshot->picture.param_b));
  updateCurves();
  updateStepLabels();
  // The ledger: a setting counts once it has touched the data.
  if (snapshot->steps > 0 && !snapshot->history.empty()) {
    recordRun(snapshot->settings, snapshot->data->train.size(),
              snapshot->history.back().test_accuracy);
  }
  // Measure the redraw here, not at some later paint: one synchronous repaint draws everything
  // marked dirty above (the plane, the step view, the charts replotted into their buffers, the
  // labels) in one pass over the window's backing store. Each chart repainting itself at once
  // (rpImmediateRefresh) and a second picture's repaint() cost a pass each.
  plane_->repaint();
  last_compute_ms_ = snapshot->compute_ms;
  last_draw_ms_ = static_cast<double>(clock.nsecsElapsed()) / 1e6;
  frame_label_->setText(
      frame_label_text(snapshot->steps_computed, last_compute_ms_, last_draw_ms_));
  if (playing_ && snapshot->finished && snapshot->settings == settings_) pause();
}

void PlaygroundWindow::updateCurves() {
  const PlaygroundSnapshot& s = *shown_;
  const bool minority = s.settings.data.minority_fraction > 0;
  for (ChartView* chart : {loss_chart_, accuracy_chart_}) {
    const bool loss = chart == loss_chart_;
    QCustomPlot* plot = chart->plot();
    // The legend lists only what can be drawn: the minority's lines on the accuracy chart when
    // there is a minority, the band when a spread is shown.
    bool relayout = false;
    const auto listed = [&](int graph, bool on) {
      QCPGraph* g = plot->graph(graph);
      if (plot->legend->hasItemWithPlottable(g) == on) return;
      on ? g->addToLegend() : g->removeFromLegend();
      relayout = true;
    };
    listed(4, minority && !loss);
    listed(5, minority && !loss);
    listed(7, spread_.has_value());
    if (relayout) chart->layoutLegend(chart->width());
    const auto fill = [&](int graph, const std::vector<HistoryPoint>& h, auto value) {
      QVector<double> x, y;
      for (const auto& p : h) {
        x.push_back(static_cast<double>(p.step));
        y.push_back(value(p));
      }
      plot->graph(graph)->setData(x, y, true);
    };
    if (loss) {
      fill(0, s.history, [](const HistoryPoint& p) { return p.train_loss; });
      fill(1, s.history, [](const HistoryPoint& p) { return p.test_loss; });
      fill(2, s.shadow_history, [](const HistoryPoint& p) { return p.train_loss; });
      fill(3, s.shadow_history, [](const HistoryPoint& p) { return p.test_loss; });
    } else {
      fill(0, s.history, [](const HistoryPoint& p) { return p.train_accuracy; });
      fill(1, s.history, [](const HistoryPoint& p) { return p.test_accuracy; });
      fill(2, s.shadow_history, [](const HistoryPoint& p) { return p.train_accuracy; });
      fill(3, s.shadow_history, [](const HistoryPoint& p) { return p.test_accuracy; });
      fill(4, minority ? s.history : std::vector<HistoryPoint>{},
           [](const HistoryPoint& p) { return p.minority_test_accuracy; });
      fill(5, minority ? s.shadow_history : std::vector<HistoryPoint>{},
           [](const HistoryPoint& p) { return p.minority_test_accuracy; });
    }
    plot->xAxis->setRange(
        0, static_cast<double>(std::max<std::int64_t>(1, s.settings.training.steps)));
    if (loss) chart->fitValueRange();
    // Rendered into the chart's buffer now (the frame's draw time counts it); painted with the
    // rest of the frame by onSnapshot's one repaint.
    plot->replot(QCustomPlot::rpQueuedRefresh);
  }
}

void PlaygroundWindow::updateStepLabels() {
  const PlaygroundSnapshot& s = *shown_;
  step_label_->setText(step_label_text(s.steps, s.settings.training.steps, s.epsilon_spent));
  clip_label_->setText(clip_label_text(s.picture, s.settings.training));
  if (!s.history.empty() && !s.shadow_history.empty()) {
    accuracy_label_->setText(accuracy_label_text(s.history.back(), s.shadow_history.back(),
                                                 s.settings.data.minority_fraction > 0));
  }
}

void PlaygroundWindow::onEpsilon(const PlaygroundEpsilon& e) {
  epsilon_ = e;
  refreshLedgerLabel();
  epsilon_label_->setText(
      epsilon_label_text(e.rdp, e.pld, settings_.training, train_size_of(settings_.data)));
}

void PlaygroundWindow::refreshLedgerLabel() {
  if (!epsilon_) return;
  ledger_label_->setText(
      ledger_label_text(epsilon_->ledger, ledger_.best_accuracy_on(settings_.data)));
}

}  // namespace dplab::ui
