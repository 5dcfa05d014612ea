// WheelGuard: the mouse wheel over a form scrolls the form, never edits a field the user has not
// chosen. A combo box, spin box or slider under `root` takes wheel events only while it has the
// keyboard focus (click or Tab into it first); otherwise the event goes on to the scroll area.
// Such fields also stop taking the focus from the wheel itself (Qt::StrongFocus instead of
// Qt::WheelFocus), else the first wheel notch would focus them and edit. Fields added to `root`
// later (editors that appear) are covered too: the guard is an application event filter that
// acts only on widgets inside `root`.
#pragma once

#include <QObject>
#include <QPointer>

class QWidget;

namespace dplab::ui {

class WheelGuard : public QObject {
  Q_OBJECT
 public:
  explicit WheelGuard(QWidget* root);
  ~WheelGuard() override;
  // True for the fields whose value the wheel changes (combo boxes, spin boxes, sliders).
  static bool isWheelEditable(const QObject* object);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QPointer<QWidget> root_;
};

}  // namespace dplab::ui
