// LessonPanel: the Playground's guided lessons (issue #27). Lists the built-in lessons (Qt
// resource ":/lessons", from resources/lessons/*.json) and those in the user's lesson folder
// (<app data>/lessons, where a teacher drops edited copies), opens any lesson file from disk, and
// shows the chosen lesson's text, question, picture to look at and source. Choosing one emits
// lessonChosen; the window applies its settings and locks / hides its knobs.
#pragma once

#include <QString>
#include <QWidget>
#include <vector>

#include "playground/playground_lesson.h"

class QComboBox;
class QTextBrowser;

namespace dplab::ui {

class LessonPanel : public QWidget {
  Q_OBJECT
 public:
  explicit LessonPanel(QWidget* parent = nullptr);

  // Lessons listed (built-in first, then the user's folder, then files opened).
  const std::vector<playground::Lesson>& lessons() const { return lessons_; }
  // Opens a lesson file and chooses it; false (and message()) when it does not parse.
  bool openFile(const QString& path);
  void choose(int index);
  static QString userLessonDir();

 signals:
  void lessonChosen(const dplab::playground::Lesson& lesson);
  void message(const QString& text, bool is_error);

 private:
  bool add(const QString& path, bool report);

  std::vector<playground::Lesson> lessons_;
  QComboBox* list_;
  QTextBrowser* text_;
};

}  // namespace dplab::ui
