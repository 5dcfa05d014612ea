// HistoryPanel: the run history from the SQLite store (engine store::Store::list_experiments):
// one line per experiment (date, name, status, jobs finished). Double-click (or "Open") reloads a
// run into the charts and table (store::Store::load_results); "Compare" overlays the best
// (max-accuracy) curve per optimizer of the selected runs, from the engine aggregates.
#pragma once

#include <QWidget>

class QListWidget;

namespace dplab::ui {

class RunController;
class RunData;

class HistoryPanel : public QWidget {
  Q_OBJECT
 public:
  HistoryPanel(RunController* controller, RunData* data, QWidget* parent = nullptr);
  int count() const;
  // Shows run `id` of the history in the charts and the table; false if it cannot be loaded.
  bool openRun(qint64 id);
  // The ids listed, newest first.
  QList<qint64> ids() const;

 public slots:
  void reload();

 signals:
  void message(const QString& text, bool is_error);
  void opened();

 private:
  void openSelected();
  void compareSelected();

  RunController* controller_;
  RunData* data_;
  QListWidget* list_;
};

}  // namespace dplab::ui
