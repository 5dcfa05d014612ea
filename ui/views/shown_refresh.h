// ShownRefresh: a result tab redraws only while it can be seen (issue #25 item 13). Every tab
// used to rebuild its charts on every RunData change, hidden ones included, so the first tick of
// a run did all tabs' structural redraws at once (88–103 ms on a loaded 2-core machine). Now a
// change to a page hidden in its window (a tab not current) only marks it dirty — remembering
// whether any change was structural — and the page redraws once when it is shown again
// (QEvent::Show / ShowToParent: the tab widget's currentChanged shows the page), so however many
// runs' worth of changes came in while it was hidden, it rebuilds at most once.
// Readers that need the drawn state of a possibly hidden page call flush() first: the page's
// charts do so before an export records them (ChartView::setBeforeRead), so exports and CSVs
// never show a stale chart.
#pragma once

#include <QObject>
#include <functional>

class QWidget;

namespace dplab::ui {

class RunData;

class ShownRefresh : public QObject {
  Q_OBJECT
 public:
  // Connects `data`'s changes to `refresh(structural)` of `page`; `page` owns this object. Every
  // ChartView inside `page` (at the time of the call) flushes before it is read.
  ShownRefresh(QWidget* page, RunData* data, std::function<void(bool structural)> refresh);

  // A change: redraws at once if the page can be seen, else marks it dirty.
  void request(bool structural);
  // Redraws now if a change is pending (whether or not the page is shown).
  void flush();
  bool dirty() const { return dirty_; }
  // How many redraws ran (tests: a hidden page does not redraw).
  int redraws() const { return redraws_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  bool pageShown() const;

  QWidget* page_;
  std::function<void(bool)> refresh_;
  bool dirty_ = false;
  bool structural_ = false;
  int redraws_ = 0;
};

}  // namespace dplab::ui
