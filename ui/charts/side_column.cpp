#include "charts/side_column.h"

#include <QEvent>
#include <QFormLayout>
#include <QScrollArea>
#include <QStyle>
#include <QWidget>
#include <algorithm>

namespace dplab::ui {
namespace {

class SideColumnFit : public QObject {
 public:
  SideColumnFit(QWidget* page, QWidget* column, int preferred, int least_width, int least_rest)
      : QObject(page),
        page_(page),
        column_(column),
        preferred_(preferred),
        least_width_(least_width),
        least_rest_(least_rest) {
    // A narrowed column puts a field under its label rather than cut either.
    for (QFormLayout* form : column->findChildren<QFormLayout*>())
      form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    page->installEventFilter(this);
    fit();
  }

  bool eventFilter(QObject* watched, QEvent* event) override {
    if (watched == page_ && event->type() == QEvent::Resize) fit();
    return QObject::eventFilter(watched, event);
  }

 private:
  void fit() {
    // Never narrower than what its content needs (a scroll area's, plus its scroll bar): the
    // settings are cut off then, not scrolled.
    int least = least_width_;
    if (auto* scroll = qobject_cast<QScrollArea*>(column_); scroll && scroll->widget()) {
      least = std::max(least, scroll->widget()->minimumSizeHint().width() +
                                  scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent) +
                                  2 * scroll->frameWidth());
    }
    const int width = std::clamp(page_->width() - least_rest_, least, std::max(least, preferred_));
    if (column_->width() != width || column_->minimumWidth() != width)
      column_->setFixedWidth(width);
  }

  QWidget* page_;
  QWidget* column_;
  int preferred_, least_width_, least_rest_;
};

}  // namespace

void fitSideColumn(QWidget* page, QWidget* column, int preferred, int least_width, int least_rest) {
  new SideColumnFit(page, column, preferred, least_width, least_rest);
}

QScrollArea* sideScrollArea(QWidget* content, QWidget* parent) {
  auto* scroll = new QScrollArea(parent);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setFrameShape(QFrame::NoFrame);
  return scroll;
}

}  // namespace dplab::ui
