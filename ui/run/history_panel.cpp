#include "run/history_panel.h"

#include <qcustomplot.h>
#include <QDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "charts/chart_view.h"
#include "charts/theme.h"
#include "experiment/config_difference.h"
#include "experiment/run_count_visibility.h"
#include "form/optimizer_editor.h"
#include "privacy/accounting/epsilon_display.h"
#include "run/run_controller.h"
#include "run/run_data.h"
#include "store/run_status.h"
#include "store/store.h"
#include "tuning/aggregates.h"
#include "tuning/private_release_view.h"

namespace dplab::ui {
namespace {

// A private LT / PS run keeps its number of runs K from everyone but the curator: no count of its
// jobs (done, total or missing) is shown anywhere (experiment::hides_run_count).
bool hidesRunCount(const store::HistoryEntry& e) {
  return experiment::described_release_hides_run_count(e.record.release_mode);
}

}  // namespace

HistoryPanel::HistoryPanel(RunController* controller, RunData* data, QWidget* parent)
    : QWidget(parent),
      controller_(controller),
      data_(data),
      reloads_(
          this,
          [](const std::shared_ptr<store::Store>& store) {
            // Runs whose writer died since the store was opened (kill -9, a crash) become
            // "interrupted".
            try {
              store->mark_interrupted_runs();
            } catch (const std::exception&) {
            }
            return store::list_history(*store);
          },
          [this](int sequence, const std::vector<store::HistoryEntry>& entries) {
            if (sequence == latest_) fill(entries);
          },
          [this](int sequence, const QString& error) {
            if (sequence != latest_) return;
            emit message(tr("run history: %1").arg(error), true);
            fill({});
          }) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  table_ = new QTableWidget(0, kColumns, this);
  table_->setHorizontalHeaderLabels({tr("#"), tr("started (UTC)"), tr("name"), tr("data set"),
                                     tr("status"), tr("jobs"), tr("release"), tr("σ"), tr("T"),
                                     tr("ε"), tr("best"), tr("notes")});
  table_->horizontalHeaderItem(kSigma)->setToolTip(
      tr("noise multiplier σ of every run (noise std = σ·C)"));
  table_->horizontalHeaderItem(kSteps)->setToolTip(tr("T: noisy-gradient steps per run"));
  table_->horizontalHeaderItem(kRelease)->setToolTip(
      tr("What the run released: explore (every run trained is shown) or a private selection"));
  table_->horizontalHeaderItem(kEpsilon)->setToolTip(
      tr("ε of what the run released (explore: every run trained), rounded up; hover a cell for "
         "what it covers"));
  table_->horizontalHeaderItem(kBest)->setToolTip(
      tr("explore: the best candidate's mean final validation accuracy (regression: final "
         "training loss); private: the released winners' score (what was released)"));
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setVisible(false);
  // Compact rows: more runs in view in a short dock.
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setToolTip(
      tr("Runs recorded in the history database; double-click to reopen one, select several "
         "and press Compare to overlay their best curves."));
  layout->addWidget(table_, 1);
  hint_ = new QLabel(this);
  hint_->setWordWrap(true);
  setTone(hint_, Tone::kWarning);
  hint_->setVisible(false);
  layout->addWidget(hint_);
  open_ = new QPushButton(tr("Open"), this);
  use_config_ = new QPushButton(tr("Use its config"), this);
  compare_ = new QPushButton(tr("Compare"), this);
  rename_ = new QPushButton(tr("Rename…"), this);
  notes_ = new QPushButton(tr("Notes…"), this);
  delete_ = new QPushButton(tr("Delete…"), this);
  resume_ = new QPushButton(tr("Resume"), this);
  auto* refresh = new QPushButton(tr("Refresh"), this);
  open_->setToolTip(tr("Show the selected run in the charts and the results table."));
  use_config_->setToolTip(
      tr("Put the selected run's experiment into the form (to run it again "
         "or change it); asks before discarding edits."));
  compare_->setToolTip(tr("Overlay the max-accuracy curve per optimizer of the selected runs."));
  rename_->setToolTip(tr("Give the selected run a name of your own."));
  notes_->setToolTip(tr("Write notes on the selected run (kept in the history file)."));
  delete_->setToolTip(tr("Delete the selected run and its results from the history (asks)."));
  resume_->setToolTip(
      tr("Run only the missing jobs of an interrupted or cancelled run; jobs are "
         "seeded per (candidate, repeat), so the result equals an "
         "uninterrupted run (as dplab-cli tune --resume)."));
  buttons_ = {open_, use_config_, compare_, rename_, notes_, delete_, resume_, refresh};
  // The buttons re-flow into as many rows as the width needs (one row below the charts, two or
  // more beside the form on a short screen), so they never set the window's minimum width.
  auto* button_box = new QWidget(this);
  button_grid_ = new QGridLayout(button_box);
  button_grid_->setContentsMargins(0, 0, 0, 0);
  button_grid_->setSizeConstraint(QLayout::SetNoConstraint);
  int widest = 0;
  for (QPushButton* b : buttons_) widest = std::max(widest, b->sizeHint().width());
  button_width_ = widest + std::max(6, button_grid_->horizontalSpacing());
  button_box->setMinimumWidth(2 * button_width_);
  reflowButtons(static_cast<int>(buttons_.size()));
  layout->addWidget(button_box);
  connect(open_, &QPushButton::clicked, this, &HistoryPanel::openSelected);
  connect(use_config_, &QPushButton::clicked, this, [this] { requestConfig(selectedRun()); });
  connect(compare_, &QPushButton::clicked, this, &HistoryPanel::compareSelected);
  connect(rename_, &QPushButton::clicked, this, &HistoryPanel::askRename);
  connect(notes_, &QPushButton::clicked, this, &HistoryPanel::askNotes);
  connect(delete_, &QPushButton::clicked, this, &HistoryPanel::askDelete);
  connect(resume_, &QPushButton::clicked, this, [this] { resumeRun(selectedRun()); });
  connect(refresh, &QPushButton::clicked, this, &HistoryPanel::reload);
  connect(table_, &QTableWidget::cellDoubleClicked, this, &HistoryPanel::openSelected);
  connect(table_, &QTableWidget::itemSelectionChanged, this, &HistoryPanel::updateButtons);
  connect(controller_, &RunController::historyChanged, this, &HistoryPanel::reload);
  connect(controller_, &RunController::started, this, &HistoryPanel::updateButtons);
  connect(controller_, &RunController::finished, this, &HistoryPanel::updateButtons);
  updateButtons();
}

