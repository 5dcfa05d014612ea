#include "form/resource_or_file.h"

#include <QFile>

#include "core/error.h"

namespace dplab::ui {

std::string readResourceOrFile(const QString& path, const data::FileRules& rules) {
  if (!path.startsWith(QStringLiteral(":/")))
    return data::read_file_text(path.toStdString(), rules);
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    throw IoError(path.toStdString() + ": cannot read (" + file.errorString().toStdString() + ")");
  }
  return file.readAll().toStdString();
}

}  // namespace dplab::ui
