// PlaygroundWindow (playground_window.h): drawing what the workers deliver — a training snapshot
// (plane, step view, loss and accuracy curves, the step / clip / accuracy labels, the ledger's new
// entry) and the epsilon of the current setting and of the ledger.
#include <qcustomplot.h>

#include <QComboBox>
#include <QElapsedTimer>
#include <QListWidget>
#include <QSignalBlocker>

#include "charts/chart_view.h"
#include "playground/plane_view.h"
#include "playground/playground_labels.h"
#include "playground/playground_window.h"
#include "playground/steady_label.h"
#include "playground/step_view.h"

namespace dplab::ui {

using namespace dplab::playground;

void PlaygroundWindow::onSnapshot(const std::shared_ptr<const PlaygroundSnapshot>& snapshot) {
  QElapsedTimer clock;
  clock.start();
  const bool new_data = !shown_ || shown_->data != snapshot->data;
  const bool new_model = !shown_ || shown_->parameter_names != snapshot->parameter_names;
  // The step view holds its scale while one run goes on (StepView::setPicture).
  const bool same_run = shown_ && shown_->settings == snapshot->settings &&
                        shown_->picture.param_a == snapshot->picture.param_a &&
                        shown_->picture.param_b == snapshot->picture.param_b &&
                        snapshot->steps > shown_->steps;
  shown_ = snapshot;
  if (new_data) plane_->setData(snapshot->data);
  plane_->setLot(snapshot->picture.lot);
  plane_->setField(snapshot->field);
  plane_->setBoundaries(snapshot->boundary, snapshot->shadow_boundary);
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
                         name(snapshot->picture.param_a), name(snapshot->picture.param_b),
                         same_run);
  // The ledger: a setting counts once it has touched the data.
  if (snapshot->steps > 0 && !snapshot->history.empty()) {
    recordRun(snapshot->settings, snapshot->data->train.size(),
              snapshot->history.back().test_accuracy);
  }
  // A frame takes two event-loop passes, so that a key press or a timer waits at most for the
  // larger half (the GUI stall meter, issue #27; measured on this machine: the pictures' repaint
  // ~1.6 ms, the two replots ~0.8 ms, their paint and the labels' a third pass). Here the
  // pictures: one synchronous repaint draws the plane and the step view in one pass over the
  // window's backing store (each chart repainting itself at once, or a second repaint(), cost a
  // pass each). Measured here, not at some later paint.
  plane_->repaint();
  last_compute_ms_ = snapshot->compute_ms;
  last_draw_ms_ = static_cast<double>(clock.nsecsElapsed()) / 1e6;
  if (!frame_rest_pending_) {  // frames that arrive faster than the loop turns share one
    frame_rest_pending_ = true;
    QMetaObject::invokeMethod(this, &PlaygroundWindow::drawFrameRest, Qt::QueuedConnection);
  }
  if (playing_ && snapshot->finished && snapshot->settings == settings_) pause();
}

void PlaygroundWindow::drawFrameRest() {
  frame_rest_pending_ = false;
  if (!shown_) return;
  QElapsedTimer clock;
  clock.start();
  updateCurves();
  updateStepLabels();
  updateSweepMark();
  last_draw_ms_ += static_cast<double>(clock.nsecsElapsed()) / 1e6;
  frame_label_->setText(frame_label_text(shown_->steps_computed, last_compute_ms_, last_draw_ms_));
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
    listed(8, pinned_.has_value());
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
      fill(8, pinned_ ? pinned_->history : std::vector<HistoryPoint>{},
           [](const HistoryPoint& p) { return p.test_loss; });
    } else {
      fill(0, s.history, [](const HistoryPoint& p) { return p.train_accuracy; });
      fill(1, s.history, [](const HistoryPoint& p) { return p.test_accuracy; });
      fill(2, s.shadow_history, [](const HistoryPoint& p) { return p.train_accuracy; });
      fill(3, s.shadow_history, [](const HistoryPoint& p) { return p.test_accuracy; });
      fill(4, minority ? s.history : std::vector<HistoryPoint>{},
           [](const HistoryPoint& p) { return p.minority_test_accuracy; });
      fill(5, minority ? s.shadow_history : std::vector<HistoryPoint>{},
           [](const HistoryPoint& p) { return p.minority_test_accuracy; });
      fill(8, pinned_ ? pinned_->history : std::vector<HistoryPoint>{},
           [](const HistoryPoint& p) { return p.test_accuracy; });
    }
    plot->xAxis->setRange(
        0, static_cast<double>(std::max<std::int64_t>(1, s.settings.training.steps)));
    if (loss) chart->fitValueRange();
    // Rendered into the chart's buffer now (the frame's draw time counts it); painted with the
    // rest of the frame by onSnapshot's one repaint.
    plot->replot(QCustomPlot::rpQueuedRefresh);
  }
}

void PlaygroundWindow::pin(bool on) {
  pin_pending_.reset();  // the teacher's pin (or unpin) wins over a lesson's still training
  if (on && shown_) {
    setPinned(Pinned{shown_->boundary, shown_->history, QString(), false});
  } else {
    setPinned(std::nullopt);
  }
}

void PlaygroundWindow::setPinned(std::optional<Pinned> pinned) {
  pinned_ = std::move(pinned);
  const QSignalBlocker block(pin_button_);
  pin_button_->setChecked(pinned_.has_value());
  pin_button_->setText(pinned_ ? tr("Unpin") : tr("Pin"));
  plane_->setPinnedBoundary(pinned_ ? pinned_->boundary : std::vector<BoundarySegment>{},
                            pinned_ ? pinned_->label : QString());
  const QString name = pinned_ && !pinned_->label.isEmpty() ? pinned_->label : tr("pinned DP test");
  for (ChartView* chart : {loss_chart_, accuracy_chart_}) {
    QCPGraph* graph = chart->plot()->graph(8);
    if (graph->name() == name) continue;
    graph->setName(name);
    if (chart->plot()->legend->hasItemWithPlottable(graph)) chart->layoutLegend(chart->width());
  }
  if (shown_) updateCurves();
}

void PlaygroundWindow::onLessonPin(const TrainedRun& run) {
  if (!pin_pending_ || !(pin_pending_->settings == run.settings)) return;  // no longer wanted
  const QString label = QString::fromStdString(pin_pending_->label);
  pin_pending_.reset();
  // It trained on the data: a candidate like any setting tried.
  if (!run.history.empty())
    recordRun(run.settings, train_size_of(run.settings.data), run.history.back().test_accuracy);
  setPinned(Pinned{run.boundary, run.history, label, true});
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
      ledger_label_text(epsilon_->ledger, ledger_.best_accuracy_on(settings_.data), large_font_));
  ledger_label_->setToolTip(ledger_tooltip_text(epsilon_->ledger));
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

}  // namespace dplab::ui
