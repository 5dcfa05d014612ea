#include "shell/diagnostics_panel.h"

#include <QLabel>
#include <QVBoxLayout>

#include "shell/stall_meter.h"

namespace dplab::ui {

DiagnosticsPanel::DiagnosticsPanel(StallMeter* meter, QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  stall_text_ = new QLabel(tr("GUI max stall: – ms"), this);
  stall_text_->setObjectName(QStringLiteral("stallText"));
  stall_text_->setToolTip(
      tr("Longest gap between 10 ms heartbeats of the GUI thread since the last "
         "run started (a responsive GUI stays well under 100 ms)."));
  layout->addWidget(stall_text_);
  layout->addStretch(1);
  connect(meter, &StallMeter::longestGapChanged, this, [this](double ms) {
    stall_text_->setText(tr("GUI max stall: %1 ms").arg(ms, 0, 'f', 1));
  });
}

}  // namespace dplab::ui
