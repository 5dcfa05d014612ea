#include "views/shown_refresh.h"

#include <QEvent>
#include <QWidget>

#include "charts/chart_view.h"
#include "run/run_data.h"

namespace dplab::ui {

ShownRefresh::ShownRefresh(QWidget* page, RunData* data, std::function<void(bool)> refresh)
    : QObject(page), page_(page), refresh_(std::move(refresh)) {
  connect(data, &RunData::changed, this, &ShownRefresh::request);
  page_->installEventFilter(this);
  for (ChartView* chart : page_->findChildren<ChartView*>())
    chart->setBeforeRead([this] { flush(); });
}

bool ShownRefresh::pageShown() const {
  // Relative to its window: a window not shown yet (tests, scripted sessions) still draws its
  // current tab; a tab behind another one is hidden explicitly by the tab widget.
  return page_->isVisibleTo(page_->window());
}

void ShownRefresh::request(bool structural) {
  structural_ = structural_ || structural;
  dirty_ = true;
  if (pageShown()) flush();
}

void ShownRefresh::flush() {
  if (!dirty_) return;
  const bool structural = structural_;
  dirty_ = false;
  structural_ = false;
  ++redraws_;
  refresh_(structural);
}

bool ShownRefresh::eventFilter(QObject* watched, QEvent* event) {
  if (watched == page_ && (event->type() == QEvent::Show || event->type() == QEvent::ShowToParent))
    flush();
  return QObject::eventFilter(watched, event);
}

}  // namespace dplab::ui
