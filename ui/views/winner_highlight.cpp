#include "views/winner_highlight.h"

#include <qcustomplot.h>
#include <QFont>
#include <cmath>

#include "run/run_data.h"
#include "tuning/aggregates.h"
#include "tuning/winners.h"

namespace dplab::ui {

const QColor WinnerHighlightProxy::kBackground = QColor(0xff, 0xf1, 0xb8);

WinnerHighlightProxy::WinnerHighlightProxy(RunData* data, int candidate_column, QObject* parent)
    : QIdentityProxyModel(parent), data_(data), candidate_column_(candidate_column) {
  // Before the table's own refresh is seen through the proxy, so the rows repaint with it.
  connect(data_, &RunData::changed, this, [this] { update(); });
  update();
}

void WinnerHighlightProxy::update() {
  QSet<int> winners;
  if (data_->hasRun()) {
    for (int w : tuning::winners_per_optimizer(data_->viewResults()))
      if (w >= 0) winners.insert(w);
  }
  if (winners == winners_) return;
  winners_ = winners;
  if (rowCount() > 0)
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1),
                     {Qt::BackgroundRole, Qt::FontRole, Qt::ToolTipRole});
}

bool WinnerHighlightProxy::isWinnerRow(int row) const {
  const QVariant candidate = QIdentityProxyModel::data(index(row, candidate_column_), Qt::UserRole);
  return candidate.isValid() && winners_.contains(candidate.toInt());
}

QVariant WinnerHighlightProxy::data(const QModelIndex& index, int role) const {
  if (index.isValid() &&
      (role == Qt::BackgroundRole || role == Qt::FontRole || role == Qt::ToolTipRole) &&
      isWinnerRow(index.row())) {
    if (role == Qt::BackgroundRole) return QBrush(kBackground);
    if (role == Qt::FontRole) {
      QFont bold;
      bold.setBold(true);
      return bold;
    }
    return data_->live() ? tr("Provisional winner of its optimizer: the best so far while the "
                              "run goes on; candidates still training may overtake it.")
                         : tr("Winner of its optimizer: the candidate honest selection picks "
                              "(best mean final score over finished repeats).");
  }
  return QIdentityProxyModel::data(index, role);
}

QCPGraph* addWinnerCurve(QCustomPlot* plot, const tuning::OptimizerAggregates& aggregate,
                         const QString& optimizer_name, const QColor& colour, bool provisional) {
  if (aggregate.winner < 0) return nullptr;
  QCPGraph* g = plot->addGraph();
  g->setName(
      (provisional ? QObject::tr("%1 winner #%2 (provisional)") : QObject::tr("%1 winner #%2"))
          .arg(optimizer_name)
          .arg(aggregate.winner));
  g->setPen(QPen(colour, 1.2, Qt::DotLine));
  g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(colour, 1.5), Qt::NoBrush, 8));
  const auto& it = aggregate.curves.iterations;
  for (std::size_t i = 0; i < it.size() && i < aggregate.winner_curve.size(); ++i) {
    if (std::isfinite(aggregate.winner_curve[i]))
      g->addData(static_cast<double>(it[i]), aggregate.winner_curve[i]);
  }
  return g;
}

}  // namespace dplab::ui
