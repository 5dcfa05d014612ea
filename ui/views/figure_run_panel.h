// FigureRunPanel: the settings column every paper-figure view shares (objective perturbation's
// Figure 2, sparse DP's Figure 1 and canary audit, the OSO protocol's Figure 4): the owner's
// settings on top, then Run / Cancel, a progress bar, a status line and the owner's notes, in a
// fixed-width scroll area (the window keeps fitting small screens whatever the text lengths).
// It owns the BackgroundTask that runs the figure's engine computation off the GUI thread, keeps
// the buttons in step with it and says how a run ended: "done" is the owner's (it knows the
// result), cancellation and errors are the panel's (status line + message()).
// FigureView is the base of those views: the panel on its left and what every one answers
// (run, cancel, busy, the buttons, the message/finished signals, how many runs finished).
#pragma once

#include <QScrollArea>
#include <QString>
#include <QWidget>

#include "async/background_computation.h"

class QLabel;
class QLayout;
class QComboBox;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QVBoxLayout;

namespace dplab::ui {

// A run's wall time as a status line or a table says it: "43 ms" and "4.2 ms" under a second (a
// 30 ms audit read "0.0 s"), "4.2 s" under ten, "42 s", then "3 min 5 s"; "–" when unknown.
QString formatSeconds(double seconds);

class FigureRunPanel : public QScrollArea {
  Q_OBJECT
 public:
  // run_label: the Run button's text; what: the computation's name in messages ("canary audit").
  FigureRunPanel(const QString& run_label, const QString& what, int width,
                 QWidget* parent = nullptr);

  void addSettings(QWidget* widget);  // above the buttons, in call order
  void addSettings(QLayout* layout);
  void addInfo(QWidget* widget);         // below the status line, in call order
  QLabel* addNote(const QString& text);  // a word-wrapped label below the status line
  QLabel* addSelectableNote();           // an empty one whose text can be selected

  // Starts `work` on the worker (false when one is running). The progress bar spans `units`
  // (the work reports fractions of it) and shows `format` (QProgressBar: %v value, %m units).
  bool start(BackgroundTask::Work work, int units = 1000,
             const QString& format = QStringLiteral("%p%"));
  void cancel();  // no-op when idle
  bool busy() const;
  // The settings are invalid: says why on the status line and in message(what: error, true).
  void reject(const QString& error);
  void setStatus(const QString& text);
  QString statusText() const;

  QPushButton* runButton() const { return run_button_; }
  QPushButton* cancelButton() const { return cancel_button_; }
  QProgressBar* progressBar() const { return progress_; }

 signals:
  void runClicked();
  void message(const QString& text, bool is_error);
  // After the panel has updated its buttons (and, for cancel or error, its status line).
  void finished(bool ok, bool cancelled);

 private:
  void onFinished(bool ok, bool cancelled, const QString& error);
  void updateButtons();

  QString what_;
  QVBoxLayout* settings_;
  QVBoxLayout* info_;
  QPushButton* run_button_;
  QPushButton* cancel_button_;
  QProgressBar* progress_;
  QLabel* status_;
  BackgroundTask* task_;
};

// A read-only table of a figure's numbers (Table 2, Table 3): these column headers, no row
// numbers, columns sized to their contents.
QTableWidget* newFigureTable(const QStringList& headers, QWidget* parent);

class ChartView;
class SplitOrTabs;

// The right-hand column of a figure with a table: "<chooser_label> [chooser]" (which slice the
// chart shows), the chart, the table's title and the table.
QVBoxLayout* chartAndTableColumn(const QString& chooser_label, QComboBox* chooser, ChartView* chart,
                                 const QString& table_title, QTableWidget* table);
// The chart above "<table_title>" and the table where both fit their least heights, else the two
// as tabs (charts/split_or_tabs.h).
// `chart_least`: the chart's least height (default kLeastChartHeight; more for a tall legend).
SplitOrTabs* chartOverTable(ChartView* chart, const QString& table_title, QTableWidget* table,
                            int chart_least = 0);

// The settings panel's least width on a narrow page (charts/side_column.h).
inline constexpr int kLeastFigurePanelWidth = 250;

class FigureView : public QWidget {
  Q_OBJECT
 public:
  // The panel's Run label, the computation's name in messages and the panel's width.
  FigureView(const QString& run_label, const QString& what, int panel_width,
             QWidget* parent = nullptr);

  virtual bool run() = 0;  // false when busy or the settings are invalid
  void cancel();
  bool busy() const;
  QPushButton* runButton() const;
  QPushButton* cancelButton() const;
  QProgressBar* progressBar() const;
  QString statusText() const;
  int finishedRuns() const { return finished_runs_; }

 signals:
  void message(const QString& text, bool is_error);
  void finished(bool ok, bool cancelled);

 protected:
  FigureRunPanel* panel() const { return panel_; }
  // Lays the view out: the panel on the left, `results` (charts, tables) taking the rest.
  void placeResults(QLayout* results);
  void placeResults(QWidget* results);
  // The run ended (ok: the worker's result is complete); called before finished() is emitted.
  virtual void runEnded(bool ok) = 0;

 private:
  void fitPanel();

  FigureRunPanel* panel_;
  int finished_runs_ = 0;
};

}  // namespace dplab::ui
