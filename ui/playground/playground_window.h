// PlaygroundWindow (issue #27): DP-SGD for a classroom. A small 2-D problem trains live while the
// student turns the knobs (sigma, C, L, alpha, T, delta, optimizer, data set, n, label noise,
// model); the plane shows the decision field, the step view the clipping and the noise of the
// last update, the curves the private run beside its non-private shadow (same data and seed),
// the labels epsilon of the current setting (RDP and PLD) and the ledger the honest epsilon of
// every setting tried (playground/playground_ledger.h).
//
// Threads: training runs on PlaygroundRunner's worker (latest-only queries of a target step);
// epsilon and the ledger's costs on a second latest-only worker; the studies (the alpha-C grid,
// the 5-seed spread, objective perturbation, the C sweep: playground_studies.h) on a third,
// cancelled when the setting changes; a lesson's pinned first setting (playground_lesson.h
// "pinned") on a fourth; a 33 ms timer asks for the next chunk while playing, so the GUI thread
// only draws (>= 30 frames/s). Every study run trained on the data is recorded in the ledger.
// Privacy of what is shown: the data are synthetic (generated from a public seed), so nothing
// here is private data; the epsilons are the teaching point: each label says what it covers, and
// the shadow curves are labelled "non-private (eps = inf)".
#pragma once

#include <QMainWindow>
#include <QString>
#include <QStringList>
#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <optional>

#include "async/latest_only_task.h"
#include "playground/playground_ledger.h"
#include "playground/playground_lesson.h"
#include "playground/playground_runner.h"
#include "playground/playground_session.h"
#include "playground/playground_state.h"
#include "playground/playground_studies.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QListWidget;
class QPushButton;
class QScrollArea;
class QSlider;
class QSpinBox;
class QStyle;
class QTabWidget;
class QTextBrowser;
class QTimer;

namespace dplab::ui {

class ChartView;
class LessonPanel;
class AlphaClipView;
class ClipSweepView;
class ObjPertView;
class PlaneView;
class SteadyLabel;
class StepView;

struct PlaygroundEpsilon {
  double rdp = 0, pld = 0;  // the current setting's whole run (T steps)
  playground::LedgerCost ledger;
};

class PlaygroundWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit PlaygroundWindow(QWidget* parent = nullptr);
  ~PlaygroundWindow() override;

  // The knobs' settings, and setting every knob (restarts the run).
  playground::PlaygroundSettings settings() const { return settings_; }
  void applySettings(const playground::PlaygroundSettings& settings);

  void play();
  void pause();
  void stepOnce();
  void reset();
  bool isPlaying() const { return playing_; }
  void resetLedger();
  // Projector mode: a large font everywhere in the window.
  void setLargeFont(bool large);
  bool largeFont() const { return large_font_; }

  // A lesson: its settings, its locked and hidden knobs (the others are unlocked and shown).
  void applyLesson(const playground::Lesson& lesson);
  LessonPanel* lessonPanel() const { return lessons_; }
  // The knob widget of a lesson knob name ("sigma", "clip", ...), or null.
  QWidget* knob(const QString& name) const;

  // The picture (the window's central area as drawn; PNG, SVG or PDF by the suffix, through the
  // charts' export path charts/chart_export.h writePicture) and the state file (reopens exactly:
  // the same settings trained to the same step, the same ledger). False + message() on failure.
  bool savePicture(const QString& path);
  bool saveState(const QString& path);
  bool openState(const QString& path);
  playground::PlaygroundState state() const;

  // What is on screen (tests): the last snapshot drawn, the last epsilons shown.
  const PlaygroundSnapshot* shown() const { return shown_.get(); }
  const std::optional<PlaygroundEpsilon>& shownEpsilon() const { return epsilon_; }
  const playground::PlaygroundLedger& ledger() const { return ledger_; }
  PlaneView* plane() const { return plane_; }
  StepView* stepView() const { return step_view_; }
  // True while a training, epsilon or study query is outstanding.
  bool busy() const;

