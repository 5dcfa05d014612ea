#include "playground/lesson_panel.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QPushButton>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "core/error.h"
#include "form/resource_or_file.h"

namespace dplab::ui {

namespace {

// A lesson is a small JSON file (playground/lesson.h); the reader refuses anything larger.
constexpr data::FileRules kLessonFile{256 * 1024, true, "a lesson file"};

QString where_to_look(const std::string& picture) {
  if (picture == "step") return QObject::tr("the DP-SGD step view (right of the plane)");
  if (picture == "curves") return QObject::tr("the loss and accuracy curves");
  if (picture == "ledger") return QObject::tr("the ledger (right)");
  if (picture == "grid") return QObject::tr("the α–C grid (right of the plane)");
  if (picture == "objpert") return QObject::tr("objective perturbation (right of the plane)");
  if (picture == "sweep") return QObject::tr("the C sweep (right of the plane)");
  return QObject::tr("the plane (decision field and points)");
}

}  // namespace

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("pgLessons"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  // One line for the choice of lesson (a list box took the text's room at 1280 x 720): the
  // titles are in the drop-down, the text below gets the panel's height.
  list_ = new QComboBox(this);
  list_->setObjectName(QStringLiteral("pgLessonList"));
  list_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  list_->setMinimumContentsLength(8);
  list_->setPlaceholderText(tr("Choose a lesson…"));
  text_ = new QTextBrowser(this);
  text_->setObjectName(QStringLiteral("pgLessonText"));
  text_->setOpenLinks(false);
  auto* open = new QPushButton(tr("Open…"), this);
  open->setObjectName(QStringLiteral("pgOpenLesson"));
  open->setToolTip(tr("Open a lesson file. A lesson is a small JSON file (see "
                      "resources/lessons); copy one, edit it, open it here or put it in %1")
                       .arg(userLessonDir()));
  auto* choice = new QHBoxLayout;
  choice->addWidget(list_, 1);
  choice->addWidget(open);
  layout->addLayout(choice);
  layout->addWidget(text_, 1);
  for (const QString& name :
       QDir(QStringLiteral(":/lessons")).entryList({"*.json"}, QDir::Files, QDir::Name)) {
    add(QStringLiteral(":/lessons/") + name, true);
  }
  const QDir user(userLessonDir());
  for (const QString& name : user.entryList({"*.json"}, QDir::Files, QDir::Name)) {
    add(user.filePath(name), true);
  }
  list_->setCurrentIndex(-1);  // no lesson chosen yet: the placeholder shows
  connect(list_, &QComboBox::currentIndexChanged, this, &LessonPanel::choose);
  connect(open, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a Playground lesson"),
                                                      userLessonDir(), tr("Lessons (*.json)"));
    if (!path.isEmpty()) openFile(path);
  });
  text_->setHtml(
      tr("<p>Choose a lesson above: it sets the knobs, says what to look at and asks a "
         "question.</p>"));
}

QString LessonPanel::userLessonDir() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
         QStringLiteral("/lessons");
}

bool LessonPanel::add(const QString& path, bool report) {
  try {
    playground::Lesson lesson = playground::parse_lesson(readResourceOrFile(path, kLessonFile),
                                                         QFileInfo(path).fileName().toStdString());
    lessons_.push_back(std::move(lesson));
    list_->addItem(QString::fromStdString(lessons_.back().title));
    return true;
  } catch (const Error& e) {
    if (report) emit message(tr("Lesson: %1").arg(QString::fromUtf8(e.what())), true);
    return false;
  }
}

bool LessonPanel::openFile(const QString& path) {
  if (!add(path, true)) return false;
  list_->setCurrentIndex(static_cast<int>(lessons_.size()) - 1);  // chooses it
  return true;
}

void LessonPanel::choose(int index) {
  if (index < 0 || index >= static_cast<int>(lessons_.size())) return;
  if (list_->currentIndex() != index) {
    list_->setCurrentIndex(index);  // emits currentIndexChanged -> choose again
    return;
  }
  const playground::Lesson& l = lessons_[static_cast<std::size_t>(index)];
  const auto html = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
  text_->setHtml(tr("<h3>%1</h3><p>%2</p><p><b>Look at:</b> %3.</p><p><b>Question.</b> %4</p>"
                    "<p style='color:#666'><i>Source: %5</i></p>")
                     .arg(html(l.title), html(l.text), where_to_look(l.picture), html(l.question),
                          html(l.source)));
  emit lessonChosen(l);
}

}  // namespace dplab::ui