void HistoryPanel::reflowButtons(int columns) {
  columns = std::clamp(columns, 1, static_cast<int>(buttons_.size()));
  if (columns == button_columns_) return;
  button_columns_ = columns;
  for (QPushButton* b : buttons_) button_grid_->removeWidget(b);
  for (int i = 0; i < static_cast<int>(buttons_.size()); ++i)
    button_grid_->addWidget(buttons_[static_cast<std::size_t>(i)], i / columns, i % columns);
  for (int c = 0; c <= static_cast<int>(buttons_.size()); ++c)
    button_grid_->setColumnStretch(c, c == columns ? 1 : 0);  // left-aligned
}

void HistoryPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  reflowButtons(std::max(2, (width() - 8) / std::max(1, button_width_)));
}

int HistoryPanel::count() const {
  return table_->rowCount();
}

void HistoryPanel::reload() {
  std::shared_ptr<store::Store> store = controller_->sharedHistory();
  if (!store) {
    fill({});
    return;
  }
  latest_ = reloads_.submit(store);
}

void HistoryPanel::fill(const std::vector<store::HistoryEntry>& entries) {
  const qint64 selected = selectedRun();
  entries_ = entries;
  table_->setRowCount(static_cast<int>(entries_.size()));
  for (int row = 0; row < table_->rowCount(); ++row) {
    const store::HistoryEntry& e = entries_[static_cast<std::size_t>(row)];
    auto set = [&](int column, const QString& text, const QString& tip = QString()) {
      auto* item = new QTableWidgetItem(text);
      item->setData(Qt::UserRole, static_cast<qlonglong>(e.record.id));
      if (!tip.isEmpty()) item->setToolTip(tip);
      table_->setItem(row, column, item);
      return item;
    };
    set(kId, QString::number(e.record.id));
    set(kStarted, QString::fromStdString(e.record.created_at)
                      .left(19)
                      .replace(QLatin1Char('T'), QLatin1Char(' ')));
    set(kName, QString::fromStdString(e.record.name));
    set(kDataset, QString::fromStdString(e.dataset));
    // What the run released and charged (schema v3): release mode, runs trained / charged.
    // A private LT / PS release's number of runs K is curator-only (docs/privacy-model.md): not
    // shown. MA's is its candidate count (public), explore's every run trained.
    const bool private_release = hidesRunCount(e);
    const QString charged =
        tr("%1: %2 runs trained, %3 charged")
            .arg(QString::fromStdString(e.record.release_mode))
            .arg(private_release ? tr("(withheld: curator-only)")
                                 : QString::number(e.record.runs_trained))
            .arg(e.record.runs_charged >= 0 ? QString::number(e.record.runs_charged)
                                            : tr("a random number of"));
    QTableWidgetItem* status =
        set(kStatus, QString::fromStdString(e.record.status),
            e.resumable ? charged + tr("\nSelect it and press Resume to run only its missing jobs.")
                        : charged);
    if (e.resumable) status->setForeground(QColor(0x8a, 0x4b, 0x00));
    if (private_release) {
      set(kJobs, tr("private"),
          tr("A private Liu–Talwar / Papernot–Steinke selection draws its number of runs at "
             "random; it is curator-only and not shown."));
    } else {
      set(kJobs, QStringLiteral("%1/%2").arg(e.record.jobs_finished).arg(e.record.jobs_total));
    }
    set(kRelease, QString::fromStdString(e.release));
    set(kSigma,
        e.error.empty() ? QString::number(e.noise_multiplier, 'g', 4) : QStringLiteral("–"));
    set(kSteps, e.error.empty() ? QString::number(e.steps) : QStringLiteral("–"));
    set(kEpsilon,
        std::isfinite(e.epsilon)
            ? QStringLiteral("≤ ") + QString::fromStdString(privacy::format_epsilon_up(e.epsilon))
            : QStringLiteral("–"),
        QString::fromStdString(e.error.empty() ? e.epsilon_label : e.error));
    set(kBest,
        std::isfinite(e.best_metric) ? QString::number(e.best_metric, 'g', 4) : QStringLiteral("–"),
        e.best_is_released_score
            ? tr("released: the winners' %1 (mean over the released replicates)")
                  .arg(e.regression ? tr("final training loss") : tr("validation accuracy"))
            : (e.regression ? tr("final training loss") : tr("mean final validation accuracy")));
    const QString notes = QString::fromStdString(e.notes);
    set(kNotes, notes.section(QLatin1Char('\n'), 0, 0), notes);
  }
  // The newest run (first row) in view, unless a selected run is to stay in view.
  if (selected < 0 || !selectRun(selected)) table_->scrollToTop();
  updateButtons();
  emit reloaded();
}

