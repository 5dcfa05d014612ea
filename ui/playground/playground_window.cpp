#include "playground/playground_window.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>

#include "charts/chart_view.h"
#include "core/thread_priority.h"
#include "playground/lesson_panel.h"
#include "playground/plane_view.h"
#include "playground/playground_knob_choices.h"
#include "playground/steady_label.h"
#include "playground/step_view.h"
#include "playground/study_views.h"

namespace dplab::ui {

using namespace dplab::playground;
using namespace playground_knobs;

namespace {

constexpr int kFrameMs = 33;          // 30 frames per second
constexpr int kSettleMs = 250;        // knobs still this long: the new setting trains
constexpr int kSidePanelWidth = 300;  // the side panel's opening width (its minimum: 220)

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
          case StudyKind::kSweep:
            r.sweep = clip_sweep(q.settings, cancelled);
            break;
        }
        return r;
      },
      [this](int, const StudyResult& r) { onStudy(r); },
      [this](int, const QString& error) {
        if (sweep_pending_) {  // the sweep's tab says why it has no curve
          sweep_pending_.reset();
          sweep_view_->setStatus(
              tr("<span style='color:#b00'>%1</span>").arg(error.toHtmlEscaped()));
        }
        grid_view_->setStatus(QString());
        objpert_view_->setStatus(
            tr("<span style='color:#b00'>%1</span>").arg(error.toHtmlEscaped()));
        emit message(tr("Playground study: %1").arg(error), true);
      });

  pin_task_ = std::make_unique<LatestOnlyTask<LessonPin, TrainedRun>>(
      this,
      [](const LessonPin& pin) {
        lower_this_thread_priority();  // the GUI thread keeps a core (core/thread_priority.h)
        return trained_run(pin.settings);
      },
      [this](int, const TrainedRun& run) { onLessonPin(run); },
      [this](int, const QString& error) {
        pin_pending_.reset();
        emit message(tr("Playground: the lesson's pinned setting: %1").arg(error), true);
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

  // The pictures and the side panel (privacy, ledger, lessons) share a splitter: the side panel
  // opens 300 px wide and gives way down to its minimum on a narrow screen (1024 x 700), and a
  // teacher can drag it wider for the lesson text.
  auto* splitter = new QSplitter(Qt::Horizontal, central);
  splitter->setObjectName(QStringLiteral("pgSplitter"));
  splitter->setChildrenCollapsible(false);
  splitter->addWidget(buildMiddle(splitter));
  splitter->addWidget(buildRightPanel());
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 0);
  splitter->setSizes({1000, kSidePanelWidth});
  layout->addWidget(splitter, 1);
  setCentralWidget(central);

  connect(play_button_, &QPushButton::clicked, this, [this] { playing_ ? pause() : play(); });
  connect(step_button_, &QPushButton::clicked, this, &PlaygroundWindow::stepOnce);
  connect(reset_button_, &QPushButton::clicked, this, &PlaygroundWindow::reset);
  connect(spread_button_, &QPushButton::clicked, this, &PlaygroundWindow::computeSpread);
  connect(pin_button_, &QPushButton::toggled, this, &PlaygroundWindow::pin);
  connect(grid_view_, &AlphaClipView::computeRequested, this,
          &PlaygroundWindow::computeAlphaClipGrid);
  connect(objpert_view_, &ObjPertView::computeRequested, this, &PlaygroundWindow::computeObjPert);
  connect(picture_tabs_, &QTabWidget::currentChanged, this, [this] {
    maybeComputeSweep();
    updateSweepMark();
  });
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
  settle_timer_ = new QTimer(this);
  settle_timer_->setSingleShot(true);
  settle_timer_->setInterval(kSettleMs);
  connect(settle_timer_, &QTimer::timeout, this, [this] {
    submitRun();
    maybeComputeSweep();  // the knobs are still: the sweep of the new setting, if it is shown
  });

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
            {"clipping", auto_clip_},
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
  pin_task_.reset();
  study_task_.reset();
  epsilon_task_.reset();
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
  // A pin the previous lesson made described that lesson; this lesson's own pin (its first
  // setting, trained to its T on a worker) is pinned when it arrives (onLessonPin).
  pin_pending_.reset();
  if (pinned_ && pinned_->from_lesson) setPinned(std::nullopt);
  if (lesson.pinned) {
    pin_pending_ = lesson.pinned;
    pin_task_->submit(*lesson.pinned);
  }
  // The picture the lesson points at, when it is one of the tabs.
  if (lesson.picture == "grid")
    picture_tabs_->setCurrentWidget(grid_view_);
  else if (lesson.picture == "objpert")
    picture_tabs_->setCurrentWidget(objpert_view_);
  else if (lesson.picture == "sweep")
    picture_tabs_->setCurrentWidget(sweep_view_);
  else  // plane, step, curves, ledger: the DP step beside the plane
    picture_tabs_->setCurrentIndex(0);
  maybeComputeSweep();  // the tab may have been shown already
  // Tabbed side panel (projector font): the lesson's text, the one the class reads now.
  if (side_tabs_->count() > 0) side_tabs_->setCurrentWidget(lessons_box_);
  emit message(tr("Lesson: %1").arg(QString::fromStdString(lesson.title)), false);
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
  auto_clip_->setChecked(s.training.automatic_clipping);
  // The lot's ceiling follows the NEW data first: the previous data set's (a smaller one) would
  // clamp L (lesson 5's L = 50 became 43 after lesson 4's 60 points).
  lot_->setMaximum(static_cast<double>(train_size_of(s.data)));
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
  s.training.optimizer = optimizer_of_row(std::max(0, opt));
  s.training.noise_multiplier = sigma_->value();
  s.training.clip = clip_->value();
  // Adaptive C moves a flat C_t: automatic clipping is not offered with it.
  const bool adaptive = s.training.optimizer == OptimizerChoice::kFixedQuantile;
  s.training.automatic_clipping = auto_clip_->isChecked() && !adaptive;
  // L cannot exceed the training set (the oracle's rule): the spin box follows n.
  const double n_train = static_cast<double>(train_size_of(s.data));
  lot_->setMaximum(n_train);
  s.training.lot_size = std::min(lot_->value(), n_train);
  s.training.learning_rate = alpha_->value();
  s.training.steps = steps_->value();
  s.training.delta = delta_->value();
  s.training.seed = static_cast<std::uint64_t>(seed_->value());
  s.training.threads.count = playground::default_step_threads();  // changes no float (issue #49)
  sigma_->setEnabled(s.training.is_private && !sigma_->property("pgLocked").toBool());
  // Under automatic clipping C has no effect (the sensitivity is 1): its knob is disabled.
  clip_->setEnabled(s.training.is_private && !s.training.automatic_clipping &&
                    !clip_->property("pgLocked").toBool());
  auto_clip_->setEnabled(s.training.is_private && !adaptive &&
                         !auto_clip_->property("pgLocked").toBool());
  settings_ = s;
}

