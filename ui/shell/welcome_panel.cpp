#include "shell/welcome_panel.h"

#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include "charts/theme.h"

namespace dplab::ui {

WelcomePanel::WelcomePanel(QWidget* parent) : QFrame(parent) {
  setObjectName(QStringLiteral("welcomePanel"));
  setFrameShape(QFrame::StyledPanel);
  restyle();
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(8, 4, 8, 4);
  auto* text = new QLabel(this);
  text->setObjectName(QStringLiteral("welcomeText"));
  text->setWordWrap(true);
  text->setText(
      tr("<b>Welcome to dplab.</b> Start here: the form on the left holds a small experiment "
         "(DP-SGD and DP-Adam, a few learning rates α and clipping norms C). Press "
         "<b>▶ Run</b> (Ctrl+R) and watch the accuracy curves; then the <b>Results</b> table "
         "names each optimizer's winner and the <b>Privacy–utility</b> tab shows what picking it "
         "costs in ε. The paper's experiments are under File → Open preset."));
  layout->addWidget(text, 1);
  auto* buttons = new QVBoxLayout;
  auto* run = new QPushButton(tr("▶ Run this experiment"), this);
  run->setObjectName(QStringLiteral("welcomeRun"));
  auto* presets = new QPushButton(tr("Presets…"), this);
  presets->setObjectName(QStringLiteral("welcomePresets"));
  auto* playground = new QPushButton(tr("Playground…"), this);
  playground->setObjectName(QStringLiteral("welcomePlayground"));
  playground->setToolTip(
      tr("Teaching mode: a small 2-D problem where every DP-SGD knob shows its effect at once."));
  auto* close = new QPushButton(tr("Got it"), this);
  close->setObjectName(QStringLiteral("welcomeDismiss"));
  close->setToolTip(tr("Hide this welcome (Help → Show welcome brings it back)."));
  auto* row = new QHBoxLayout;
  row->addWidget(run);
  row->addWidget(presets);
  row->addWidget(playground);
  row->addWidget(close);
  buttons->addLayout(row);
  layout->addLayout(buttons);
  connect(run, &QPushButton::clicked, this, &WelcomePanel::runRequested);
  connect(presets, &QPushButton::clicked, this, &WelcomePanel::presetsRequested);
  connect(playground, &QPushButton::clicked, this, &WelcomePanel::playgroundRequested);
  connect(close, &QPushButton::clicked, this, &WelcomePanel::dismiss);
}

void WelcomePanel::changeEvent(QEvent* event) {
  QFrame::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) restyle();
}

void WelcomePanel::restyle() {
  const QPalette p = QApplication::palette();
  auto tint = [&](double t) {
    return mix(p.color(QPalette::Base), p.color(QPalette::Highlight), t).name();
  };
  const QString sheet = QStringLiteral("#welcomePanel { background: %1; border: 1px solid %2; }")
                            .arg(tint(0.1), tint(0.4));
  if (styleSheet() != sheet) setStyleSheet(sheet);  // setting it sends a palette change again
}

bool WelcomePanel::shouldShow() {
  return !QSettings().value(QLatin1String(kDismissedKey), false).toBool();
}

void WelcomePanel::dismiss() {
  QSettings().setValue(QLatin1String(kDismissedKey), true);
  hide();
}

}  // namespace dplab::ui
