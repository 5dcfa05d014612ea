// PlaygroundWindow (playground_window.h): the studies (the alpha-C grid, the 5-seed spread,
// objective perturbation; playground_studies.h) — submitting one to the study worker, cancelling
// it when the setting changes, and showing its result.
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
  spread_button_->setText(spreadText());
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
