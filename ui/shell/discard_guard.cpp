#include "shell/discard_guard.h"

#include <QMessageBox>
#include <QPushButton>

#include "form/experiment_form.h"

namespace dplab::ui {

DiscardGuard::DiscardGuard(ExperimentForm* form, QWidget* dialog_parent)
    : QObject(dialog_parent), form_(form), dialog_parent_(dialog_parent) {
  markClean();
}

void DiscardGuard::markClean() {
  clean_ = experiment::to_json(form_->config());
}

bool DiscardGuard::isModified() const {
  return experiment::to_json(form_->config()) != clean_;
}

bool DiscardGuard::confirmDiscard(const QString& action) {
  if (!isModified()) return true;
  ++questions_;
  QMessageBox box(QMessageBox::Question, tr("Discard changes?"),
                  tr("The experiment “%1” has been edited. Discard your changes before you %2?")
                      .arg(QString::fromStdString(form_->config().name), action),
                  QMessageBox::NoButton, dialog_parent_);
  box.setObjectName(QStringLiteral("discardQuestion"));
  QPushButton* discard = box.addButton(tr("Discard changes"), QMessageBox::DestructiveRole);
  box.addButton(QMessageBox::Cancel);
  box.setDefaultButton(QMessageBox::Cancel);
  box.exec();
  return box.clickedButton() == discard;
}

}  // namespace dplab::ui