  // The studies (playground_studies.h), on the study worker; a newer study or a change of setting
  // cancels the one running. Results shown: the alpha-C grid, the spread band (min-max over
  // kSpreadSeeds seeds, on both charts), objective perturbation.
  void computeAlphaClipGrid();
  void computeSpread();
  void computeObjPert();
  // The C sweep is computed by itself while its tab is shown (on showing it, and once the knobs
  // settle on a new setting); a setting that differs only in C keeps the curve and moves the
  // mark. Not for a non-private setting or automatic clipping (the tab says why).
  void computeClipSweep();
  const std::optional<playground::ClipSweep>& shownSweep() const { return sweep_; }
  ClipSweepView* sweepView() const { return sweep_view_; }
  const std::optional<playground::AlphaClipGrid>& shownGrid() const { return grid_; }
  const std::optional<playground::SeedSpread>& shownSpread() const { return spread_; }
  const std::optional<playground::ObjPertBaseline>& shownObjPert() const { return objpert_; }
  // Pin: the shown setting's boundary and DP test curves stay drawn (purple) while knobs change,
  // so two settings can be seen side by side; pin(false) removes them. Pinning again replaces.
  // A lesson with a pinned setting pins it by itself (trained on a worker, named by the
  // lesson's label); the next lesson drops a pin a lesson made, not one made by hand.
  void pin(bool on);
  QString pinnedLabel() const { return pinned_ ? pinned_->label : QString(); }
  const std::vector<playground::HistoryPoint>* pinnedHistory() const {
    return pinned_ ? &pinned_->history : nullptr;
  }
  QString spreadText() const;  // the Spread button's idle text in the current font
  bool pinned() const { return pinned_.has_value(); }
  QPushButton* pinButton() const { return pin_button_; }
  AlphaClipView* gridView() const { return grid_view_; }
  ObjPertView* objPertView() const { return objpert_view_; }
  QTabWidget* pictureTabs() const { return picture_tabs_; }
  ChartView* lossChart() const { return loss_chart_; }
  ChartView* accuracyChart() const { return accuracy_chart_; }
  // Frame cost of the last snapshot drawn: the worker's steps + field, and this thread's redraw.
  double lastComputeMs() const { return last_compute_ms_; }
  double lastDrawMs() const { return last_draw_ms_; }

 signals:
  void message(const QString& text, bool is_error);

 private:
  // playground_window_panels.cpp
  QWidget* buildKnobs();
  QWidget* buildMiddle(QWidget* parent);
  // The knob panel as wide as its widest row needs at the current font (nothing cut off).
  void fitKnobsWidth();
  QWidget* buildRightPanel();
  // The side panel's ledger and lessons stacked under the privacy group (normal font) or as two
  // tabs there (the projector font, whose text needs more height than a 720-pixel screen has).
  void arrangeSidePanel(bool tabbed);
  // The knob groups (Data, Model, DP-SGD) stacked (normal font) or as tabs (the projector font).
  void arrangeKnobs(bool tabbed);
  static QStringList knobGroupTitles();
  void buildMenus();
  void readKnobs();
  void writeKnobs(const playground::PlaygroundSettings& s);
  void onKnobChanged();
  void submitRun();
  void submitEpsilon();
  void onTick();
  void onSnapshot(const std::shared_ptr<const PlaygroundSnapshot>& snapshot);
  void onEpsilon(const PlaygroundEpsilon& e);
  void refreshLedgerLabel();
  // Records one trained run (its setting and final test accuracy) in the ledger.
  void recordRun(const playground::PlaygroundSettings& s, Index train_size, double accuracy);
  enum class StudyKind { kGrid, kSpread, kObjPert, kSweep };
  void submitStudy(StudyKind kind);
  void cancelStudy();
  // Drops the studies of a setting no longer shown (settings_ is the new one): all but a C sweep
  // of the same sweep_key.
  void clearStudies();
  // Submits the C sweep when its tab is shown and the shown setting has none (nor one coming).
  void maybeComputeSweep();
  void updateSweepMark();
  void updateBand();
  void updateCurves();
  void updateStepLabels();
  // The second half of a frame (curves and labels), one event-loop pass after the pictures.
  void drawFrameRest();

  playground::PlaygroundSettings settings_;
  std::int64_t target_ = 0;
  bool playing_ = false;
  bool writing_knobs_ = false;
  int projection_a_ = 0, projection_b_ = 1;
  std::shared_ptr<const PlaygroundSnapshot> shown_;
  std::optional<PlaygroundEpsilon> epsilon_;
  playground::PlaygroundLedger ledger_;
  double last_compute_ms_ = 0, last_draw_ms_ = 0;
  bool frame_rest_pending_ = false;  // drawFrameRest is queued (busy() until it has run)

