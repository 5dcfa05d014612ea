// ReleasedWinnerTab: what a PRIVATE search released (engine tuning/private_search.h) and nothing
// else — each replicate's winner: its validation curve (validation public only: with a private
// score the curve would be an unprotected statistic), its released score, the ε of the release
// with its mode, selection rule, δ and validation assumption (engine tuning::epsilon_label of
// tuning::private_release_cost, rounded up; with R > 1 replicates the total over all R, one
// replicate beside it), and whether the noise was secure (or reproducible from the seed). Never
// how many runs the selection trained (K: curator-only, docs/privacy-model.md). Below, the switch
// "show every run — not private: for teaching only" (RunData::setRevealAll): off for every new run;
// the main window shows a banner while it is on. Every number comes from the engine; this view only
// formats it. "Export model…" writes the released winner's model (model.npz, model.json,
// model.onnx with release.json: engine release/model_release.h) into a chosen folder, off the GUI
// thread.
#pragma once

#include <QWidget>

#include "async/background_task.h"

class QCheckBox;
class QLabel;
class QPushButton;

namespace dplab::ui {

class ChartView;
class RunData;

class ReleasedWinnerTab : public QWidget {
  Q_OBJECT
 public:
  ReleasedWinnerTab(RunData* data, QWidget* parent = nullptr);

  ChartView* chart() const { return chart_; }
  QCheckBox* revealSwitch() const { return reveal_; }
  QPushButton* exportModelButton() const { return export_model_; }
  // Writes the released model into `dir` in the background (the button asks for the folder);
  // modelExported reports the outcome. False when nothing can start (an export is running).
  bool exportModelTo(const QString& dir);
  // The texts shown (for tests and the report).
  QString winnerText() const;
  QString epsilonText() const;
  QString detailsText() const;
  // Graphs drawn in the chart (one per released winner).
  int curveCount() const;

 public slots:
  void refresh(bool structural);

 signals:
  void message(const QString& text, bool is_error);
  void modelExported(bool ok, const QString& text);

 private:
  RunData* data_;
  QLabel* winner_;
  QLabel* epsilon_;
  QLabel* details_;
  ChartView* chart_;
  QCheckBox* reveal_;
  QPushButton* export_model_;
  async::TaskHandle export_task_;
  bool exporting_ = false;
};

}  // namespace dplab::ui
