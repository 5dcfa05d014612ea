// ExportImageDialog: asks for the physical size of an exported chart (presets: single column
// 3.5 in, double column 7 in, or custom inches), the PNG resolution (DPI) and whether to draw the
// title. The last choice is remembered in QSettings ("export/width_in", "export/height_in",
// "export/dpi", "export/title").
#pragma once

#include <QDialog>

#include "charts/chart_export.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace dplab::ui {

class ExportImageDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ExportImageDialog(QWidget* parent = nullptr);
  ImageExportOptions options() const;
  void selectPreset(int index);  // index into kImageSizePresets

  // The remembered options (or defaults) without showing the dialog.
  static ImageExportOptions savedOptions();
  static void saveOptions(const ImageExportOptions& options);

 private:
  QComboBox* preset_;
  QDoubleSpinBox* width_;
  QDoubleSpinBox* height_;
  QSpinBox* dpi_;
  QCheckBox* title_;
  QLabel* pixels_;
};

}  // namespace dplab::ui
