#include "charts/split_or_tabs.h"

#include <QResizeEvent>
#include <QSplitter>
#include <QTabWidget>
#include <algorithm>

namespace dplab::ui {

SplitOrTabs::SplitOrTabs(Qt::Orientation orientation, QWidget* parent)
    : QStackedWidget(parent),
      orientation_(orientation),
      split_(new QSplitter(orientation, this)),
      tabs_(new QTabWidget(this)) {
  split_->setChildrenCollapsible(false);
  tabs_->setDocumentMode(true);
  addWidget(split_);
  addWidget(tabs_);
}

void SplitOrTabs::addPanel(QWidget* panel, const QString& tab_title, int least_extent,
                           int stretch) {
  panels_.push_back({panel, tab_title, least_extent, std::max(0, stretch)});
  if (tabbed()) {
    tabs_->addTab(panel, tab_title);
  } else {
    split_->addWidget(panel);
    setSplitSizes();
  }
  arrange();
}

bool SplitOrTabs::tabbed() const {
  return currentWidget() == tabs_;
}

void SplitOrTabs::showPanel(QWidget* panel) {
  if (tabbed()) tabs_->setCurrentWidget(panel);
}

int SplitOrTabs::extent() const {
  return orientation_ == Qt::Horizontal ? width() : height();
}

void SplitOrTabs::resizeEvent(QResizeEvent* event) {
  QStackedWidget::resizeEvent(event);
  arrange();
  if (tabbed()) return;
  // A drag of the handle stays, unless the new size leaves a panel under its least extent.
  const QList<int> sizes = split_->sizes();
  for (int i = 0; i < sizes.size() && i < panels_.size(); ++i)
    if (sizes[i] < panels_[i].least) return setSplitSizes();
}

void SplitOrTabs::setSplitSizes() {
  int least = 0, stretch = 0;
  for (const Panel& p : panels_) {
    least += p.least;
    stretch += p.stretch;
  }
  const int room = std::max(0, extent() - split_->handleWidth() * (int(panels_.size()) - 1));
  const int rest = std::max(0, room - least);
  QList<int> sizes;
  for (const Panel& p : panels_) sizes << p.least + (stretch > 0 ? rest * p.stretch / stretch : 0);
  split_->setSizes(sizes);
}

void SplitOrTabs::arrange() {
  int least = 0;
  for (const Panel& p : panels_) least += p.least;
  least += split_->handleWidth() * std::max(0, int(panels_.size()) - 1);
  const bool tab = panels_.size() > 1 && extent() < least;
  if (tab == tabbed()) return;
  if (tab) {
    for (const Panel& p : panels_) tabs_->addTab(p.widget, p.title);
    tabs_->setCurrentIndex(0);
    setCurrentWidget(tabs_);
  } else {
    while (tabs_->count() > 0) tabs_->removeTab(0);
    for (const Panel& p : panels_) {
      split_->addWidget(p.widget);
      p.widget->show();
    }
    setCurrentWidget(split_);
    setSplitSizes();
  }
}

}  // namespace dplab::ui
