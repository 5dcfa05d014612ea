// DiscardGuard: knows whether the experiment in the form has been edited since it was last
// opened, saved or started afresh (its JSON differs from the one remembered by markClean), and
// asks before an action would discard those edits (File → New, a history run's config):
// "Discard your changes to “…”?" with Discard / Cancel. Nothing edited: no question.
#pragma once

#include <QObject>
#include <QString>
#include <nlohmann/json.hpp>

class QWidget;

namespace dplab::ui {

class ExperimentForm;

class DiscardGuard : public QObject {
  Q_OBJECT
 public:
  DiscardGuard(ExperimentForm* form, QWidget* dialog_parent);
  void markClean();
  bool isModified() const;
  // True when nothing would be lost or the user chose to discard; `action` completes "… before
  // you %1" in the question.
  bool confirmDiscard(const QString& action);
  int questionsAsked() const { return questions_; }

 private:
  ExperimentForm* form_;
  QWidget* dialog_parent_;
  nlohmann::json clean_;
  int questions_ = 0;
};

}  // namespace dplab::ui
