// WelcomePanel: a first-run welcome above the charts that says where to start (the form on the
// left holds a small experiment; Run; then the Results and Privacy–utility tabs; presets in the
// File menu), with buttons for the first steps. "Got it" hides it for good (QSettings
// "welcome/dismissed"); Help → Show welcome brings it back.
#pragma once

#include <QFrame>

namespace dplab::ui {

class WelcomePanel : public QFrame {
  Q_OBJECT
 public:
  static constexpr const char* kDismissedKey = "welcome/dismissed";

  explicit WelcomePanel(QWidget* parent = nullptr);
  // Shown on a first run only (the setting is absent).
  static bool shouldShow();
  void dismiss();  // hides it and remembers that

 signals:
  void runRequested();
  void presetsRequested();
  void playgroundRequested();

 protected:
  void changeEvent(QEvent* event) override;  // a theme switch recolours the panel

 private:
  void restyle();  // a tint of the palette's highlight over its base colour
};

}  // namespace dplab::ui
