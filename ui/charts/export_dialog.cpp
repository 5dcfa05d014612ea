#include "charts/export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <cmath>

namespace dplab::ui {

ExportImageDialog::ExportImageDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Export image"));
  const ImageExportOptions saved = savedOptions();
  auto* form = new QFormLayout(this);
  preset_ = new QComboBox(this);
  for (const ImageSizePreset& p : kImageSizePresets) preset_->addItem(tr(p.name));
  preset_->addItem(tr("custom"));
  preset_->setToolTip(
      tr("Figure sizes of a two-column paper: one column is about 3.5 in wide, the "
         "full page width about 7 in. Fonts keep their point size at every size."));
  width_ = new QDoubleSpinBox(this);
  width_->setRange(1.0, 40.0);
  width_->setDecimals(2);
  width_->setSingleStep(0.25);
  width_->setSuffix(tr(" in"));
  width_->setValue(saved.width_in);
  width_->setToolTip(
      tr("Width of the figure on paper (PDF page, SVG size; PNG pixels = inches × dpi)."));
  height_ = new QDoubleSpinBox(this);
  height_->setRange(1.0, 40.0);
  height_->setDecimals(2);
  height_->setSingleStep(0.25);
  height_->setSuffix(tr(" in"));
  height_->setValue(saved.height_in);
  height_->setToolTip(tr("Height of the figure on paper."));
  dpi_ = new QSpinBox(this);
  dpi_->setRange(72, 1200);
  dpi_->setSuffix(tr(" dpi"));
  dpi_->setValue(saved.dpi);
  dpi_->setToolTip(tr("PNG resolution (dots per inch). PDF and SVG are vector formats."));
  title_ = new QCheckBox(tr("draw the chart title"), this);
  title_->setChecked(saved.title);
  title_->setToolTip(tr("Papers usually put the title in the figure caption instead."));
  pixels_ = new QLabel(this);
  form->addRow(tr("Size"), preset_);
  form->addRow(tr("Width"), width_);
  form->addRow(tr("Height"), height_);
  form->addRow(tr("Resolution"), dpi_);
  form->addRow(pixels_);
  form->addRow(title_);
  auto sync_preset = [this] {
    QSignalBlocker block(preset_);
    int index = preset_->count() - 1;
    for (int i = 0; i < static_cast<int>(std::size(kImageSizePresets)); ++i) {
      if (std::abs(kImageSizePresets[i].width_in - width_->value()) < 1e-6 &&
          std::abs(kImageSizePresets[i].height_in - height_->value()) < 1e-6) {
        index = i;
      }
    }
    preset_->setCurrentIndex(index);
    pixels_->setText(tr("PNG: %1 × %2 pixels")
                         .arg(std::lround(width_->value() * dpi_->value()))
                         .arg(std::lround(height_->value() * dpi_->value())));
  };
  connect(preset_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i < 0 || i >= static_cast<int>(std::size(kImageSizePresets))) return;
    width_->setValue(kImageSizePresets[i].width_in);
    height_->setValue(kImageSizePresets[i].height_in);
  });
  connect(width_, &QDoubleSpinBox::valueChanged, this, sync_preset);
  connect(height_, &QDoubleSpinBox::valueChanged, this, sync_preset);
  connect(dpi_, &QSpinBox::valueChanged, this, sync_preset);
  sync_preset();
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    saveOptions(options());
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
}

ImageExportOptions ExportImageDialog::options() const {
  ImageExportOptions o;
  o.width_in = width_->value();
  o.height_in = height_->value();
  o.dpi = dpi_->value();
  o.title = title_->isChecked();
  return o;
}

void ExportImageDialog::selectPreset(int index) {
  preset_->setCurrentIndex(index);
}

ImageExportOptions ExportImageDialog::savedOptions() {
  QSettings settings;
  ImageExportOptions o;
  o.width_in = settings.value(QStringLiteral("export/width_in"), o.width_in).toDouble();
  o.height_in = settings.value(QStringLiteral("export/height_in"), o.height_in).toDouble();
  o.dpi = settings.value(QStringLiteral("export/dpi"), o.dpi).toInt();
  o.title = settings.value(QStringLiteral("export/title"), o.title).toBool();
  return o;
}

void ExportImageDialog::saveOptions(const ImageExportOptions& options) {
  QSettings settings;
  settings.setValue(QStringLiteral("export/width_in"), options.width_in);
  settings.setValue(QStringLiteral("export/height_in"), options.height_in);
  settings.setValue(QStringLiteral("export/dpi"), options.dpi);
  settings.setValue(QStringLiteral("export/title"), options.title);
}

}  // namespace dplab::ui
