// ShownRunLabel: the line above the tabs saying which run the charts, the table and an exported
// report show ("Showing: <run> (running)") and, once it has ended, the ε it spent ("spent ε ≤ …",
// engine tuning::release_cost over every run trained, bold on green so that it never reads as a
// plan), marked "form modified since this run" when the form no longer describes that run
// (engine experiment::same_run_settings).
#pragma once

#include <QLabel>

namespace dplab::ui {

class ExperimentForm;
class RunData;

class ShownRunLabel : public QLabel {
  Q_OBJECT
 public:
  ShownRunLabel(RunData* data, ExperimentForm* form, QWidget* parent = nullptr);
  bool formModifiedSinceRun() const;

 public slots:
  void refresh();

 private:
  QString spentEpsilonHtml(QString* covers) const;  // *covers: what the ε covers
  RunData* data_;
  ExperimentForm* form_;
};

}  // namespace dplab::ui
