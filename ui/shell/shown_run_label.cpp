#include "shell/shown_run_label.h"

#include "experiment/config_compare.h"
#include "form/experiment_form.h"
#include "run/run_data.h"

namespace dplab::ui {

ShownRunLabel::ShownRunLabel(RunData* data, ExperimentForm* form, QWidget* parent)
    : QLabel(parent), data_(data), form_(form) {
  setTextFormat(Qt::RichText);
  setWordWrap(true);
  setToolTip(
      tr("Which run the charts, the table and an exported report show. It is "
         "marked when the form has been edited since that run."));
  connect(data_, &RunData::changed, this, [this](bool structural) {
    if (structural) refresh();
  });
  refresh();
}

bool ShownRunLabel::formModifiedSinceRun() const {
  return data_->hasRun() &&
         !experiment::same_run_settings(form_->config(), data_->results().config);
}

void ShownRunLabel::refresh() {
  if (!data_->hasRun()) {
    setText(tr("No run shown yet — Ctrl+R runs the experiment on the left."));
    setStyleSheet(QString());
    return;
  }
  QString text =
      tr("Showing: %1%2")
          .arg(data_->title().toHtmlEscaped(), data_->live() ? tr(" (running)") : QString());
  const bool modified = formModifiedSinceRun();
  if (modified)
    text += tr(" · <b>form modified since this run</b> (charts show the run, not the form)");
  setText(text);
  setStyleSheet(modified ? QStringLiteral("color: #8a4b00;") : QString());
}

}  // namespace dplab::ui