void PlaygroundWindow::applySettings(const PlaygroundSettings& settings) {
  validate_data_options(settings.data);
  validate(settings);
  const bool changed = !(settings == settings_);
  settings_ = settings;
  writeKnobs(settings_);
  readKnobs();
  if (changed) clearStudies();
  target_ = 0;
  settle_timer_->stop();  // a knob still settling is overridden by these settings
  submitRun();
  submitEpsilon();
  maybeComputeSweep();
  updateSweepMark();
}

void PlaygroundWindow::onKnobChanged() {
  if (writing_knobs_) return;
  const PlaygroundSettings before = settings_;
  readKnobs();
  clear_outlier_->setEnabled(settings_.data.outlier.has_value());
  if (settings_ == before) return;
  clearStudies();
  updateSweepMark();
  target_ = 0;  // every knob restarts the run (Play keeps playing), once the knobs are still
  settle_timer_->start();
  submitEpsilon();  // the epsilon box follows at once: it is a number, not a trained run
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
  return settle_timer_->isActive() || runner_->busy() || epsilon_task_->busy() ||
         study_task_->busy() || pin_task_->busy() || frame_rest_pending_;
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

void PlaygroundWindow::onTick() {
  // The worker is behind (draw what we have), or a knob is still moving (nothing new is trained).
  if (!playing_ || runner_->busy() || settle_timer_->isActive()) return;
  if (target_ >= settings_.training.steps) {
    if (shown_ && shown_->steps >= settings_.training.steps) pause();
    return;
  }
  target_ = std::min<std::int64_t>(settings_.training.steps, target_ + speed_->value());
  submitRun();
}

}  // namespace dplab::ui
