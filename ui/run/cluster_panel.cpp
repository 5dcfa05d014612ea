#include "run/cluster_panel.h"

#include <QDir>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "async/background_computation.h"
#include "charts/theme.h"
#include "cluster/merged_run.h"
#include "core/thread_priority.h"
#include "run/history_panel.h"
#include "run/run_controller.h"
#include "run/run_data.h"
#include "store/store.h"

namespace dplab::ui {

namespace {
constexpr int kPollMs = 1000;  // a shard stores a job when it ends: seconds apart at best
constexpr int kCellHeight = 22;
}  // namespace

// ---------------------------------------------------------------------------------------------
// ShardStrip

ShardStrip::ShardStrip(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("shardStrip"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void ShardStrip::setStates(const std::vector<cluster::ShardState>& states) {
  states_ = states;
  update();
}

QSize ShardStrip::sizeHint() const {
  return {400, kCellHeight};
}

QSize ShardStrip::minimumSizeHint() const {
  return {100, kCellHeight};
}

QString ShardStrip::cellText(int shard) const {
  if (shard < 0 || shard >= static_cast<int>(states_.size())) return {};
  const cluster::ShardState& s = states_[static_cast<std::size_t>(shard)];
  QString text = tr("shard %1: %2/%3 jobs").arg(s.shard).arg(s.finished + s.failed).arg(s.jobs);
  if (s.failed > 0) text += tr(", %1 failed").arg(s.failed);
  if (!s.error.empty()) return text + tr(" — error");
  if (!s.store_exists) return text + tr(" — no store yet");
  if (s.complete()) return text + tr(" — complete");
  if (s.stale) return text + tr(" — stale");
  return text + tr(" — running");
}

int ShardStrip::cellAt(int x) const {
  const int n = static_cast<int>(states_.size());
  if (n == 0 || width() <= 0) return -1;
  return std::clamp(x * n / width(), 0, n - 1);
}

bool ShardStrip::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int i = cellAt(help->pos().x());
    if (i < 0) {
      QToolTip::hideText();
      return true;
    }
    const cluster::ShardState& s = states_[static_cast<std::size_t>(i)];
    QString tip = cellText(i);
    if (!s.path.empty()) tip += QStringLiteral("\n") + QString::fromStdString(s.path);
    if (!s.run_status.empty())
      tip += tr("\nstore's run: %1").arg(QString::fromStdString(s.run_status));
    if (s.seconds_since_write >= 0)
      tip += tr("\nlast write %1 s ago").arg(s.seconds_since_write, 0, 'f', 0);
    if (s.stale)
      tip += tr("\nstale: its task may have died; run the shard again (run-jobs resumes it)");
    if (!s.error.empty()) tip += QStringLiteral("\n") + QString::fromStdString(s.error);
    QToolTip::showText(help->globalPos(), tip, this);
    return true;
  }
  return QWidget::event(event);
}

void ShardStrip::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const int n = static_cast<int>(states_.size());
  const QColor frame = palette().color(QPalette::Mid);
  if (n == 0) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignVCenter | Qt::AlignLeft,
               tr("no shard store yet (the shard count is known once one appears)"));
    return;
  }
  const QFontMetrics fm(font());
  for (int i = 0; i < n; ++i) {
    const cluster::ShardState& s = states_[static_cast<std::size_t>(i)];
    const int x0 = i * width() / n, x1 = (i + 1) * width() / n;
    const QRect cell(x0, 0, std::max(1, x1 - x0 - (n > 1 ? 1 : 0)), height() - 1);
    QColor background(QStringLiteral("#eeeeee"));
    if (!s.error.empty()) {
      background = QColor(QStringLiteral("#f4c7c3"));
    } else if (s.stale) {
      background = QColor(QStringLiteral("#ffe0a3"));
    }
    p.fillRect(cell, background);
    if (!s.store_exists && s.error.empty()) {
      p.fillRect(cell, QBrush(QColor(QStringLiteral("#bbbbbb")), Qt::BDiagPattern));
    }
    if (s.jobs > 0) {
      const double done = static_cast<double>(s.finished) / static_cast<double>(s.jobs);
      const double failed = static_cast<double>(s.failed) / static_cast<double>(s.jobs);
      const int w_done = static_cast<int>(cell.width() * done + 0.5);
      const int w_failed = static_cast<int>(cell.width() * failed + 0.5);
      p.fillRect(QRect(cell.left(), cell.top(), w_done, cell.height()),
                 QColor(s.complete() ? QStringLiteral("#6fbf73") : QStringLiteral("#90caf9")));
      p.fillRect(QRect(cell.left() + w_done, cell.top(), w_failed, cell.height()),
                 QColor(QStringLiteral("#e57373")));
    }
    p.setPen(frame);
    p.drawRect(cell);
    // "I: done/jobs" when it fits, else "done/jobs", else nothing (the tooltip has it).
    const QString full =
        QStringLiteral("%1: %2/%3").arg(s.shard).arg(s.finished + s.failed).arg(s.jobs);
    const QString brief = QStringLiteral("%1/%2").arg(s.finished + s.failed).arg(s.jobs);
    QString text;
    if (fm.horizontalAdvance(full) + 6 <= cell.width()) {
      text = full;
    } else if (fm.horizontalAdvance(brief) + 4 <= cell.width()) {
      text = brief;
    }
    if (!text.isEmpty()) {
      p.setPen(QColor(Qt::black));
      p.drawText(cell, Qt::AlignCenter, text);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// ClusterPanel

// The worker's side of one attached folder: made on the first poll (reading plan.json there).
struct ClusterPanel::Watch {
  std::string dir;
  int generation = 0;
  std::unique_ptr<cluster::ClusterWatcher> watcher;
};

ClusterPanel::ClusterPanel(RunData* data, RunController* controller, HistoryPanel* history,
                           QWidget* parent)
    : QWidget(parent),
      data_(data),
      controller_(controller),
      history_(history),
      polls_task_(
          this,
          [](const std::shared_ptr<Watch>& watch) {
            lower_this_thread_priority();  // the GUI thread keeps a core
            Delivery d;
            d.generation = watch->generation;
            if (!watch->watcher) {
              watch->watcher = std::make_unique<cluster::ClusterWatcher>(watch->dir);
              d.plan = std::make_shared<const cluster::SearchPlan>(watch->watcher->plan());
            }
            d.poll = std::make_shared<const cluster::ClusterPoll>(watch->watcher->poll());
            return d;
          },
          [this](int, const Delivery& d) { onDelivery(d); },
          [this](int, const QString& error) { onFailure(error); }) {
  setObjectName(QStringLiteral("clusterPanel"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 2, 0, 2);
  layout->setSpacing(2);
  auto* top = new QHBoxLayout;
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("clusterSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  top->addWidget(summary_, 1);
  show_button_ = new QPushButton(tr("Show in charts"), this);
  show_button_->setToolTip(tr("The charts show another run: show the cluster run again"));
  merge_button_ = new QPushButton(tr("Merge"), this);
  merge_button_->setToolTip(
      tr("Every shard is complete: fold the shard stores into one run of the run history "
         "(what dplab-cli history merge does)"));
  detach_button_ = new QPushButton(tr("Detach"), this);
  detach_button_->setToolTip(tr("Stop watching this plan folder (the shards go on running)"));
  top->addWidget(show_button_);
  top->addWidget(merge_button_);
  top->addWidget(detach_button_);
  layout->addLayout(top);
  strip_ = new ShardStrip(this);
  layout->addWidget(strip_);
  curator_note_ = new QLabel(
      tr("Curator only: a private search's job counts reveal the number of runs K (the ε does "
         "not cover them)."),
      this);
  curator_note_->setObjectName(QStringLiteral("clusterCuratorNote"));
  curator_note_->setWordWrap(true);
  setTone(curator_note_, Tone::kWarning);
  layout->addWidget(curator_note_);

  timer_ = new QTimer(this);
  timer_->setInterval(kPollMs);
  connect(timer_, &QTimer::timeout, this, &ClusterPanel::tick);
  merge_task_ = new BackgroundTask(this);
  connect(show_button_, &QPushButton::clicked, this, &ClusterPanel::showInCharts);
  connect(merge_button_, &QPushButton::clicked, this, &ClusterPanel::merge);
  connect(detach_button_, &QPushButton::clicked, this, &ClusterPanel::detach);
  setVisible(false);
  updateView();
}

ClusterPanel::~ClusterPanel() = default;

void ClusterPanel::setPollInterval(int ms) {
  timer_->setInterval(ms);
}

void ClusterPanel::attach(const QString& dir) {
  detach();
  dir_ = QDir(dir).absolutePath();
  watch_ = std::make_shared<Watch>();
  watch_->dir = QDir::toNativeSeparators(dir_).toStdString();
  watch_->generation = ++generation_;
  setVisible(true);
  report(tr("Watching the cluster run in %1 (read only) …").arg(dir_), false);
  updateView();
  polls_task_.submit(watch_);
  timer_->start();
  emit attachedChanged(true);
}

void ClusterPanel::detach() {
  const bool was = attached();
  timer_->stop();
  ++generation_;  // a poll in flight is ignored when it arrives
  watch_.reset();
  plan_.reset();
  last_.reset();
  dir_.clear();
  feeding_ = false;
  finalized_ = false;
  merged_run_ = -1;
  polls_ = 0;
  reported_.clear();
  strip_->setStates({});
  setVisible(false);
  if (was) emit attachedChanged(false);
}

void ClusterPanel::tick() {
  // One poll at a time: a slow file system delays the next poll, never the GUI thread.
  if (watch_ && !polls_task_.busy()) polls_task_.submit(watch_);
}

QString ClusterPanel::runTitle() const {
  const QString name =
      plan_ ? QString::fromStdString(plan_->search.config.name) : QStringLiteral("?");
  return tr("cluster run “%1” in %2").arg(name, dir_);
}

void ClusterPanel::onFailure(const QString& error) {
  // Only reading plan.json can fail (a store's error comes inside the poll): not a plan folder,
  // unreadable, or edited. Nothing to watch.
  if (!watch_ || plan_) {
    report(tr("cluster run: %1").arg(error), true);
    return;
  }
  detach();
  report(tr("Open cluster run: %1").arg(error), true);
}

void ClusterPanel::onDelivery(const Delivery& d) {
  if (!watch_ || d.generation != watch_->generation) return;  // detached or re-attached since
  ++polls_;
  if (d.plan) {
    plan_ = d.plan;
    // The same start as a local run: the plan's jobs, pending (a private plan: the drawn runs).
    // A local run that is going on keeps the charts ("Show in charts" once it has ended).
    feeding_ = !controller_->running();
    if (feeding_) data_->beginLive(plan_->search, runTitle());
  }
  last_ = d.poll;
  const cluster::ClusterPoll& poll = *d.poll;
  for (const cluster::ShardState& s : poll.shard_states) {
    if (!s.error.empty()) report(QString::fromStdString(s.error), true);
  }
  for (const std::string& e : poll.errors) report(QString::fromStdString(e), true);
  // The charts were taken over (another run shown, or cleared).
  if (feeding_ && (!data_->hasRun() || data_->title() != runTitle())) feeding_ = false;
  if (feeding_) feed(poll);
  strip_->setStates(poll.shard_states);
  updateView();
}

void ClusterPanel::feed(const cluster::ClusterPoll& poll) {
  if (finalized_) return;
  if (poll.complete) {
    // As a local run ends: the whole search (a private release: with its winners).
    data_->setResults(*poll.results, runTitle(), poll.release);
    finalized_ = true;
    report(tr("Cluster run complete: every planned job is stored; Merge adds it to the run "
              "history."),
           false);
    return;
  }
  if (poll.new_jobs.empty()) return;
  tuning::MonitorUpdate update;
  update.new_finished = poll.new_jobs;
  update.progress.jobs_done = poll.jobs_done;
  update.progress.jobs_total = poll.jobs_total;
  data_->apply(update);
}

void ClusterPanel::showInCharts() {
  if (!plan_ || !last_) return;
  if (controller_->running()) {
    report(tr("A local run is using the charts: show the cluster run once it has ended."), false);
    return;
  }
  feeding_ = true;
  finalized_ = false;
  data_->beginLive(plan_->search, runTitle());
  if (!last_->complete) {
    tuning::MonitorUpdate update;
    for (const auto& job : last_->results->jobs) {
      if (job.status != tuning::JobStatus::kPending) update.new_finished.push_back(job);
    }
    if (!update.new_finished.empty()) data_->apply(update);
  } else {
    feed(*last_);
  }
  updateView();
}

bool ClusterPanel::merge() {
  if (!merge_button_->isEnabled() || !plan_ || !last_) return false;
  std::shared_ptr<store::Store> history = controller_->sharedHistory();
  if (!history) {
    report(tr("Merge: no run history is open"), true);
    return false;
  }
  auto plan = plan_;
  const std::string dir = watch_->dir;
  auto result =
      std::make_shared<std::optional<std::pair<cluster::MergedRun, tuning::SearchResults>>>();
  const int generation = watch_->generation;
  QObject* context = new QObject(this);  // the connection below lives for this merge only
  connect(merge_task_, &BackgroundTask::finished, context,
          [this, context, result, generation](bool ok, bool, const QString& error) {
            context->deleteLater();
            updateView();
            if (!ok) {
              report(tr("Merge: %1").arg(error), true);
              return;
            }
            const auto& [run, results] = **result;
            if (watch_ && watch_->generation == generation) merged_run_ = run.run_id;
            // Shown as the history opens a run: its title, the winners of a private release.
            data_->setResults(results,
                              tr("run #%1 from the history (“%2”)")
                                  .arg(run.run_id)
                                  .arg(QString::fromStdString(results.config.name)),
                              run.release);
            feeding_ = false;
            history_->reload();
            report(tr("Merged the cluster run into run #%1 of the run history.").arg(run.run_id),
                   false);
            emit merged(run.run_id);
            updateView();
          });
  // history merge's engine steps, off the GUI thread (the history's Store is shared and locked).
  merge_task_->start(
      [plan, dir, history, result](const std::atomic<bool>&, const BackgroundTask::ProgressFn&) {
        cluster::MergeReport merged = cluster::merge_shards(*plan, dir);
        cluster::MergedRun run = cluster::store_merged_run(*plan, merged, *history);
        *result = std::make_pair(std::move(run), std::move(merged.results));
      });
  updateView();
  return true;
}

void ClusterPanel::report(const QString& text, bool is_error) {
  if (is_error && !reported_.insert(text).second) return;  // said once per attach
  emit message(text, is_error);
}

void ClusterPanel::updateView() {
  const cluster::ClusterPoll* poll = last_.get();
  const bool is_private = plan_ && plan_->private_plan.has_value();
  curator_note_->setVisible(is_private);
  QString text;
  if (!plan_) {
    text = tr("Cluster run %1: reading the plan …").arg(dir_);
  } else {
    text = tr("<b>Cluster run</b> “%1” · %2")
               .arg(QString::fromStdString(plan_->search.config.name).toHtmlEscaped(),
                    dir_.toHtmlEscaped());
    if (poll) {
      int complete = 0, stale = 0, errors = 0, without = 0;
      for (const auto& s : poll->shard_states) {
        complete += s.complete();
        stale += s.stale && !s.complete();
        errors += !s.error.empty();
        without += !s.store_exists;
      }
      text += QStringLiteral("<br>");
      if (poll->shards == 0) {
        text += tr("%1 jobs planned; no shard store yet").arg(poll->jobs_total);
      } else {
        text += tr("%1 of %2 shards complete · %3 of %4 jobs stored")
                    .arg(complete)
                    .arg(poll->shards)
                    .arg(poll->jobs_done)
                    .arg(poll->jobs_total);
        if (without > 0) text += tr(" · %1 without a store yet").arg(without);
        if (stale > 0) text += tr(" · <span style='color:#8a4b00'>%1 stale</span>").arg(stale);
        if (errors > 0) text += tr(" · <span style='color:#b00020'>%1 in error</span>").arg(errors);
      }
      if (merged_run_ >= 0) text += tr(" · merged into run #%1").arg(merged_run_);
    }
  }
  summary_->setText(text);
  const bool merging = merge_task_->busy();
  merge_button_->setEnabled(poll && poll->complete && !merging && merged_run_ < 0);
  merge_button_->setText(merging ? tr("Merging …") : tr("Merge"));
  show_button_->setVisible(plan_ && !feeding_ && merged_run_ < 0);
}

}  // namespace dplab::ui
