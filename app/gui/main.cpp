// dplab: the desktop GUI.
#include <QApplication>

#include "main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("dplab");
  QApplication::setOrganizationName("dplab");
  dplab::ui::MainWindow window;
  window.show();
  return QApplication::exec();
}
