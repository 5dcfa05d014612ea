// StatusPanel: the one place where messages and errors go (never a dialog per event). A message
// repeating the newest line is folded into it with a count, so a burst cannot flood the GUI; the
// newest message is also shown in the status bar by the main window.
#pragma once

#include <QList>
#include <QWidget>

class QPlainTextEdit;
class QLabel;

namespace dplab::ui {

class StatusPanel : public QWidget {
  Q_OBJECT
 public:
  explicit StatusPanel(QWidget* parent = nullptr);

  int errorCount() const { return error_count_; }
  QStringList errors() const { return errors_; }

 public slots:
  void addMessage(const QString& text, bool is_error);
  void clear();

 signals:
  void latest(const QString& text, bool is_error);

 private:
  void render();

  QPlainTextEdit* log_;
  QLabel* summary_;
  struct Entry {
    QString key;   // kind + text, without the time stamp (for folding repeats in a row)
    QString text;  // time stamp + text
    bool is_error = false;
    int count = 1;
  };
  QList<Entry> entries_;
  QStringList errors_;
  int error_count_ = 0;
};

}  // namespace dplab::ui
