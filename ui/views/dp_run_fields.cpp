#include "views/dp_run_fields.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QObject>
#include <QSignalBlocker>
#include <QSpinBox>
#include <cmath>

namespace dplab::ui {

DpRunFields::DpRunFields(QWidget* parent, double sigma, int steps) {
  sigma_ = new QDoubleSpinBox(parent);
  sigma_->setRange(0.3, 50.0);
  sigma_->setDecimals(2);
  sigma_->setSingleStep(0.1);
  sigma_->setValue(sigma);
  sampling_rate_ = new QDoubleSpinBox(parent);
  sampling_rate_->setRange(1e-5, 1.0);
  sampling_rate_->setDecimals(5);
  sampling_rate_->setSingleStep(0.001);
  sampling_rate_->setValue(256.0 / 60000.0);
  steps_ = new QSpinBox(parent);
  steps_->setRange(1, 1'000'000);
  steps_->setValue(steps);
  delta_ = new QComboBox(parent);
  for (int e = 3; e <= 10; ++e) delta_->addItem(QString("1e-%1").arg(e), std::pow(10.0, -e));
  delta_->setCurrentIndex(2);
}

void DpRunFields::addRows(QFormLayout* form, const QString& sampling_rate_label) const {
  form->addRow(QObject::tr("noise multiplier σ"), sigma_);
  form->addRow(sampling_rate_label, sampling_rate_);
  form->addRow(QObject::tr("steps T of one run"), steps_);
  form->addRow(QObject::tr("δ"), delta_);
}

void DpRunFields::onChanged(QObject* context, const std::function<void()>& slot) const {
  QObject::connect(sigma_, &QDoubleSpinBox::valueChanged, context, slot);
  QObject::connect(sampling_rate_, &QDoubleSpinBox::valueChanged, context, slot);
  QObject::connect(steps_, &QSpinBox::valueChanged, context, slot);
  QObject::connect(delta_, &QComboBox::currentIndexChanged, context, slot);
}

void DpRunFields::set(double sigma, double sampling_rate, int steps, double delta) {
  const QSignalBlocker b1(sigma_), b2(sampling_rate_), b3(steps_), b4(delta_);
  sigma_->setValue(sigma);
  sampling_rate_->setValue(sampling_rate);
  steps_->setValue(steps);
  int index = delta_->findData(delta);
  if (index < 0) {
    delta_->addItem(QString::number(delta, 'g', 3), delta);
    index = delta_->count() - 1;
  }
  delta_->setCurrentIndex(index);
}

privacy::SubsampledGaussian DpRunFields::run() const {
  return {sigma_->value(), sampling_rate_->value(), steps_->value()};
}

double DpRunFields::delta() const {
  return delta_->currentData().toDouble();
}

std::vector<QWidget*> DpRunFields::widgets() const {
  return {sigma_, sampling_rate_, steps_, delta_};
}

}  // namespace dplab::ui
