// ExportImageDialog: asks for the size (pixels) and resolution (DPI) of an exported chart image.
// The last choice is remembered in QSettings ("export/width", "export/height", "export/dpi").
#pragma once

#include <QDialog>

#include "charts/chart_export.h"

class QSpinBox;

namespace dplab::ui {

class ExportImageDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ExportImageDialog(QWidget* parent = nullptr);
  ImageExportOptions options() const;

  // The remembered options (or defaults) without showing the dialog.
  static ImageExportOptions savedOptions();
  static void saveOptions(const ImageExportOptions& options);

 private:
  QSpinBox* width_;
  QSpinBox* height_;
  QSpinBox* dpi_;
};

}  // namespace dplab::ui
