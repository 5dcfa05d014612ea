#include "form/privacy_section.h"

#include <QFormLayout>
#include <QLabel>
#include <cmath>
#include <limits>

#include "charts/chart_export.h"
#include "charts/theme.h"
#include "form/number_field.h"
#include "privacy/accounting/rdp_accountant.h"
#include "tuning/accounting.h"

namespace dplab::ui {

PrivacySection::PrivacySection(QWidget* parent)
    : QGroupBox(tr("Privacy (DP-SGD mechanism)"), parent) {
  auto* form = new QFormLayout(this);
  form->setContentsMargins(6, 4, 6, 4);
  sigma_ = new NumberField(
      tr("σ, noise multiplier: Gaussian noise with std σ·C is added to the clipped gradient sum at "
         "every step. Larger σ = more privacy, noisier training."),
      NumberField::positive(), this);
  lot_ = new NumberField(
      tr("L, expected lot size: each training example joins a lot independently with probability "
         "q = L/n (Poisson sampling); gradients are divided by L."),
      [this](double v) -> QString {
        if (!(v >= 1)) return tr("must be ≥ 1");
        if (n_ > 0 && v > n_) return tr("must be ≤ n = %1 (training-set size)").arg(n_);
        return QString();
      },
      this);
  steps_ = new NumberField(
      tr("T, number of noisy-gradient queries (iterations) of one run; the accountant composes "
         "T steps."),
      NumberField::positiveInteger(), this);
  delta_ = new NumberField(
      tr("δ, the failure probability of (ε, δ)-DP. Empty = 1/n rounded down to a power of ten "
         "(paper, appendix A)."),
      NumberField::openInterval(0, 1), this);
  delta_->setAllowEmpty(true, tr("default: 1/n rounded down"));
  form->addRow(tr("σ (noise multiplier)"), sigma_);
  form->addRow(tr("L (lot size)"), lot_);
  form->addRow(tr("T (steps)"), steps_);
  form->addRow(tr("δ"), delta_);
  live_ = new QLabel(this);
  live_->setWordWrap(true);
  live_->setTextFormat(Qt::RichText);
  live_->setToolTip(
      tr("q = L/n is the sampling rate, epochs = T·q passes over the data, and ε is "
         "the privacy of ONE run at δ (engine RDP accountant, improved conversion). "
         "Tuning over K candidates costs more: see the Tuning box."));
  form->addRow(live_);
  for (NumberField* f : {sigma_, lot_, steps_, delta_}) {
    connect(f, &NumberField::edited, this, [this] {
      updateLive();
      emit edited();
    });
  }
  updateLive();
}

void PrivacySection::setConfig(const experiment::PrivacyConfig& config) {
  sigma_->setValue(config.noise_multiplier);
  lot_->setValue(config.lot_size);
  steps_->setValue(static_cast<double>(config.steps));
  delta_->setOptionalValue(config.delta);
}

experiment::PrivacyConfig PrivacySection::config() const {
  experiment::PrivacyConfig c;
  c.noise_multiplier = sigma_->value().value_or(c.noise_multiplier);
  c.lot_size = lot_->value().value_or(c.lot_size);
  c.steps = static_cast<std::int64_t>(steps_->value().value_or(static_cast<double>(c.steps)));
  c.delta = delta_->value();
  return c;
}

void PrivacySection::setTrainingSize(qint64 n) {
  if (n == n_) return;
  n_ = n;
  lot_->revalidate();
  updateLive();
  emit edited();
}

QString PrivacySection::error() const {
  return errors().value(0);
}

QStringList PrivacySection::errors() const {
  QStringList list;
  if (!sigma_->valid()) list << tr("σ: %1").arg(sigma_->error());
  if (!lot_->valid()) list << tr("L: %1").arg(lot_->error());
  if (!steps_->valid()) list << tr("T: %1").arg(steps_->error());
  if (!delta_->valid()) list << tr("δ: %1").arg(delta_->error());
  return list;
}

double PrivacySection::resolvedDelta() const {
  if (auto d = delta_->value(); d && delta_->valid()) return *d;
  if (n_ > 0) return tuning::default_delta_for(n_);
  return std::numeric_limits<double>::quiet_NaN();
}

QString PrivacySection::liveText() const {
  return live_->text();
}

void PrivacySection::updateLive() {
  live_epsilon_ = std::numeric_limits<double>::quiet_NaN();
  if (n_ <= 0) {
    live_->setText(tr("<i>loading the data set to learn n …</i>"));
    return;
  }
  if (!error().isEmpty()) {
    live_->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                       .arg(toneHex(Tone::kError), error().toHtmlEscaped()));
    return;
  }
  const experiment::PrivacyConfig c = config();
  const double q = c.lot_size / static_cast<double>(n_);
  const double epochs = static_cast<double>(c.steps) * q;
  const double delta = resolvedDelta();
  try {
    live_epsilon_ = privacy::epsilon_for_delta({c.noise_multiplier, q, c.steps}, delta).epsilon;
  } catch (const std::exception& e) {
    live_->setText(
        tr("<span style='color:%1'>accountant: %2</span>")
            .arg(toneHex(Tone::kError), QString::fromStdString(e.what()).toHtmlEscaped()));
    return;
  }
  live_->setText(
      tr("n = %1 · q = %2 · epochs = %3<br><b>ε of one run = %4</b> at δ = %5 (accountant: rdp)")
          .arg(n_)
          .arg(q, 0, 'g', 3)
          .arg(epochs, 0, 'g', 3)
          .arg(live_epsilon_, 0, 'g', 4)
          .arg(delta, 0, 'g', 3));
}

}  // namespace dplab::ui
