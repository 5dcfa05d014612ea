#include "views/released_winner_tab.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "charts/chart_view.h"
#include "experiment/release_config.h"
#include "privacy/accounting/epsilon_display.h"
#include "release/model_release.h"
#include "release/release_writer.h"
#include "run/run_data.h"
#include "tuning/private_release_view.h"
#include "tuning/release_cost.h"
#include "views/shown_refresh.h"

namespace dplab::ui {

ReleasedWinnerTab::ReleasedWinnerTab(RunData* data, QWidget* parent)
    : QWidget(parent), data_(data) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  winner_ = new QLabel(this);
  winner_->setObjectName(QStringLiteral("releasedWinner"));
  winner_->setTextFormat(Qt::PlainText);
  winner_->setWordWrap(true);
  winner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont bold = winner_->font();
  bold.setBold(true);
  winner_->setFont(bold);
  epsilon_ = new QLabel(this);
  epsilon_->setObjectName(QStringLiteral("releasedEpsilon"));
  epsilon_->setTextFormat(Qt::PlainText);
  epsilon_->setWordWrap(true);
  epsilon_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  epsilon_->setToolTip(
      tr("The ε of what this private search released (each replicate's winner; with R > 1 "
         "replicate searches the total over all R, one replicate's ε beside it), rounded up: the "
         "selection's mode, δ and the validation assumption. Recompute one replicate's ε with "
         "the `recompute:` command that `dplab-cli tune --release private` prints."));
  details_ = new QLabel(this);
  details_->setTextFormat(Qt::PlainText);
  details_->setWordWrap(true);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(winner_);
  layout->addWidget(epsilon_);
  layout->addWidget(details_);
  chart_ = new ChartView(tr("Released winner: validation accuracy"),
                         QStringLiteral("released_winner"), this);
  QCustomPlot* plot = chart_->plot();
  plot->xAxis->setLabel(tr("iteration (noisy-gradient queries)"));
  plot->yAxis->setLabel(tr("validation accuracy"));
  layout->addWidget(chart_, 1);
  reveal_ = new QCheckBox(tr("Show every run — not private: for teaching only"), this);
  reveal_->setObjectName(QStringLiteral("revealAllRuns"));
  reveal_->setToolTip(
      tr("Shows the curves, heatmap and table of every run the selection trained. Those runs "
         "were NOT released: showing them is not covered by the ε above. Off for every new "
         "run."));
  export_model_ = new QPushButton(tr("Export model…"), this);
  export_model_->setObjectName(QStringLiteral("exportModel"));
  export_model_->setToolTip(
      tr("Writes the released winner's trained model into a folder: model.npz (numpy.load), "
         "model.json (architecture, input encoding and the privacy card) and model.onnx, with "
         "release.json. The ε above covers it. Predict with dplab-cli predict --model FOLDER."));
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(reveal_, 1);
  bottom->addWidget(export_model_);
  layout->addLayout(bottom);
  connect(export_model_, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Export the released model into folder"), QDir::homePath());
    if (!dir.isEmpty()) exportModelTo(dir);
  });
  connect(this, &ReleasedWinnerTab::modelExported, this,
          [this](bool ok, const QString& text) { emit message(text, !ok); });
  connect(chart_, &ChartView::message, this, &ReleasedWinnerTab::message);
  connect(reveal_, &QCheckBox::toggled, data_, &RunData::setRevealAll);
  // Redraws only while shown; a hidden tab catches up when shown (issue #25 item 13).
  new ShownRefresh(this, data_, [this](bool structural) { refresh(structural); });
  connect(data_, &RunData::revealChanged, this, [this](bool on) {
    const QSignalBlocker block(reveal_);
    reveal_->setChecked(on);
  });
  refresh(true);
}

QString ReleasedWinnerTab::winnerText() const {
  return winner_->text();
}
QString ReleasedWinnerTab::epsilonText() const {
  return epsilon_->text();
}
QString ReleasedWinnerTab::detailsText() const {
  return details_->text();
}
int ReleasedWinnerTab::curveCount() const {
  return chart_->plot()->graphCount();
}

bool ReleasedWinnerTab::exportModelTo(const QString& dir) {
  if (exporting_) return false;
  exporting_ = true;
  export_model_->setEnabled(false);
  // A snapshot of the run: the worker never touches the view or RunData.
  export_task_ = async::startInBackground(
      this,
      [runs = data_->runs(), winners = data_->privateRelease(), spent = data_->spentBudget(),
       target = dir.toStdString()](async::TaskControl&) {
        const release::Release model = release::model_release(runs, winners, spent);
        release::write_release(model, target);
        QStringList folders;
        for (const auto& m : model.models) folders << QString::fromStdString(m.folder);
        return folders;
      },
      [this, dir](const QStringList& folders) {
        exporting_ = false;
        refresh(true);
        emit modelExported(true, tr("Model written to %1 (%2: model.npz, model.json, model.onnx)")
                                     .arg(QDir::toNativeSeparators(dir), folders.join(", ")));
      },
      [this](const async::Failure& failure) {
        exporting_ = false;
        refresh(true);
        emit modelExported(false, tr("Model not exported: %1").arg(failure.message));
      });
  return true;
}

