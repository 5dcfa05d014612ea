// PlaygroundWindow (playground_window.h): building its panels — the knobs on the left, the
// pictures, controls and charts in the middle, the privacy, ledger and lessons on the right — its
// menus, and the projector font.
#include <qcustomplot.h>

#include <QAbstractSpinBox>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QProxyStyle>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QStyleFactory>
#include <QTabWidget>
#include <QVBoxLayout>

#include "charts/chart_view.h"
#include "charts/theme.h"
#include "playground/lesson_panel.h"
#include "playground/plane_view.h"
#include "playground/playground_knob_choices.h"
#include "playground/playground_labels.h"
#include "playground/playground_window.h"
#include "playground/steady_label.h"
#include "playground/step_view.h"
#include "playground/study_views.h"

namespace dplab::ui {

using namespace dplab::playground;
using namespace playground_knobs;

namespace {

// The side panel's least width in the normal and the projector font (setLargeFont).
constexpr int kSidePanelMinWidth = 220;
constexpr int kLargeSidePanelMinWidth = 262;
// The charts' height. In the projector font their plots keep 120 px under the legend and axes
// (at 240 px, 100): the pictures give the 30 px, as they are letterboxed above their width (the
// plane was 220 x 322 at 1024 x 768); the window's minimum still fits 1024 x 768 and 1280 x 720.
constexpr int kChartMinHeight = 240;
constexpr int kLargeChartMinHeight = 270;
// In the projector font a knob's field is this many digits wide (its text scrolls inside it):
// the spin boxes' own minimum holds their longest value (δ's 0.0000000001), 190 px each, and
// the knob column alone took a third of a 1024-pixel projector.
constexpr int kLargeKnobFieldDigits = 7;

// The picture tabs in the projector font: the application's style with half its horizontal
// padding inside each tab, so that the four titles ("step", "C", "α–C", "vs OP": 242 px with the
// style's padding) are whole in the ~210 px a 1024-pixel projector leaves them, not elided.
class CompactTabStyle : public QProxyStyle {
 public:
  explicit CompactTabStyle(QStyle* base) : QProxyStyle(base) {}
  int pixelMetric(PixelMetric metric, const QStyleOption* option,
                  const QWidget* widget) const override {
    const int value = QProxyStyle::pixelMetric(metric, option, widget);
    return metric == PM_TabBarTabHSpace ? value / 2 : value;
  }
};

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

// The side panel's two group titles: set when built, and again when the projector font's tabs
// give the groups back (arrangeSidePanel).
QString ledgerTitle() {
  return PlaygroundWindow::tr("Ledger: the cost of trying");
}
QString lessonsTitle() {
  return PlaygroundWindow::tr("Lessons");
}

}  // namespace

QWidget* PlaygroundWindow::buildMiddle(QWidget* parent) {
  auto* middle = new QWidget(parent);
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
  // The step and epsilon spent get a row of their own under the buttons: beside them they
  // widened the middle column past what a 1024-pixel screen leaves it (issue #27).
  step_label_ = new SteadyLabel(longest_step_label_text(), 120, middle);
  step_label_->setObjectName(QStringLiteral("pgStepLabel"));
  speed_->setMinimumWidth(60);
  controls->addWidget(play_button_);
  controls->addWidget(step_button_);
  controls->addWidget(reset_button_);
  controls->addWidget(spread_button_);
  speed_label_ = new QLabel(tr("speed"), middle);
  controls->addWidget(speed_label_);
  controls->addWidget(speed_, 1);
  middle_layout->addLayout(controls);
  middle_layout->addWidget(step_label_);
  auto* pictures = new QHBoxLayout;
  plane_ = new PlaneView(middle);
  pin_button_ = new QPushButton(tr("Pin"));
  pin_button_->setObjectName(QStringLiteral("pgPin"));
  pin_button_->setCheckable(true);
  // As wide as its longer text, so that Pin ↔ Unpin does not move the row.
  pin_button_->setMinimumWidth(pin_button_->fontMetrics().horizontalAdvance(tr("Unpin")) +
                               pin_button_->style()->pixelMetric(QStyle::PM_ButtonMargin) * 2 + 8);
  pin_button_->setToolTip(
      tr("Keep this setting's boundary and DP test curves drawn (purple) while you change a "
         "knob, to see two settings side by side. Press again to unpin."));
  plane_->setCornerWidget(pin_button_);
  picture_tabs_ = new QTabWidget(middle);
  picture_tabs_->setObjectName(QStringLiteral("pgPictureTabs"));
  picture_tabs_->setDocumentMode(true);
  // Narrow: the tab titles are elided (full title in the tooltip), never scrolled out of sight.
  picture_tabs_->setElideMode(Qt::ElideRight);
  picture_tabs_->setUsesScrollButtons(false);
  // The DP-step page: the step view over the two parameters it is drawn in (chosen below it).
  auto* step_page = new QWidget(picture_tabs_);
  step_page->setObjectName(QStringLiteral("pgStepPage"));
  auto* step_layout = new QVBoxLayout(step_page);
  step_layout->setContentsMargins(0, 0, 0, 0);
  step_view_ = new StepView(step_page);
  auto* projection = new QHBoxLayout;
  proj_a_ = new QComboBox(step_page);
  proj_a_->setObjectName(QStringLiteral("pgProjA"));
  proj_b_ = new QComboBox(step_page);
  proj_b_->setObjectName(QStringLiteral("pgProjB"));
  for (QComboBox* c : {proj_a_, proj_b_}) {
    // A network's parameter names ("h1.w[3,7]") must not widen the page.
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(6);
  }
  axes_label_ = new QLabel(tr("axes:"), step_page);
  projection->addWidget(axes_label_);
  projection->addWidget(proj_a_, 1);
  projection->addWidget(proj_b_, 1);
  step_layout->addWidget(step_view_, 1);
  step_layout->addLayout(projection);
  grid_view_ = new AlphaClipView(picture_tabs_);
  objpert_view_ = new ObjPertView(picture_tabs_);
  sweep_view_ = new ClipSweepView(picture_tabs_);
  picture_tabs_->addTab(step_page, tr("DP step"));
  picture_tabs_->addTab(sweep_view_, tr("C sweep"));
  picture_tabs_->addTab(grid_view_, tr("α–C grid"));
  // Short titles, so that none is elided at 1024 px; the full name in the tooltip.
  picture_tabs_->addTab(objpert_view_, tr("vs obj. pert."));
  picture_tabs_->setTabToolTip(0, tr("One DP-SGD step: clipping, the noisy sum, the update"));
  picture_tabs_->setTabToolTip(
      1, tr("The C sweep: final test accuracy of this setting at ten C from 0.01 to 10, with and "
            "without noise (computed while the tab is shown; the DP runs go into the ledger)"));
  picture_tabs_->setTabToolTip(2, tr("The α–C grid: final test accuracy over 5 × 5 settings"));
  picture_tabs_->setTabToolTip(3, tr("vs objective perturbation, trained at the same ε"));
  pictures->addWidget(plane_, 1);
  pictures->addWidget(picture_tabs_, 1);
  middle_layout->addLayout(pictures, 3);
  // The last lot (clipped fraction, SNR, C_t) across the whole middle: one or two lines.
  clip_label_ = new SteadyLabel(longest_clip_label_text(), 100, middle);
  clip_label_->setObjectName(QStringLiteral("pgClipLabel"));
  middle_layout->addWidget(clip_label_);
  auto* charts = new QHBoxLayout;
  loss_chart_ = new ChartView(tr("Loss"), QStringLiteral("playground_loss"), middle);
  accuracy_chart_ = new ChartView(tr("Accuracy"), QStringLiteral("playground_accuracy"), middle);
  // Room for the axes and the legend under them at 1280 x 720 (the pictures give way; more in
  // the projector font, setLargeFont).
  for (ChartView* chart : {loss_chart_, accuracy_chart_}) chart->setMinimumHeight(kChartMinHeight);
  charts->addWidget(loss_chart_);
  charts->addWidget(accuracy_chart_);
  middle_layout->addLayout(charts, 2);

  for (ChartView* chart : {loss_chart_, accuracy_chart_}) {
    QCustomPlot* plot = chart->plot();
    plot->xAxis->setLabel(tr("step"));
    const struct {
      QColor colour;
      Qt::PenStyle style;
      QString name;
    } series[] = {{QColor(214, 39, 40), Qt::SolidLine, tr("DP train")},
                  {QColor(214, 39, 40), Qt::DashLine, tr("DP test")},
                  {QColor(100, 100, 100), Qt::SolidLine, tr("non-DP train")},
                  {QColor(100, 100, 100), Qt::DashLine, tr("non-DP test")},
                  {QColor(245, 147, 34), Qt::DotLine, tr("DP minority")},
                  {QColor(140, 140, 140), Qt::DotLine, tr("non-DP minority")}};
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
    // Graph 8: the pinned setting's DP test curve (pin()).
    QCPGraph* pinned = plot->addGraph();
    pinned->setPen(QPen(QColor(148, 103, 189), 2.5, Qt::DashDotLine));
    pinned->setName(tr("pinned DP test"));
    // The minority lines, the band and the pin join the legend only while drawn (updateCurves).
    for (int g : {4, 5, 7, 8}) plot->graph(g)->removeFromLegend();
    // Listed DP train, non-DP train, DP test, non-DP test (then the minority's DP and non-DP
    // lines): in two columns (the legend fills rows first) DP is the left one, non-DP the right,
    // whose widths fit a 215 px chart in the projector font (train | test columns did not).
    for (int g : {1, 3}) {
      plot->graph(g)->removeFromLegend();
      plot->graph(g)->addToLegend();
    }
    // A compact legend (small icons, no gaps, names of at most 15 characters) in as many
    // columns as fit, so that it takes two or three rows under the axes, not half the chart
    // ("non-private, minority" flowed into one column of six rows: a 40 px plot in the
    // projector font at 1280 x 720). The minority lines are test accuracy of the minority.
    plot->legend->setIconSize(18, 8);
    plot->legend->setRowSpacing(0);
    plot->legend->setColumnSpacing(6);
    plot->legend->setVisible(true);
    chart->layoutLegend(chart->width());
  }
  accuracy_chart_->plot()->yAxis->setRange(0, 1.02);
  return middle;
}

void PlaygroundWindow::fitKnobsWidth() {
  // Horizontal scrolling is off, so the panel must hold the knobs' minimum width plus the
  // vertical scroll bar and the frame; a fixed guess cut the combo boxes off at 1280 x 720.
  QWidget* knobs = knobs_scroll_->widget();
  knobs->ensurePolished();
  // In the projector font the knob groups are tabs, each far shorter than the window: no room is
  // kept for a scroll bar there (17 px of a 1024-pixel projector).
  const int bar = large_font_ ? 0 : knobs_scroll_->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
  knobs_scroll_->setFixedWidth(knobs->minimumSizeHint().width() + bar +
                               2 * knobs_scroll_->frameWidth());
}

QWidget* PlaygroundWindow::buildKnobs() {
  auto* box = new QWidget;
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(2, 2, 2, 2);

  auto* data = knob_groups_[0] = new QGroupBox(knobGroupTitles().at(0), box);
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

  auto* model = knob_groups_[1] = new QGroupBox(knobGroupTitles().at(1), box);
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

  auto* training = knob_groups_[2] = new QGroupBox(knobGroupTitles().at(2), box);
  auto* training_form = new QFormLayout(training);
  optimizer_ = new QComboBox(training);
  optimizer_->setObjectName(QStringLiteral("pgOptimizer"));
  optimizer_->addItems({QStringLiteral("DPSGD"), QStringLiteral("DPMomentum"),
                        QStringLiteral("DPAdam"), tr("non-private SGD"), tr("DPSGD, adaptive C"),
                        QStringLiteral("DP-AdamBC")});
  optimizer_->setItemData(kAdaptiveRow,
                          tr("DPSGD with adaptive clipping (quantile; Andrew et al. 2021): C_t "
                             "follows the median of the gradient norms; the clip C is C_0"),
                          Qt::ToolTipRole);
  optimizer_->setItemData(kAdamBcRow,
                          tr("DP-AdamBC (Tang et al. 2024): Adam with the noise variance (σC/L)² "
                             "subtracted from its second moment, floor 1e-8"),
                          Qt::ToolTipRole);
  sigma_ = number(training, "pgSigma", 0.1, 20, 0.1, 2);
  clip_ = number(training, "pgClip", 0.01, 20, 0.05, 2);
  auto_clip_ = new QCheckBox(tr("automatic"), training);
  auto_clip_->setObjectName(QStringLiteral("pgAutoClip"));
  auto_clip_->setToolTip(
      tr("Automatic clipping (Bu et al. 2023): every per-example gradient becomes g/(‖g‖ + 0.01), "
         "of norm < 1, so the sensitivity is 1, the noise std σ·1, and C has no effect"));
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
  training_form->addRow(tr("clipping"), auto_clip_);
  training_form->addRow(tr("lot L"), lot_);
  training_form->addRow(tr("rate α"), alpha_);
  training_form->addRow(tr("steps T"), steps_);
  training_form->addRow(tr("δ"), delta_);
  training_form->addRow(tr("seed"), seed_);
  layout->addWidget(training);
  // The projector font: the three groups become tabs (arrangeKnobs); stacked, their rows need
  // more height than a 768-pixel screen has and the column scrolled T, δ and the seed away.
  knob_tabs_ = new QTabWidget(box);
  knob_tabs_->setObjectName(QStringLiteral("pgKnobTabs"));
  knob_tabs_->setDocumentMode(true);
  knob_tabs_->hide();
  layout->addWidget(knob_tabs_);
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
  for (QCheckBox* c : {feat_x2_, feat_y2_, feat_xy_, clear_outlier_, auto_clip_}) {
    connect(c, &QCheckBox::toggled, this, &PlaygroundWindow::onKnobChanged);
  }
  return box;
}

QWidget* PlaygroundWindow::buildRightPanel() {
  auto* panel = new QWidget;
  panel->setObjectName(QStringLiteral("pgSidePanel"));
  // Its labels wrap to whatever width the splitter gives it (SteadyLabel re-reserves).
  panel->setMinimumWidth(kSidePanelMinWidth);
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

  auto* ledger = ledger_box_ = new QGroupBox(ledgerTitle(), panel);
  auto* ledger_layout = new QVBoxLayout(ledger);
  ledger_label_ = new SteadyLabel(longest_ledger_label_text(), 100, ledger);
  ledger_label_->setObjectName(QStringLiteral("pgLedger"));
  ledger_label_->setToolTip(
      tr("MA is what the runs you trained cost: you saw every one of them. Liu–Talwar and "
         "Papernot–Steinke are not: they are what a private selection over these settings would "
         "cost instead, one that trains a random number of runs and shows only its winner."));
  ledger_label_->setTextFormat(Qt::RichText);
  ledger_list_ = new QListWidget(ledger);
  ledger_list_->setObjectName(QStringLiteral("pgLedgerList"));
  ledger_list_->setMaximumHeight(110);
  ledger_list_->setMinimumHeight(50);  // three lines, scrolled: the lesson text needs the room
  ledger_list_->setWordWrap(true);     // the seed closes each line: spread runs differ only there
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
  auto* lessons = lessons_box_ = new QGroupBox(lessonsTitle(), panel);
  auto* lessons_layout = new QVBoxLayout(lessons);
  lessons_ = new LessonPanel(lessons);
  lessons_layout->addWidget(lessons_);
  layout->addWidget(lessons, 1);
  // The projector font: the ledger and the lessons become two tabs under the privacy group
  // (arrangeSidePanel); stacked, their large text needs more height than 720 px.
  side_tabs_ = new QTabWidget(panel);
  side_tabs_->setObjectName(QStringLiteral("pgSideTabs"));
  side_tabs_->setDocumentMode(true);
  side_tabs_->hide();
  layout->addWidget(side_tabs_, 1);
  connect(lessons_, &LessonPanel::lessonChosen, this, &PlaygroundWindow::applyLesson);
  connect(lessons_, &LessonPanel::message, this, &PlaygroundWindow::message);
  frame_label_ = new SteadyLabel(longest_frame_label_text(), 100, panel);
  frame_label_->setObjectName(QStringLiteral("pgFrame"));
  setTone(frame_label_, Tone::kNote);
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

namespace {

// Moves `boxes` from `layout` into `tabs` (the tab names them: their titles are cleared) or back
// into `layout` before `tabs`, with `titles` and `stretches`; no-op when already so.
void tabGroups(QVBoxLayout* layout, QTabWidget* tabs, const QList<QGroupBox*>& boxes,
               const QStringList& tab_names, const QStringList& titles, const QList<int>& stretches,
               bool tabbed) {
  if (tabbed == (tabs->count() > 0)) return;
  if (tabbed) {
    for (int i = 0; i < boxes.size(); ++i) {
      layout->removeWidget(boxes[i]);
      tabs->addTab(boxes[i], tab_names.at(i));
      boxes[i]->setTitle(QString());
    }
    tabs->show();
  } else {
    tabs->hide();
    tabs->clear();  // removes the pages, does not delete them
    int at = layout->indexOf(tabs);
    for (int i = 0; i < boxes.size(); ++i) {
      layout->insertWidget(at++, boxes[i], stretches.value(i));
      boxes[i]->setTitle(titles.at(i));
      boxes[i]->show();
    }
  }
}

}  // namespace

QStringList PlaygroundWindow::knobGroupTitles() {
  return {tr("Data"), tr("Model"), tr("DP-SGD")};
}

void PlaygroundWindow::arrangeKnobs(bool tabbed) {
  const QStringList titles = knobGroupTitles();
  tabGroups(static_cast<QVBoxLayout*>(knob_tabs_->parentWidget()->layout()), knob_tabs_,
            {knob_groups_[0], knob_groups_[1], knob_groups_[2]}, titles, titles, {0, 0, 0}, tabbed);
  if (tabbed) knob_tabs_->setCurrentWidget(knob_groups_[2]);  // σ, C, L, α, T, δ, seed
}

void PlaygroundWindow::arrangeSidePanel(bool tabbed) {
  tabGroups(static_cast<QVBoxLayout*>(side_tabs_->parentWidget()->layout()), side_tabs_,
            {ledger_box_, lessons_box_}, {tr("Ledger"), tr("Lesson")},
            {ledgerTitle(), lessonsTitle()}, {0, 1}, tabbed);
}

QString PlaygroundWindow::spreadText() const {
  return large_font_ ? tr("Spread ×5") : tr("Spread (5 seeds)");
}

void PlaygroundWindow::setLargeFont(bool large) {
  large_font_ = large;
  QFont f = QFont();  // the application font
  if (large) f.setPointSizeF(f.pointSizeF() * 1.6);
  setFont(f);
  arrangeSidePanel(large);
  arrangeKnobs(large);
  // The side panel's labels reserve the height of their longest text at the panel's width
  // (SteadyLabel): at 220 px the projector font's window needed 1,135 x 772. At 262 px, with the
  // brief ledger text below, they fit a 1024 x 768 projector; the splitter keeps the minimum.
  // (The knob column's width is fitted once, after its fields are sized, below.)
  QWidget* side = side_tabs_->parentWidget();
  const int side_width = large ? kLargeSidePanelMinWidth : kSidePanelMinWidth;
  side->setMinimumWidth(side_width);
  // The frame's timing line is for the one tuning the Playground, not for a class.
  frame_label_->setVisible(!large);
  // The controls' row in the projector font fits a 1024-pixel screen: shorter words (the
  // tooltips keep the long ones), the speed slider without its label.
  spread_button_->setText(spreadText());
  speed_label_->setVisible(!large);
  axes_label_->setVisible(!large);
  // The picture tabs' titles, short enough not to be elided at 1024 px (tooltips keep the rest).
  // A title of more than three characters reserves its first two and "..." as its minimum, so
  // the C sweep is "C" here: "C sweep" made the tab bar 246 px and the window 1,038 px wide.
  const QStringList picture_titles =
      large ? QStringList{tr("step"), tr("C"), tr("α–C"), tr("vs OP")}
            : QStringList{tr("DP step"), tr("C sweep"), tr("α–C grid"), tr("vs obj. pert.")};
  for (int i = 0; i < picture_tabs_->count() && i < picture_titles.size(); ++i)
    picture_tabs_->setTabText(i, picture_titles[i]);
  if (large && !compact_tabs_style_) {
    // A copy of the application's style (Fusion, charts/theme.cpp), owned by the window.
    QStyle* base = QStyleFactory::create(QApplication::style()->name());
    compact_tabs_style_ = new CompactTabStyle(base);
    compact_tabs_style_->setParent(this);
  }
  picture_tabs_->tabBar()->setStyle(large ? compact_tabs_style_ : nullptr);
  for (QComboBox* c : {proj_a_, proj_b_}) c->setMinimumContentsLength(large ? 3 : 6);
  // The α–C grid and objective-perturbation pages draw at any size: their own minimum (wide
  // legends) set the pictures' width in the projector font.
  for (QWidget* page : {static_cast<QWidget*>(grid_view_), static_cast<QWidget*>(objpert_view_),
                        static_cast<QWidget*>(sweep_view_)})
    page->setMinimumSize(large ? QSize(200, 200) : QSize(0, 0));
  ledger_label_->setLongestText(longest_ledger_label_text(large));
  refreshLedgerLabel();
  // Knob fields of a fixed number of digits in the projector font; their own minimum otherwise.
  const int field =
      fontMetrics().horizontalAdvance(QString(kLargeKnobFieldDigits, QLatin1Char('0'))) +
      fontMetrics().height() * 2;  // the arrows and the frame
  for (QWidget* knob : knobs_scroll_->widget()->findChildren<QWidget*>()) {
    if (!qobject_cast<QAbstractSpinBox*>(knob) && !qobject_cast<QComboBox*>(knob)) continue;
    if (qobject_cast<QComboBox*>(knob->parentWidget())) continue;  // a combo's own line edit
    knob->setMinimumWidth(large ? field : 0);
    QSizePolicy policy = knob->sizePolicy();
    policy.setHorizontalPolicy(large ? QSizePolicy::Preferred : QSizePolicy::Minimum);
    knob->setSizePolicy(policy);
  }
  fitKnobsWidth();
  for (ChartView* chart : {loss_chart_, accuracy_chart_}) {
    chart->setMinimumHeight(large ? kLargeChartMinHeight : kChartMinHeight);
    QFont tick = chart->plot()->xAxis->tickLabelFont();
    tick.setPointSizeF(large ? 13 : 8);
    for (QCPAxis* axis : {chart->plot()->xAxis, chart->plot()->yAxis}) {
      axis->setTickLabelFont(tick);
      axis->setLabelFont(tick);
    }
    // At 720 px the projector font leaves each chart about 80 px of plot: three value ticks
    // (five overlapped), and the legend's four rows a size smaller than the ticks.
    chart->plot()->yAxis->ticker()->setTickCount(large ? 3 : 5);
    // At 1024 px each chart is ~210 px wide: six step ticks ran together ("0 50100150").
    chart->plot()->xAxis->ticker()->setTickCount(large ? 3 : 5);
    QFont legend = tick;
    legend.setPointSizeF(large ? 11 : 8);
    chart->plot()->legend->setFont(legend);
    // Shorter line samples and gaps in the projector font: two columns fit a 215 px chart.
    chart->plot()->legend->setIconSize(large ? 14 : 18, 8);
    chart->plot()->legend->setIconTextPadding(large ? 4 : 7);
    // The title (bold) as large as the ticks in the projector font (it stayed at the normal
    // font's under 13 pt ticks; larger, it takes the plot's last pixels at 1280 x 720);
    // ChartView's own rule (application font + 1.5 pt) in the normal font.
    QFont title = chart->titleElement()->font();
    title.setPointSizeF(large ? tick.pointSizeF() : QFont().pointSizeF() + 1.5);
    chart->titleElement()->setFont(title);
    // The buttons at the normal size: they are the teacher's, and at 1024 px the projector
    // font's (150 of a chart's 215 px) cut "Accuracy".
    QFont buttons = QApplication::font();
    buttons.setPointSizeF(buttons.pointSizeF());  // set, so that the window's font is not taken
    chart->setButtonFont(buttons);
    chart->plot()->replot();
  }
}

}  // namespace dplab::ui
