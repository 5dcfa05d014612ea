#include "shell/status_panel.h"
#include "charts/theme.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTime>
#include <QVBoxLayout>

namespace dplab::ui {

namespace {
constexpr int kMaxEntries = 300;  // older lines are dropped; the count of errors is kept
}

StatusPanel::StatusPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* header = new QHBoxLayout;
  summary_ = new QLabel(tr("No messages"), this);
  auto* clear_button = new QPushButton(tr("Clear"), this);
  clear_button->setToolTip(tr("Forget the messages shown here"));
  connect(clear_button, &QPushButton::clicked, this, &StatusPanel::clear);
  header->addWidget(summary_, 1);
  header->addWidget(clear_button);
  layout->addLayout(header);
  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(kMaxEntries + 1);
  log_->setToolTip(
      tr("Messages and errors of this session; a message repeated in a row is counted, not "
         "repeated."));
  layout->addWidget(log_);
}

void StatusPanel::addMessage(const QString& text, bool is_error) {
  if (is_error) {
    ++error_count_;
    errors_ << text;
  }
  const QString key = (is_error ? QStringLiteral("E:") : QStringLiteral("I:")) + text;
  // Only a repeat of the newest line folds into it ("(×3)"): a second run's "Run started" is a
  // new line with its own time, not a count on the first run's line.
  if (!entries_.isEmpty() && entries_.last().key == key) {
    ++entries_.last().count;
  } else {
    if (entries_.size() >= kMaxEntries) entries_.removeFirst();
    entries_.append(
        {key, QTime::currentTime().toString(QStringLiteral("HH:mm:ss ")) + text, is_error, 1});
  }
  render();
  emit latest(text, is_error);
}

void StatusPanel::clear() {
  entries_.clear();
  errors_.clear();
  error_count_ = 0;
  render();
}

void StatusPanel::render() {
  QString html;
  for (const Entry& e : entries_) {
    QString line = e.text.toHtmlEscaped();
    if (e.count > 1) line += QStringLiteral(" <b>(×%1)</b>").arg(e.count);
    if (e.is_error)
      line = QStringLiteral("<span style='color:%1'>%2</span>").arg(toneHex(Tone::kError), line);
    html += line + QStringLiteral("<br>");
  }
  log_->clear();
  log_->appendHtml(html);
  log_->verticalScrollBar()->setValue(log_->verticalScrollBar()->maximum());
  summary_->setText(error_count_ > 0 ? tr("%n error(s)", nullptr, error_count_)
                                     : (entries_.isEmpty() ? tr("No messages") : tr("OK")));
}

}  // namespace dplab::ui
