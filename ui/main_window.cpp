#include "main_window.h"

#include <QLabel>

namespace dplab::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle("dplab");
  setCentralWidget(new QLabel("dplab", this));
  resize(1280, 800);
}

}  // namespace dplab::ui