void ReleasedWinnerTab::refresh(bool structural) {
  if (!structural) return;  // live points of private runs are not shown here
  QCustomPlot* plot = chart_->plot();
  plot->clearGraphs();
  reveal_->setEnabled(data_->isPrivate() && !data_->live());
  const auto& released = data_->privateRelease();
  export_model_->setEnabled(!exporting_ && data_->isPrivate() && !data_->live() && released &&
                            released->released > 0);
  if (!data_->isPrivate()) {
    winner_->setText(tr("This run explores: every run is shown and charged (see Results)."));
    epsilon_->clear();
    details_->clear();
    plot->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  const tuning::SearchResults& runs = data_->runs();
  const auto& release = runs.config.release;
  try {
    epsilon_->setText(QString::fromStdString(
        tuning::epsilon_label(tuning::private_release_cost(runs), privacy::kEpsilonDigits)));
  } catch (const std::exception& e) {
    epsilon_->setText(tr("ε not available: %1").arg(QString::fromStdString(e.what())));
  }
  const bool noisy_score = release.validation == experiment::ValidationAssumption::kPrivate;
  QStringList details;
  details << tr("selection: %1 · δ = %2 · validation: %3%4")
                 .arg(QString::fromStdString(experiment::describe_release(release)))
                 .arg(runs.mechanism.delta, 0, 'g', 3)
                 .arg(QString::fromStdString(experiment::to_string(release.validation)))
                 .arg(noisy_score ? tr(" (score released with Gaussian noise)") : QString());
  details << QString::fromStdString(tuning::noise_source_text(release));
  const auto& rel = data_->privateRelease();
  // The number of runs trained K (and the hard-stop flag) is curator-only: the ε of LT / PS
  // covers the winner with K integrated out (docs/privacy-model.md).
  if (data_->live()) {
    winner_->setText(tr("Private selection running; only the winner will be shown."));
  } else if (!rel) {
    winner_->setText(tr("The winners of this private run were not recorded: nothing to show."));
  } else {
    details << tr("%1 replicate search(es); %2 released a winner")
                   .arg(rel->replicates.size())
                   .arg(rel->released);
    QStringList winners;
    const QColor colors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                             QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd)};
    for (std::size_t r = 0; r < rel->replicates.size(); ++r) {
      const auto& rep = rel->replicates[r];
      const QString prefix =
          rel->replicates.size() > 1 ? tr("replicate %1: ").arg(r + 1) : QString();
      if (rep.winner_job < 0 || rep.winner_candidate < 0) {
        winners << prefix + (rep.complete ? tr("nothing released (no run drawn)")
                                          : tr("nothing released (cancelled)"));
        continue;
      }
      const auto& cand = runs.candidates.at(static_cast<std::size_t>(rep.winner_candidate));
      winners << prefix + tr("released %1, %2 %3")
                              .arg(QString::fromStdString(cand.label()))
                              .arg(noisy_score ? tr("noisy validation accuracy")
                                               : tr("validation accuracy"))
                              .arg(rep.released_score, 0, 'f', 4);
      if (noisy_score) continue;  // the curve is not covered by the noisy score's ε
      const auto& job = runs.jobs.at(static_cast<std::size_t>(rep.winner_job));
      QCPGraph* g = plot->addGraph();
      g->setName(prefix + QString::fromStdString(cand.label()));
      g->setPen(QPen(colors[r % 4], 2));
      for (const auto& p : job.curve) g->addData(static_cast<double>(p.iteration), p.val_accuracy);
    }
    if (rel->released >= 2) {
      details << tr("released accuracy over %1 replicates: mean %2, 95% CI [%3, %4]")
                     .arg(rel->released)
                     .arg(rel->mean_score, 0, 'f', 4)
                     .arg(rel->ci_low, 0, 'f', 4)
                     .arg(rel->ci_high, 0, 'f', 4);
    }
    winner_->setText(winners.join(QLatin1Char('\n')));
  }
  details_->setText(details.join(QLatin1Char('\n')));
  plot->legend->setVisible(plot->graphCount() > 0);
  plot->rescaleAxes();
  // An accuracy axis: 0–1 without a curve (not QCustomPlot's default 0–5), else fitted.
  if (plot->graphCount() == 0) {
    plot->yAxis->setRange(0, 1);
  } else {
    chart_->fitValueRange();
  }
  plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace dplab::ui
