#include "run/history_panel.h"

#include <qcustomplot.h>
#include <QDialog>
#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "charts/chart_view.h"
#include "form/optimizer_editor.h"
#include "run/run_controller.h"
#include "run/run_data.h"
#include "store/store.h"
#include "privacy/epsilon_display.h"
#include "tuning/aggregates.h"
#include "tuning/private_release_view.h"

namespace dplab::ui {

HistoryPanel::HistoryPanel(RunController* controller, RunData* data, QWidget* parent)
    : QWidget(parent), controller_(controller), data_(data) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  list_ = new QListWidget(this);
  list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  list_->setToolTip(
      tr("Runs recorded in the history database; double-click to reopen one, select "
         "several and press Compare to overlay their best curves."));
  layout->addWidget(list_, 1);
  auto* bar = new QHBoxLayout;
  auto* open = new QPushButton(tr("Open"), this);
  auto* compare = new QPushButton(tr("Compare"), this);
  auto* refresh = new QPushButton(tr("Refresh"), this);
  open->setToolTip(tr("Show the selected run in the charts and the results table."));
  compare->setToolTip(tr("Overlay the max-accuracy curve per optimizer of the selected runs."));
  bar->addWidget(open);
  bar->addWidget(compare);
  bar->addWidget(refresh);
  layout->addLayout(bar);
  connect(open, &QPushButton::clicked, this, &HistoryPanel::openSelected);
  connect(compare, &QPushButton::clicked, this, &HistoryPanel::compareSelected);
  connect(refresh, &QPushButton::clicked, this, &HistoryPanel::reload);
  connect(list_, &QListWidget::itemDoubleClicked, this, &HistoryPanel::openSelected);
  connect(controller_, &RunController::historyChanged, this, &HistoryPanel::reload);
}

int HistoryPanel::count() const {
  return list_->count();
}

void HistoryPanel::reload() {
  list_->clear();
  store::Store* store = controller_->history();
  if (!store) return;
  try {
    for (const auto& e : store->list_experiments()) {
      // What the run charged (schema v3): release mode, runs trained / charged, ε rounded up.
      const QString charged =
          tr("%1 · %2 runs trained, %3 charged%4")
              .arg(QString::fromStdString(e.release_mode))
              .arg(e.runs_trained)
              .arg(e.runs_charged >= 0 ? QString::number(e.runs_charged) : tr("a random number"))
              .arg(std::isfinite(e.epsilon)
                       ? tr(" · ε ≤ %1").arg(QString::fromStdString(
                             privacy::format_epsilon_up(e.epsilon)))
                       : QString());
      auto* item = new QListWidgetItem(
          tr("#%1  %2  %3 — %4, %5/%6 jobs — %7")
              .arg(e.id)
              .arg(QString::fromStdString(e.created_at)
                       .left(19)
                       .replace(QLatin1Char('T'), QLatin1Char(' ')))
              .arg(QString::fromStdString(e.name), QString::fromStdString(e.status))
              .arg(e.jobs_finished)
              .arg(e.jobs_total)
              .arg(charged),
          list_);
      item->setData(Qt::UserRole, static_cast<qlonglong>(e.id));
    }
  } catch (const std::exception& ex) {
    emit message(tr("run history: %1").arg(QString::fromStdString(ex.what())), true);
  }
}

void HistoryPanel::openSelected() {
  const auto items = list_->selectedItems();
  if (items.isEmpty()) return;
  openRun(items.first()->data(Qt::UserRole).toLongLong());
}

QList<qint64> HistoryPanel::ids() const {
  QList<qint64> list;
  for (int i = 0; i < list_->count(); ++i) list << list_->item(i)->data(Qt::UserRole).toLongLong();
  return list;
}

bool HistoryPanel::openRun(qint64 id) {
  store::Store* store = controller_->history();
  if (!store || controller_->running()) return false;
  try {
    const tuning::SearchResults results = store->load_results(id);
    std::optional<tuning::PrivateRelease> release;
    if (results.config.release.mode == experiment::ReleaseMode::kPrivate) {
      // A private run reopens showing only its released winners (as recorded when it ended).
      if (const auto stored = store->load_summary(id, "private_release"))
        release = tuning::parse_private_release(nlohmann::json::parse(*stored));
    }
    data_->setResults(results,
                      tr("run #%1 from the history (“%2”)")
                          .arg(id)
                          .arg(QString::fromStdString(results.config.name)),
                      release);
    emit message(tr("Opened run #%1 from the history").arg(id), false);
    emit opened();
    return true;
  } catch (const std::exception& ex) {
    emit message(tr("run history: %1").arg(QString::fromStdString(ex.what())), true);
    return false;
  }
}

void HistoryPanel::compareSelected() {
  store::Store* store = controller_->history();
  const auto items = list_->selectedItems();
  if (!store || items.isEmpty()) return;
  auto* dialog = new QDialog(this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(tr("Compare runs"));
  dialog->resize(900, 560);
  auto* layout = new QVBoxLayout(dialog);
  auto* chart = new ChartView(tr("Best validation accuracy per optimizer, selected runs"),
                              QStringLiteral("history_compare"), dialog);
  layout->addWidget(chart);
  connect(chart, &ChartView::message, this, &HistoryPanel::message);
  QCustomPlot* plot = chart->plot();
  const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
  int run_index = 0;
  for (QListWidgetItem* item : items) {
    const qlonglong id = item->data(Qt::UserRole).toLongLong();
    try {
      tuning::SearchResults r = store->load_results(id);
      if (r.config.release.mode == experiment::ReleaseMode::kPrivate) {
        // A private run contributes only its released winners.
        std::vector<std::int64_t> released;
        if (const auto stored = store->load_summary(id, "private_release")) {
          released = tuning::released_jobs(
              tuning::parse_private_release(nlohmann::json::parse(*stored)));
        }
        r = tuning::grid_shaped_runs(r, released);
      }
      for (const auto& agg : tuning::aggregate_all(r)) {
        const QString name = OptimizerEditor::displayName(
            r.config.optimizers.at(static_cast<std::size_t>(agg.optimizer_index)).kind);
        QCPGraph* g = plot->addGraph();
        g->setName(tr("#%1 %2 max").arg(id).arg(name));
        g->setPen(QPen(optimizerColor(name), 2, styles[run_index % 4]));
        for (std::size_t i = 0; i < agg.curves.iterations.size(); ++i) {
          g->addData(static_cast<double>(agg.curves.iterations[i]), agg.curves.best[i]);
        }
      }
    } catch (const std::exception& ex) {
      emit message(tr("compare #%1: %2").arg(id).arg(QString::fromStdString(ex.what())), true);
    }
    ++run_index;
  }
  plot->xAxis->setLabel(tr("iteration (noisy-gradient queries)"));
  plot->yAxis->setLabel(tr("validation accuracy"));
  plot->rescaleAxes();
  plot->legend->setVisible(true);
  plot->replot();
  dialog->show();
}

}  // namespace dplab::ui