const store::HistoryEntry* HistoryPanel::entry(qint64 id) const {
  for (const auto& e : entries_)
    if (e.record.id == id) return &e;
  return nullptr;
}

QList<qint64> HistoryPanel::ids() const {
  QList<qint64> list;
  for (const auto& e : entries_) list << e.record.id;
  return list;
}

bool HistoryPanel::selectRun(qint64 id) {
  for (int row = 0; row < table_->rowCount(); ++row) {
    if (table_->item(row, kId)->data(Qt::UserRole).toLongLong() == id) {
      table_->selectRow(row);
      return true;
    }
  }
  return false;
}

qint64 HistoryPanel::selectedRun() const {
  const auto rows = table_->selectionModel()->selectedRows();
  if (rows.isEmpty()) return -1;
  return table_->item(rows.first().row(), kId)->data(Qt::UserRole).toLongLong();
}

QString HistoryPanel::resumeHint() const {
  return hint_->isHidden() ? QString() : hint_->text();  // shown when its tab is
}

void HistoryPanel::updateButtons() {
  const qint64 id = selectedRun();
  const store::HistoryEntry* e = entry(id);
  const bool running = controller_->running();
  for (QPushButton* b : {open_, use_config_, rename_, notes_}) b->setEnabled(e != nullptr);
  open_->setEnabled(e && !running);
  compare_->setEnabled(e != nullptr);
  // A run being written (by this window or another process) is neither deleted nor resumed.
  delete_->setEnabled(e && !running &&
                      store::parse_run_status(e->record.status) != store::RunStatus::kRunning);
  resume_->setEnabled(e && e->resumable && !running);
  if (e && e->resumable && hidesRunCount(*e)) {
    hint_->setText(tr("Run #%1 was %2. A private selection resumes with dplab-cli tune --resume "
                      "%1 (its number of runs is curator-only and not shown).")
                       .arg(id)
                       .arg(QString::fromStdString(e->record.status)));
    hint_->setVisible(true);
  } else if (e && e->resumable) {
    hint_->setText(tr("Run #%1 was %2 with %3 of %4 jobs done. Resume runs only the missing "
                      "jobs; the result equals an uninterrupted run.")
                       .arg(id)
                       .arg(QString::fromStdString(e->record.status))
                       .arg(e->record.jobs_finished)
                       .arg(e->record.jobs_total));
    hint_->setVisible(true);
  } else {
    hint_->setVisible(false);
  }
}

