// PlaygroundWindow (playground_window.h): the studies (the alpha-C grid, the 5-seed spread,
// objective perturbation, the C sweep; playground_studies.h) — submitting one to the study
// worker, cancelling it when the setting changes, and showing its result.
#include <qcustomplot.h>

#include <QPushButton>
#include <algorithm>
#include <cmath>

#include "charts/chart_view.h"
#include "playground/plane_view.h"
#include "playground/playground_labels.h"
#include "playground/playground_window.h"
#include "playground/study_views.h"

namespace dplab::ui {

using namespace dplab::playground;

void PlaygroundWindow::computeAlphaClipGrid() {
  submitStudy(StudyKind::kGrid);
}

void PlaygroundWindow::computeSpread() {
  submitStudy(StudyKind::kSpread);
}

void PlaygroundWindow::computeObjPert() {
  submitStudy(StudyKind::kObjPert);
}

void PlaygroundWindow::computeClipSweep() {
  if (settings_.training.automatic_clipping) {
    sweep_view_->setStatus(tr("Automatic clipping: C has no effect, so there is no C to sweep."));
    return;
  }
  submitStudy(StudyKind::kSweep);
}

void PlaygroundWindow::maybeComputeSweep() {
  if (picture_tabs_->currentWidget() != sweep_view_ || settle_timer_->isActive()) return;
  const PlaygroundSettings key = sweep_key(settings_);
  if (sweep_ && sweep_key(sweep_->runs.front()) == key) return;
  if (sweep_pending_ && *sweep_pending_ == key) return;
  if (!settings_.training.is_private) {
    sweep_view_->setStatus(tr("Choose a private optimizer: the sweep varies C."));
    return;
  }
  computeClipSweep();
}

void PlaygroundWindow::updateSweepMark() {
  // The live run's accuracy on the red line once it has trained (it moves up while it plays).
  const bool live =
      shown_ && shown_->settings == settings_ && shown_->steps > 0 && !shown_->history.empty();
  sweep_view_->plot()->setCurrent(settings_.training.clip,
                                  live ? shown_->history.back().test_accuracy : std::nan(""));
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
  if (kind == StudyKind::kSweep) {
    sweep_pending_ = sweep_key(settings_);
    sweep_view_->setStatus(tr("Training at %1 values of C…").arg(kSweepSize));
  }
  study_task_->submit(q);
}

void PlaygroundWindow::cancelStudy() {
  if (study_cancel_) study_cancel_->store(true);
  study_cancel_.reset();
  sweep_pending_.reset();  // a sweep being computed stops too (maybeComputeSweep resubmits)
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
  // The sweep does not depend on C: a new C keeps it (the mark moves), anything else drops it.
  if (sweep_ && !(sweep_key(sweep_->runs.front()) == sweep_key(settings_))) {
    sweep_.reset();
    sweep_view_->plot()->setSweep(std::nullopt);
    sweep_view_->setStatus(QString());
  }
  if (had_grid) grid_view_->heatmap()->setGrid(std::nullopt);
  grid_view_->setStatus(QString());
  if (had_objpert) objpert_view_->plane()->setField({});
  objpert_view_->setStatus(QString());
  spread_button_->setText(spreadText());
  if (had_spread) updateBand();
}

void PlaygroundWindow::onStudy(const StudyResult& r) {
  const Index n = train_size_of(r.settings.data);
  if (r.sweep) {
    // A cancelled sweep was no longer pending (cancelStudy); one submitted since may be.
    if (r.sweep->cancelled) return;
    if (sweep_pending_ && *sweep_pending_ == sweep_key(r.settings)) sweep_pending_.reset();
    // A sweep is of every C: it still describes the setting if only C moved meanwhile.
    if (!(sweep_key(r.settings) == sweep_key(settings_))) return;
    sweep_ = r.sweep;
    for (std::size_t i = 0; i < sweep_->runs.size(); ++i)
      recordRun(sweep_->runs[i], n, sweep_->test_accuracy[i]);
    sweep_view_->plot()->setSweep(sweep_);
    updateSweepMark();
    const std::size_t last = sweep_->clips.size() - 1;
    const std::size_t best = sweep_->best_index();
    const QString numbers = tr("Best <b>%1%</b> at C = %2; %3% at C = %4, %5% at C = %6.")
                                .arg(100 * sweep_->test_accuracy[best], 0, 'f', 0)
                                .arg(sweep_->clips[best], 0, 'g', 3)
                                .arg(100 * sweep_->test_accuracy.front(), 0, 'f', 0)
                                .arg(sweep_->clips.front(), 0, 'g', 3)
                                .arg(100 * sweep_->test_accuracy[last], 0, 'f', 0)
                                .arg(sweep_->clips[last], 0, 'g', 3);
    // The projector font has room for the numbers only; the tab's tooltip keeps the rest.
    sweep_view_->setStatus(
        large_font_ ? numbers
                    : numbers + tr(" Final test accuracy, one seed; the %1 DP runs are in the "
                                   "ledger (the grey runs, without noise, are not private).")
                                    .arg(sweep_->runs.size()));
    return;
  }
  if (!(r.settings == settings_)) return;  // a study of a setting no longer shown
  if (r.grid && !r.grid->cancelled) {
    grid_ = r.grid;
    for (std::size_t i = 0; i < grid_->runs.size(); ++i)
      recordRun(grid_->runs[i], n, grid_->test_accuracy[i]);
    grid_view_->heatmap()->setGrid(grid_);
    const auto best = std::max_element(grid_->test_accuracy.begin(), grid_->test_accuracy.end());
    const auto at = static_cast<std::size_t>(best - grid_->test_accuracy.begin());
    if (r.settings.training.automatic_clipping) {
      // C has no effect: each α's five C are one run, in the ledger once.
      grid_view_->setStatus(
          tr("Final test accuracy of each (α, C), one seed each. Best %1% at α = %2. "
             "Automatic clipping: C has no effect, so each column of C is the same run; the "
             "ledger holds the 5 distinct runs.")
              .arg(100 * *best, 0, 'f', 1)
              .arg(grid_->runs[at].training.learning_rate, 0, 'g', 3));
    } else {
      grid_view_->setStatus(
          tr("Final test accuracy of each (α, C), one seed each. Best %1% at α = %2, C = %3. "
             "Red: the current setting. The 25 runs are in the ledger.")
              .arg(100 * *best, 0, 'f', 1)
              .arg(grid_->runs[at].training.learning_rate, 0, 'g', 3)
              .arg(grid_->runs[at].training.clip, 0, 'g', 3));
    }
  }
  if (r.spread && !r.spread->cancelled) {
    spread_ = r.spread;
    for (std::size_t k = 0; k < spread_->runs.size(); ++k)
      recordRun(spread_->runs[k], n, spread_->histories[k].back().test_accuracy);
    spread_button_->setText(spreadText());
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

}  // namespace dplab::ui
