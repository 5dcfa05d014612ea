#include "views/results_tab.h"

#include <qcustomplot.h>
#include <QDialog>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "charts/chart_export.h"
#include "charts/chart_view.h"
#include "run/run_data.h"
#include "tuning/release_cost.h"
#include "views/results_model.h"
#include "views/winner_highlight.h"

namespace dplab::ui {

ResultsTab::ResultsTab(RunData* data, QWidget* parent)
    : QWidget(parent),
      data_(data),
      model_(new ResultsModel(data, this)),
      proxy_(new QSortFilterProxyModel(this)),
      release_label_(new QLabel(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  release_label_->setWordWrap(true);
  release_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  release_label_->setToolTip(
      tr("What the ε of this search covers: the release mode, δ and the "
         "validation assumption (ε rounded up), and what it does not cover: the training "
         "losses (un-noised, on the private training set) and a feature scaling fitted on the "
         "private data. The MA/LT columns below are planning figures, not the cost of this "
         "search."));
  layout->addWidget(release_label_);
  connect(model_, &QAbstractItemModel::modelReset, this, &ResultsTab::updateReleaseLabel);
  connect(model_, &QAbstractItemModel::dataChanged, this, &ResultsTab::updateReleaseLabel);
  auto* bar = new QHBoxLayout;
  auto* filter = new QLineEdit(this);
  filter->setPlaceholderText(tr("filter rows (e.g. DPAdam)"));
  filter->setToolTip(tr("Show only rows whose text contains this (any column)."));
  auto* export_button = new QPushButton(tr("Export CSV…"), this);
  export_button->setToolTip(tr("Save the table (unrounded numbers) as CSV."));
  bar->addWidget(filter, 1);
  bar->addWidget(export_button);
  layout->addLayout(bar);
  // Winners bold on gold between the model and the sorting (views/winner_highlight.h).
  highlight_ = new WinnerHighlightProxy(data_, ResultsModel::kIndex, this);
  highlight_->setSourceModel(model_);
  proxy_->setSourceModel(highlight_);
  proxy_->setSortRole(Qt::UserRole);
  proxy_->setFilterKeyColumn(-1);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  view_ = new QTableView(this);
  view_->setModel(proxy_);
  view_->setSortingEnabled(true);
  view_->sortByColumn(ResultsModel::kIndex, Qt::AscendingOrder);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setAlternatingRowColors(true);
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->verticalHeader()->setVisible(false);
  view_->setToolTip(
      tr("One row per candidate; click a header to sort, double-click a row to see "
         "its curves."));
  layout->addWidget(view_, 1);
  connect(filter, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
  connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    const QModelIndex source = proxy_->mapToSource(index);
    showCandidate(
        model_->data(model_->index(source.row(), ResultsModel::kIndex), Qt::UserRole).toInt());
  });
  connect(export_button, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export results"), QStringLiteral("results.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (exportCsv(path, &error)) {
      emit message(tr("Saved %1").arg(path), false);
    } else {
      emit message(error, true);
    }
  });
}

QString ResultsTab::releaseLabel() const {
  return release_label_->text();
}

void ResultsTab::updateReleaseLabel() {
  if (!data_->hasRun()) {
    release_label_->clear();
    return;
  }
  try {
    // A few microseconds once the accountant's curve is cached
    // (engine/privacy/accounting/rdp_accountant.h).
    release_label_->setText(QString::fromStdString(tuning::epsilon_label(data_->releaseCost())));
  } catch (const std::exception& e) {
    release_label_->setText(tr("ε not available: %1").arg(QString::fromStdString(e.what())));
  }
}

bool ResultsTab::exportCsv(const QString& path, QString* error) const {
  return writeCsv(csvTable(), path, error);
}

CsvTable ResultsTab::csvTable() const {
  CsvTable table = modelTable(model_);
  if (data_->hasRun()) {
    try {
      table.constantColumns.push_back(
          {QStringLiteral("epsilon_label"),
           QString::fromStdString(tuning::epsilon_csv_label(data_->releaseCost()))});
    } catch (const std::exception& e) {
      table.constantColumns.push_back(
          {QStringLiteral("epsilon_label"), QStringLiteral("eps not available: %1").arg(e.what())});
    }
  }
  return table;
}

void ResultsTab::showCandidate(int candidate) {
  const tuning::SearchResults& r = data_->results();
  if (candidate < 0 || candidate >= static_cast<int>(r.candidates.size())) return;
  const auto& cand = r.candidates[static_cast<std::size_t>(candidate)];
  auto* dialog = new QDialog(this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(QString::fromStdString(cand.label()));
  dialog->resize(820, 520);
  auto* layout = new QVBoxLayout(dialog);
  auto* chart =
      new ChartView(tr("Candidate %1: %2").arg(candidate).arg(QString::fromStdString(cand.label())),
                    QStringLiteral("candidate_%1").arg(candidate), dialog);
  layout->addWidget(chart);
  connect(chart, &ChartView::message, this, &ResultsTab::message);
  QCustomPlot* plot = chart->plot();
  plot->yAxis2->setVisible(true);
  plot->xAxis->setLabel(tr("iteration (noisy-gradient queries)"));
  plot->yAxis->setLabel(tr("validation accuracy"));
  plot->yAxis2->setLabel(tr("training loss (lot mean; not covered by ε)"));
  const QColor colors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                           QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd)};
  for (int rep = 0; rep < std::max(1, r.config.repeats); ++rep) {
    const auto& job = r.job(candidate, rep);
    QCPGraph* acc = plot->addGraph(plot->xAxis, plot->yAxis);
    acc->setName(tr("accuracy, repeat %1").arg(rep));
    acc->setPen(QPen(colors[rep % 4], 2));
    QCPGraph* loss = plot->addGraph(plot->xAxis, plot->yAxis2);
    loss->setName(tr("train loss (not covered by ε), repeat %1").arg(rep));
    loss->setPen(QPen(colors[rep % 4], 1.2, Qt::DotLine));
    for (const auto& p : job.curve) {
      acc->addData(static_cast<double>(p.iteration), p.val_accuracy);
      loss->addData(static_cast<double>(p.iteration), p.train_loss);
    }
  }
  plot->rescaleAxes();
  plot->legend->setVisible(true);
  plot->replot();
  dialog->show();
}

}  // namespace dplab::ui
