// MainWindow: the dplab desktop window (experiment set-up, live charts, results).
#pragma once

#include <QMainWindow>

namespace dplab::ui {

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
};

}  // namespace dplab::ui
