// The settings of one DP-SGD run that the what-if views share ("Accountants disagree",
// "Tuning on a subsample"): noise multiplier σ, lot sampling rate q = L/n, steps T and δ. One
// place builds the four fields, lays them out, reports their changes, fills them from the user's
// experiment and reads them as the engine's privacy::SubsampledGaussian.
#pragma once

#include <QString>
#include <functional>
#include <vector>

#include "privacy/accounting/rdp_accountant.h"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QObject;
class QSpinBox;
class QWidget;

namespace dplab::ui {

class DpRunFields {
 public:
  // Children of `parent`, created in the order σ, q, T, δ; δ offers 1e-3 .. 1e-10 (1e-5 chosen).
  DpRunFields(QWidget* parent, double sigma, int steps);

  void addRows(QFormLayout* form, const QString& sampling_rate_label) const;
  void onChanged(QObject* context, const std::function<void()>& slot) const;
  // Sets the four fields without emitting their change signals; a δ not offered is added.
  void set(double sigma, double sampling_rate, int steps, double delta);

  privacy::SubsampledGaussian run() const;
  double delta() const;
  std::vector<QWidget*> widgets() const;

 private:
  QDoubleSpinBox* sigma_;
  QDoubleSpinBox* sampling_rate_;
  QSpinBox* steps_;
  QComboBox* delta_;
};

}  // namespace dplab::ui