void HistoryPanel::openSelected() {
  const qint64 id = selectedRun();
  if (id >= 0) openRun(id);
}

bool HistoryPanel::openRun(qint64 id) {
  store::Store* store = controller_->history();
  if (!store || controller_->running()) return false;
  try {
    const tuning::SearchResults results = store->load_results(id);
    std::optional<tuning::PrivateRelease> release;
    if (results.config.release.mode == experiment::ReleaseMode::kPrivate) {
      // A private run reopens showing only its released winners (as recorded when it ended).
      release = store::load_private_release(*store, id);
    }
    const store::HistoryEntry* e = entry(id);
    const QString name =
        e ? QString::fromStdString(e->record.name) : QString::fromStdString(results.config.name);
    data_->setResults(results, tr("run #%1 from the history (“%2”)").arg(id).arg(name), release,
                      store->spent_budget(id));
    emit message(tr("Opened run #%1 from the history").arg(id), false);
    if (e && e->resumable && hidesRunCount(*e)) {
      emit message(tr("Run #%1 is %2: a private selection resumes with dplab-cli tune --resume "
                      "%1.")
                       .arg(id)
                       .arg(QString::fromStdString(e->record.status)),
                   false);
    } else if (e && e->resumable) {
      emit message(tr("Run #%1 is %2: Resume (Run history) runs its %3 missing jobs.")
                       .arg(id)
                       .arg(QString::fromStdString(e->record.status))
                       .arg(e->record.jobs_total - e->record.jobs_finished),
                   false);
    }
    selectRun(id);
    emit opened();
    return true;
  } catch (const std::exception& ex) {
    emit message(tr("run history: %1").arg(QString::fromStdString(ex.what())), true);
    return false;
  }
}

bool HistoryPanel::requestConfig(qint64 id) {
  store::Store* store = controller_->history();
  if (!store || id < 0) return false;
  try {
    emit configRequested(store->load_results(id, /*with_curves=*/false).config);
    return true;
  } catch (const std::exception& ex) {
    emit message(tr("run history: %1").arg(QString::fromStdString(ex.what())), true);
    return false;
  }
}

bool HistoryPanel::renameRun(qint64 id, const QString& name) {
  store::Store* store = controller_->history();
  if (!store) return false;
  try {
    store->rename_experiment(id, name.trimmed().toStdString());
  } catch (const std::exception& ex) {
    emit message(tr("rename #%1: %2").arg(id).arg(QString::fromStdString(ex.what())), true);
    return false;
  }
  emit message(tr("Run #%1 renamed to “%2”").arg(id).arg(name.trimmed()), false);
  reload();
  return true;
}

bool HistoryPanel::setNotes(qint64 id, const QString& notes) {
  store::Store* store = controller_->history();
  if (!store) return false;
  try {
    store::set_run_notes(*store, id, notes.toStdString());
  } catch (const std::exception& ex) {
    emit message(tr("notes #%1: %2").arg(id).arg(QString::fromStdString(ex.what())), true);
    return false;
  }
  reload();
  return true;
}

bool HistoryPanel::deleteRun(qint64 id) {
  store::Store* store = controller_->history();
  if (!store || controller_->running()) return false;
  try {
    store->delete_experiment(id);
  } catch (const std::exception& ex) {
    emit message(tr("delete #%1: %2").arg(id).arg(QString::fromStdString(ex.what())), true);
    return false;
  }
  emit message(tr("Run #%1 deleted from the history").arg(id), false);
  reload();
  return true;
}

bool HistoryPanel::resumeRun(qint64 id) {
  const store::HistoryEntry* e = entry(id);
  if (!e || !e->resumable || controller_->running()) return false;
  const int threads = QSettings().value(QStringLiteral("run/threads"), 0).toInt();
  if (!controller_->resumeRun(id, threads)) return false;
  emit message(hidesRunCount(*e) ? tr("Resuming run #%1").arg(id)
                                 : tr("Resuming run #%1: %2 missing jobs")
                                       .arg(id)
                                       .arg(e->record.jobs_total - e->record.jobs_finished),
               false);
  updateButtons();
  return true;
}

void HistoryPanel::askRename() {
  const qint64 id = selectedRun();
  const store::HistoryEntry* e = entry(id);
  if (!e) return;
  bool ok = false;
  const QString name =
      QInputDialog::getText(this, tr("Rename run #%1").arg(id), tr("Name:"), QLineEdit::Normal,
                            QString::fromStdString(e->record.name), &ok);
  if (ok && !name.trimmed().isEmpty()) renameRun(id, name);
}

