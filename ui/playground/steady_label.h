// SteadyLabel: a word-wrapped QLabel whose size never follows its text (issue #27, the Playground's
// step, clip, epsilon, accuracy, ledger and frame labels, rewritten on every frame). Its height is
// the height its LONGEST text (given once, in the same format) needs at its current width and
// font; its width comes from the layout alone. So a new text repaints the label and nothing else:
// a label that grew by a line moved the plane and the step view, which redrew the whole window and
// the plane's 1,000 points (the GUI stall while a student steps sigma). The reserved height is
// recomputed only when the width or the font changes (window resize, projector font).
#pragma once

#include <QLabel>
#include <QString>

namespace dplab::ui {

class SteadyLabel : public QLabel {
  Q_OBJECT
 public:
  // `longest`: the longest text the label will show (Qt::AutoText decides plain or rich, as for
  // the label); `min_width` in pixels.
  SteadyLabel(const QString& longest, int min_width, QWidget* parent = nullptr);

  const QString& longestText() const { return longest_; }
  // A new longest text (the projector font's briefer labels): the height is reserved again.
  void setLongestText(const QString& longest) {
    longest_ = longest;
    reserve();
  }
  // The height `text` needs at this label's width and font (the same measure as the reserve).
  int heightFor(const QString& text) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return sizeHint(); }
  bool hasHeightForWidth() const override { return false; }
  int heightForWidth(int) const override { return height(); }

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  // Fixes the height to what the longest text needs now.
  void reserve();
  int measure(const QString& text, int width) const;

  QString longest_;
};

}  // namespace dplab::ui
