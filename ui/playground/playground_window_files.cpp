// PlaygroundWindow (playground_window.h): what leaves the window as a file — the picture (PNG,
// SVG, PDF through the charts' export path) and the state file that reopens exactly.
#include <nlohmann/json.hpp>

#include <QFileInfo>
#include <QListWidget>
#include <QPainter>
#include <QPicture>
#include <QSaveFile>

#include "charts/chart_export.h"
#include "core/error.h"
#include "data/file_reader.h"
#include "playground/playground_window.h"

namespace dplab::ui {

using namespace dplab::playground;

bool PlaygroundWindow::savePicture(const QString& path) {
  const auto format = formatForSuffix(path);
  if (!format) {
    emit message(tr("Could not write the picture to %1: use .png, .svg or .pdf").arg(path), true);
    return false;
  }
  // The central area as drawn, recorded once and replayed by the charts' writer (PNG at twice
  // the screen's pixels for slides, SVG / PDF at the same physical size).
  QWidget* area = centralWidget();
  QPicture picture;
  {
    QPainter painter(&picture);
    area->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
  }
  ImageExportOptions options;
  options.width_in = area->width() / ImageExportOptions::kLogicalDpi;
  options.height_in = area->height() / ImageExportOptions::kLogicalDpi;
  options.dpi = 2 * static_cast<int>(ImageExportOptions::kLogicalDpi);
  QString error;
  if (!writePicture(picture, path, *format, options, &error)) {
    emit message(tr("Could not write the picture to %1: %2").arg(path, error), true);
    return false;
  }
  emit message(tr("Picture saved: %1").arg(path), false);
  return true;
}

PlaygroundState PlaygroundWindow::state() const {
  PlaygroundState st;
  st.settings = settings_;
  st.steps = shown_ && shown_->settings == settings_ ? shown_->steps : 0;
  st.projection_a = projection_a_;
  st.projection_b = projection_b_;
  for (const auto& e : ledger_.entries()) {
    st.ledger.emplace_back(settings_from_json(nlohmann::json::parse(e.identity)),
                           e.best_test_accuracy);
  }
  return st;
}

bool PlaygroundWindow::saveState(const QString& path) {
  QSaveFile file(path);
  const std::string text = state_to_text(state());
  if (!file.open(QIODevice::WriteOnly) ||
      file.write(text.data(), static_cast<qint64>(text.size())) !=
          static_cast<qint64>(text.size()) ||
      !file.commit()) {
    emit message(tr("Could not write the state to %1").arg(path), true);
    return false;
  }
  emit message(tr("State saved: %1").arg(path), false);
  return true;
}

bool PlaygroundWindow::openState(const QString& path) {
  // The one reader: regular files only (a FIFO would block the GUI thread), 4 MB, UTF-8.
  static constexpr data::FileRules kStateFile{4 * 1024 * 1024, true, "a Playground state file"};
  try {
    const PlaygroundState st = state_from_text(data::read_file_text(path.toStdString(), kStateFile),
                                               QFileInfo(path).fileName().toStdString());
    ledger_.reset();
    ledger_list_->clear();
    for (const auto& [setting, accuracy] : st.ledger) {
      ledger_.record(setting, train_size_of(setting.data));
      ledger_.note_accuracy(setting, accuracy);
      ledger_list_->addItem(QString::fromStdString(ledger_.entries().back().summary));
    }
    pause();
    projection_a_ = st.projection_a;
    projection_b_ = st.projection_b;
    applySettings(st.settings);
    target_ = st.steps;
    submitRun();
    return true;
  } catch (const Error& e) {
    emit message(tr("Playground state: %1").arg(QString::fromUtf8(e.what())), true);
    return false;
  }
}

}  // namespace dplab::ui
