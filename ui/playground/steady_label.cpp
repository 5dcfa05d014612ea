#include "playground/steady_label.h"

#include <QEvent>
#include <QResizeEvent>

namespace dplab::ui {

SteadyLabel::SteadyLabel(const QString& longest, int min_width, QWidget* parent)
    : QLabel(parent), longest_(longest) {
  setWordWrap(true);
  setAlignment(Qt::AlignLeft | Qt::AlignTop);  // a short text stays where the long one starts
  setMinimumWidth(min_width);
  // Before the layout gives it a width: one line per paragraph, so the window's first minimum
  // height is not that of a label squeezed to min_width (the window would open taller than
  // asked and never shrink back); the first resize reserves the real height.
  setFixedHeight(measure(longest_, QWIDGETSIZE_MAX / 2));
}

int SteadyLabel::heightFor(const QString& text) const {
  return measure(text, std::max(width(), minimumWidth()));
}

int SteadyLabel::measure(const QString& text, int width) const {
  // A twin label off screen measures exactly as this one lays out: same font, format, margins.
  QLabel twin;
  twin.setFont(font());
  twin.setTextFormat(textFormat());
  twin.setWordWrap(true);
  twin.setMargin(margin());
  twin.setIndent(indent());
  twin.setContentsMargins(contentsMargins());
  twin.setText(text);
  return twin.heightForWidth(width);
}

QSize SteadyLabel::sizeHint() const {
  return {minimumWidth(), height()};
}

void SteadyLabel::reserve() {
  const int needed = heightFor(longest_);
  if (needed != minimumHeight() || needed != maximumHeight()) setFixedHeight(needed);
}

void SteadyLabel::resizeEvent(QResizeEvent* event) {
  QLabel::resizeEvent(event);
  if (event->size().width() != event->oldSize().width()) reserve();
}

void SteadyLabel::changeEvent(QEvent* event) {
  QLabel::changeEvent(event);
  if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) reserve();
}

}  // namespace dplab::ui
