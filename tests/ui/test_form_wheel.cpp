// Issue #25 item 3: scrolling the experiment form with the mouse wheel must not edit it. The
// wheel over a combo box once changed Strategy from grid to Liu–Talwar silently. Now a combo box,
// spin box or slider of the form takes the wheel only while it has the keyboard focus, and the
// wheel no longer gives it the focus (Qt::StrongFocus, not Qt::WheelFocus).
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QSpinBox>
#include <QWheelEvent>

#include "support/test_registry.h"
#include "window_run_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

// One notch of the wheel over the middle of `w` (down: towards the next item / a lower value).
void wheelOver(QWidget* w, int notches) {
  const QPointF local(w->width() / 2.0, w->height() / 2.0);
  QWheelEvent wheel(local, w->mapToGlobal(local), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &wheel);
}

// The combo box's state as a person sees it, and a value for spin boxes and sliders.
QString stateOf(QWidget* w) {
  if (auto* c = qobject_cast<QComboBox*>(w)) return c->currentText();
  if (auto* s = qobject_cast<QAbstractSpinBox*>(w)) return s->text();
  if (auto* s = qobject_cast<QAbstractSlider*>(w)) return QString::number(s->value());
  return {};
}

}  // namespace

class TestFormWheel : public QObject {
  Q_OBJECT
 private slots:
  void wheelOverAnUnfocusedFieldChangesNothing() {
    QTemporaryDir dir;
    MainWindow* window = test::openWindow(dir, test::tinyExperiment());
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window));
    QList<QWidget*> fields;
    for (QWidget* w : window->form()->findChildren<QWidget*>()) {
      if (qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSpinBox*>(w) ||
          qobject_cast<QAbstractSlider*>(w)) {
        fields << w;
      }
    }
    QVERIFY(fields.size() >= 8);  // data set, model, strategy, release mode, repeats, seed, …
    int enabled = 0;
    for (QWidget* field : fields) {
      // The wheel must not hand it the focus either (that happens before any filter sees it).
      QVERIFY2(field->focusPolicy() != Qt::WheelFocus, qPrintable(field->objectName()));
      if (!field->isEnabled()) continue;
      ++enabled;
      window->tabs()->setFocus();
      QVERIFY(!field->hasFocus());
      const QString before = stateOf(field);
      wheelOver(field, -1);
      wheelOver(field, 1);
      wheelOver(field, 1);
      QCOMPARE(stateOf(field), before);
    }
    QVERIFY(enabled >= 6);

    // The strategy box of the issue: unchanged without the focus, edited with it.
    QComboBox* strategy = nullptr;
    for (QComboBox* c : window->form()->findChildren<QComboBox*>())
      if (c->findText(QStringLiteral("grid"), Qt::MatchContains) >= 0 && c->count() > 1)
        strategy = c;
    QVERIFY(strategy);
    window->tabs()->setFocus();
    const int index = strategy->currentIndex();
    wheelOver(strategy, -1);
    QCOMPARE(strategy->currentIndex(), index);
    // Focused (clicked or tabbed into), the wheel edits it as usual: the events do arrive.
    strategy->setFocus();
    QVERIFY(strategy->hasFocus());
    wheelOver(strategy, index + 1 < strategy->count() ? -1 : 1);
    QVERIFY(strategy->currentIndex() != index);
    delete window;
  }
};

DPLAB_TEST_MAIN(TestFormWheel)
#include "test_form_wheel.moc"
