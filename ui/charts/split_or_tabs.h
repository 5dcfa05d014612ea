// SplitOrTabs (issue #44): a few panels (charts, a chart's table) side by side or one above the
// other in a splitter where each gets its least size, else as tabs of one full-size page — so a
// small screen (1024 × 700) shows one readable chart at a time instead of several squeezed ones
// (the Accuracy tab's best-of-k chart was 36 px tall, the Privacy-of-tuning Fig. 1 panels 57 px,
// "Accountants disagree" 105 and 70 px).
// The rule: split when the widget's extent along the orientation is at least the sum of the
// panels' least extents; the split sizes are those least extents plus the rest shared by the
// stretch factors. It is re-checked on every resize (no hysteresis needed: the two states depend
// on the extent alone, which neither state changes).
#pragma once

#include <QList>
#include <QStackedWidget>
#include <QString>

class QSplitter;
class QTabWidget;

namespace dplab::ui {

// The least height of a chart stacked with others: a 150-px plot under a one- or two-line title,
// over the x axis' ticks and label and a legend of one or two rows.
inline constexpr int kLeastChartHeight = 280;

class SplitOrTabs : public QStackedWidget {
  Q_OBJECT
 public:
  SplitOrTabs(Qt::Orientation orientation, QWidget* parent = nullptr);

  // Appends a panel: its tab title, its least extent (px along the orientation) and its share of
  // the room beyond the least extents.
  void addPanel(QWidget* panel, const QString& tab_title, int least_extent, int stretch = 1);
  bool tabbed() const;
  // Brings `panel` into view (its tab when tabbed; nothing to do when split).
  void showPanel(QWidget* panel);
  QSplitter* splitter() const { return split_; }
  QTabWidget* tabWidget() const { return tabs_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  struct Panel {
    QWidget* widget;
    QString title;
    int least;
    int stretch;
  };
  void arrange();
  void setSplitSizes();
  int extent() const;

  Qt::Orientation orientation_;
  QSplitter* split_;
  QTabWidget* tabs_;
  QList<Panel> panels_;
};

}  // namespace dplab::ui
