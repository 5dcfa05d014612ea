#include "shell/shown_run_label.h"

#include "charts/theme.h"
#include "experiment/config_compare.h"
#include "form/experiment_form.h"
#include "privacy/accounting/epsilon_display.h"
#include "run/run_data.h"
#include "tuning/release_cost.h"

namespace dplab::ui {

namespace {
QString tip() {
  return QObject::tr(
      "Which run the charts, the table and an exported report show, and the ε it spent. It is "
      "marked when the form has been edited since that run.");
}
}  // namespace

ShownRunLabel::ShownRunLabel(RunData* data, ExperimentForm* form, QWidget* parent)
    : QLabel(parent), data_(data), form_(form) {
  setTextFormat(Qt::RichText);
  setWordWrap(true);
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
    setToolTip(tip());
    setTone(this, Tone::kPlain);
    return;
  }
  QString text =
      tr("Showing: %1%2")
          .arg(data_->title().toHtmlEscaped(), data_->live() ? tr(" (running)") : QString());
  QString covers;
  text += spentEpsilonHtml(&covers);
  const bool modified = formModifiedSinceRun();
  if (modified && data_->startedFromForm()) {
    text += tr(" · <b>form modified since this run</b> (charts show the run, not the form)");
  } else if (modified) {
    text +=
        tr(" · the form holds another experiment (Run history → Use its config loads this "
           "run's)");
  }
  setText(text);
  setToolTip(covers.isEmpty() ? tip() : tip() + tr("\nThe spent ε covers %1.").arg(covers));
  setTone(this, !modified ? Tone::kPlain : data_->startedFromForm() ? Tone::kWarning : Tone::kNote);
}

QString ShownRunLabel::spentEpsilonHtml(QString* covers) const {
  // While the run goes on its ε grows with every job; it is stated once the run has ended.
  if (data_->live()) return tr(" · spent ε: stated when the run ends");
  try {
    const tuning::ReleaseCost cost = data_->releaseCost();
    // Spent, on a green ground and bold: never to be mistaken for a plan ("plan: …", italic).
    *covers = QString::fromStdString(cost.covers);  // the tooltip: the line stays one line
    return tr(" · <span style='background-color:#d9efd9; color:#143d14; "
              "font-weight:bold'>&nbsp;spent ε ≤ "
              "%1&nbsp;</span> (δ = %2)")
        .arg(QString::fromStdString(privacy::format_epsilon_up(cost.epsilon)))
        .arg(cost.delta, 0, 'g', 3);
  } catch (const std::exception& e) {
    return tr(" · spent ε not available: %1").arg(QString::fromUtf8(e.what()).toHtmlEscaped());
  }
}

}  // namespace dplab::ui