  PlaygroundRunner* runner_;
  struct EpsilonQuery {
    playground::PlaygroundSettings settings;
    Index train_size = 0;
    playground::PlaygroundLedger ledger;
  };
  std::unique_ptr<LatestOnlyTask<EpsilonQuery, PlaygroundEpsilon>> epsilon_task_;
  QTimer* timer_;
  // A knob's new value trains once the knobs have been still for kSettleMs: scrubbing a spin box
  // through 27 values trains (and so shows, and so charges to the ledger) the last one only.
  QTimer* settle_timer_;
  struct StudyQuery {
    StudyKind kind = StudyKind::kGrid;
    playground::PlaygroundSettings settings;
    std::shared_ptr<std::atomic<bool>> cancel;
  };
  struct StudyResult {
    StudyKind kind = StudyKind::kGrid;
    playground::PlaygroundSettings settings;
    std::optional<playground::AlphaClipGrid> grid;
    std::optional<playground::SeedSpread> spread;
    std::optional<playground::ObjPertBaseline> objpert;
    std::optional<playground::ClipSweep> sweep;
  };
  void onStudy(const StudyResult& r);
  std::unique_ptr<LatestOnlyTask<StudyQuery, StudyResult>> study_task_;
  std::shared_ptr<std::atomic<bool>> study_cancel_;
  std::optional<playground::AlphaClipGrid> grid_;
  std::optional<playground::SeedSpread> spread_;
  std::optional<playground::ObjPertBaseline> objpert_;
  std::optional<playground::ClipSweep> sweep_;
  std::optional<playground::PlaygroundSettings> sweep_pending_;  // sweep_key of the one computing
  // A lesson's pinned first setting, trained on its own worker; pin_pending_ is the one awaited.
  std::unique_ptr<LatestOnlyTask<playground::LessonPin, playground::TrainedRun>> pin_task_;
  std::optional<playground::LessonPin> pin_pending_;
  void onLessonPin(const playground::TrainedRun& run);

  // Knobs.
  QComboBox* dataset_;
  QSpinBox* points_;
  QDoubleSpinBox* label_noise_;
  QDoubleSpinBox* minority_;
  QSpinBox* data_seed_;
  QCheckBox* clear_outlier_;
  QComboBox* model_;
  QComboBox* activation_;
  QCheckBox *feat_x2_, *feat_y2_, *feat_xy_;
  QComboBox* optimizer_;
  QDoubleSpinBox* sigma_;
  QDoubleSpinBox* clip_;
  QCheckBox* auto_clip_;  // automatic clipping (Bu et al. 2023): C disappears
  QDoubleSpinBox* lot_;
  QDoubleSpinBox* alpha_;
  QSpinBox* steps_;
  QDoubleSpinBox* delta_;
  QSpinBox* seed_;
  QComboBox* proj_a_;
  QComboBox* proj_b_;
  QPushButton* play_button_;
  QPushButton* step_button_;
  QPushButton* reset_button_;
  QPushButton* spread_button_;
  QLabel* speed_label_;
  QLabel* axes_label_;
  QPushButton* pin_button_;
  struct Pinned {
    std::vector<playground::BoundarySegment> boundary;
    std::vector<playground::HistoryPoint> history;
    QString label;             // the legend's and the plane key's name; empty: "pinned"
    bool from_lesson = false;  // pinned by a lesson (the next lesson drops it)
  };
  std::optional<Pinned> pinned_;
  void setPinned(std::optional<Pinned> pinned);
  QSlider* speed_;
  // Views and labels.
  PlaneView* plane_;
  StepView* step_view_;
  QTabWidget* picture_tabs_;
  AlphaClipView* grid_view_;
  ObjPertView* objpert_view_;
  ClipSweepView* sweep_view_;
  ChartView* loss_chart_;
  ChartView* accuracy_chart_;
  SteadyLabel* step_label_;
  SteadyLabel* epsilon_label_;
  SteadyLabel* clip_label_;
  SteadyLabel* accuracy_label_;
  SteadyLabel* ledger_label_;
  QListWidget* ledger_list_;
  SteadyLabel* frame_label_;
  LessonPanel* lessons_;
  QGroupBox* ledger_box_ = nullptr;
  QGroupBox* lessons_box_ = nullptr;
  QTabWidget* side_tabs_ = nullptr;
  std::array<QGroupBox*, 3> knob_groups_{};  // Data, Model, DP-SGD
  QTabWidget* knob_tabs_ = nullptr;
  QScrollArea* knobs_scroll_ = nullptr;
  bool large_font_ = false;
  QStyle* compact_tabs_style_ = nullptr;  // the picture tabs' style in the projector font
  std::map<QString, QWidget*> knobs_;     // lesson knob name -> widget
};

}  // namespace dplab::ui
