// ResultsTab: the sortable results table (ResultsModel behind a QSortFilterProxyModel sorting on
// unrounded numbers) with a text filter and CSV export; double-clicking a row opens a chart of
// that candidate's learning curves (validation accuracy and training loss of every repeat).
#pragma once

#include <QLabel>

#include <QWidget>

#include "charts/chart_export.h"

class QTableView;
class QSortFilterProxyModel;

namespace dplab::ui {

class ResultsModel;
class RunData;
class WinnerHighlightProxy;

class ResultsTab : public QWidget {
  Q_OBJECT
 public:
  ResultsTab(RunData* data, QWidget* parent = nullptr);
  ResultsModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  WinnerHighlightProxy* highlight() const { return highlight_; }
  QTableView* view() const { return view_; }
  bool exportCsv(const QString& path, QString* error) const;
  // The table as exported: the ε label of the shown search as its first comment line.
  CsvTable csvTable() const;
  // The epsilon of what this search released, with its mode, delta and validation assumption
  // (engine: tuning::epsilon_label of tuning::release_cost), shown above the table.
  QString releaseLabel() const;
  // Opens the curves of a candidate (non-modal).
  void showCandidate(int candidate);

 signals:
  void message(const QString& text, bool is_error);

 private:
  RunData* data_;
  ResultsModel* model_;
  QSortFilterProxyModel* proxy_;
  WinnerHighlightProxy* highlight_;
  QTableView* view_;
  QLabel* release_label_;
  void updateReleaseLabel();
};

}  // namespace dplab::ui
