#include "form/wheel_guard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace dplab::ui {

namespace {
void protect(QWidget* field) {
  if (field->focusPolicy() == Qt::WheelFocus) field->setFocusPolicy(Qt::StrongFocus);
}
}  // namespace

WheelGuard::WheelGuard(QWidget* root) : QObject(root), root_(root) {
  for (QWidget* w : root->findChildren<QWidget*>())
    if (isWheelEditable(w)) protect(w);
  qApp->installEventFilter(this);
}

WheelGuard::~WheelGuard() {
  qApp->removeEventFilter(this);
}

bool WheelGuard::isWheelEditable(const QObject* object) {
  return qobject_cast<const QComboBox*>(object) || qobject_cast<const QAbstractSpinBox*>(object) ||
         qobject_cast<const QAbstractSlider*>(object);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();
  if (type != QEvent::Wheel && type != QEvent::Polish) return false;
  if (!root_ || !watched->isWidgetType() || !isWheelEditable(watched)) return false;
  auto* field = static_cast<QWidget*>(watched);
  if (!root_->isAncestorOf(field)) return false;
  if (type == QEvent::Polish) {  // a field that appeared after the guard was made
    protect(field);
    return false;
  }
  protect(field);
  if (field->hasFocus()) return false;
  // Not delivered to the field; ignored, so QApplication passes it on to the parents (the scroll
  // area scrolls the form).
  event->ignore();
  return true;
}

}  // namespace dplab::ui
