// ImportDialog: picks a user data file (IDX, CSV or LIBSVM; .gz allowed), shows its first rows,
// lets the user choose the CSV label column, and loads it once in the background with the engine
// loader (data::load_dataset, off the GUI thread: closing the dialog never waits for it) to show
// n, d and the class balance before it is used.
#pragma once

#include <QDialog>

#include "async/background_task.h"

class QLineEdit;
class QComboBox;
class QPlainTextEdit;
class QLabel;
class QPushButton;

namespace dplab::ui {

class ImportDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ImportDialog(QWidget* parent = nullptr);
  ~ImportDialog() override;

  QString path() const;
  QString format() const;       // auto | idx | csv | libsvm
  QString labelColumn() const;  // CSV only; empty = last column

 private:
  void browse();
  void showPreview();
  void startCheck();
  void onChecked(int generation, const QString& summary, bool ok);

  QLineEdit* path_;
  QComboBox* format_;
  QComboBox* label_;
  QPlainTextEdit* preview_;
  QLabel* check_;
  QPushButton* ok_button_;
  async::TaskHandle check_task_;  // the newest check; older ones are dropped by generation
  int generation_ = 0;
};

}  // namespace dplab::ui
