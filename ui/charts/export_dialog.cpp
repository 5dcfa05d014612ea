#include "charts/export_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSettings>
#include <QSpinBox>

namespace dplab::ui {

ExportImageDialog::ExportImageDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Export image"));
  const ImageExportOptions saved = savedOptions();
  auto* form = new QFormLayout(this);
  width_ = new QSpinBox(this);
  width_->setRange(200, 8000);
  width_->setSuffix(tr(" px"));
  width_->setValue(saved.width);
  width_->setToolTip(tr("Width of the image in logical pixels (1/96 inch)."));
  height_ = new QSpinBox(this);
  height_->setRange(150, 8000);
  height_->setSuffix(tr(" px"));
  height_->setValue(saved.height);
  height_->setToolTip(tr("Height of the image in logical pixels (1/96 inch)."));
  dpi_ = new QSpinBox(this);
  dpi_->setRange(48, 1200);
  dpi_->setSuffix(tr(" dpi"));
  dpi_->setValue(saved.dpi);
  dpi_->setToolTip(tr("Resolution: PNG renders dpi/96 device pixels per logical pixel; PDF and SVG "
                      "are vector formats and store it as metadata."));
  form->addRow(tr("Width"), width_);
  form->addRow(tr("Height"), height_);
  form->addRow(tr("Resolution"), dpi_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    saveOptions(options());
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
}

ImageExportOptions ExportImageDialog::options() const {
  return {width_->value(), height_->value(), dpi_->value()};
}

ImageExportOptions ExportImageDialog::savedOptions() {
  QSettings settings;
  ImageExportOptions o;
  o.width = settings.value(QStringLiteral("export/width"), o.width).toInt();
  o.height = settings.value(QStringLiteral("export/height"), o.height).toInt();
  o.dpi = settings.value(QStringLiteral("export/dpi"), o.dpi).toInt();
  return o;
}

void ExportImageDialog::saveOptions(const ImageExportOptions& options) {
  QSettings settings;
  settings.setValue(QStringLiteral("export/width"), options.width);
  settings.setValue(QStringLiteral("export/height"), options.height);
  settings.setValue(QStringLiteral("export/dpi"), options.dpi);
}

}  // namespace dplab::ui