void HistoryPanel::askNotes() {
  const qint64 id = selectedRun();
  const store::HistoryEntry* e = entry(id);
  if (!e) return;
  bool ok = false;
  const QString notes = QInputDialog::getMultiLineText(this, tr("Notes on run #%1").arg(id),
                                                       tr("Notes (kept in the history file):"),
                                                       QString::fromStdString(e->notes), &ok);
  if (ok) setNotes(id, notes);
}

void HistoryPanel::askDelete() {
  const qint64 id = selectedRun();
  const store::HistoryEntry* e = entry(id);
  if (!e) return;
  const auto answer = QMessageBox::question(this, tr("Delete run #%1?").arg(id), deleteQuestion(id),
                                            QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
  if (answer == QMessageBox::Yes) deleteRun(id);
}

QString HistoryPanel::deleteQuestion(qint64 id) const {
  const store::HistoryEntry* e = entry(id);
  if (!e) return QString();
  const QString name = QString::fromStdString(e->record.name);
  if (hidesRunCount(*e)) {
    return tr("Delete run #%1 “%2” and all its results from the history? This cannot be undone.")
        .arg(id)
        .arg(name);
  }
  return tr("Delete run #%1 “%2” (%3 jobs) and all its results from the history? This cannot be "
            "undone.")
      .arg(id)
      .arg(name)
      .arg(e->record.jobs_finished);
}

void HistoryPanel::compareSelected() {
  store::Store* store = controller_->history();
  const auto rows = table_->selectionModel()->selectedRows();
  if (!store || rows.isEmpty()) return;
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
  // Every selected run is read first, so each can be labelled by what sets it apart from the
  // others (σ, T, the grid, ε: experiment::difference_labels).
  struct Shown {
    qlonglong id;
    tuning::SearchResults results;
  };
  std::vector<Shown> shown;
  std::vector<double> epsilons;
  for (const QModelIndex& row : rows) {
    const qlonglong id = table_->item(row.row(), kId)->data(Qt::UserRole).toLongLong();
    try {
      tuning::SearchResults r = store->load_results(id);
      if (r.config.release.mode == experiment::ReleaseMode::kPrivate) {
        // A private run contributes only its released winners.
        const auto release = store::load_private_release(*store, id);
        r = tuning::grid_shaped_runs(
            r, release ? tuning::released_jobs(*release) : std::vector<std::int64_t>{});
      }
      const store::HistoryEntry* e = entry(id);
      epsilons.push_back(e ? e->epsilon : std::nan(""));
      shown.push_back({id, std::move(r)});
    } catch (const std::exception& ex) {
      emit message(tr("compare #%1: %2").arg(id).arg(QString::fromStdString(ex.what())), true);
    }
  }
  std::vector<experiment::ExperimentConfig> configs;
  for (const Shown& s : shown) configs.push_back(s.results.config);
  const std::vector<std::string> labels = experiment::difference_labels(configs, epsilons);
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const qlonglong id = shown[k].id;
    const tuning::SearchResults& r = shown[k].results;
    const QString differs =
        labels[k].empty() ? QString() : QStringLiteral(" · ") + QString::fromStdString(labels[k]);
    int drawn = 0;
    for (const auto& agg : tuning::aggregate_all(r)) {
      if (agg.curves.iterations.empty()) continue;  // a legend entry with no line says nothing
      const QString name = OptimizerEditor::displayName(
          r.config.optimizers.at(static_cast<std::size_t>(agg.optimizer_index)));
      QCPGraph* g = plot->addGraph();
      g->setName(tr("#%1 %2 max").arg(id).arg(name) + differs);
      g->setPen(QPen(optimizerColor(name), 2, styles[k % 4]));
      for (std::size_t i = 0; i < agg.curves.iterations.size(); ++i) {
        g->addData(static_cast<double>(agg.curves.iterations[i]), agg.curves.best[i]);
      }
      ++drawn;
    }
    if (drawn == 0) {
      emit message(tr("compare #%1: no stored curves to draw (no job finished, or the release "
                      "kept none)")
                       .arg(id),
                   true);
    }
  }
  plot->xAxis->setLabel(tr("iteration (noisy-gradient queries)"));
  plot->yAxis->setLabel(tr("validation accuracy"));
  plot->rescaleAxes();
  plot->legend->setVisible(true);
  plot->replot();
  dialog->show();
}

}  // namespace dplab::ui
