#include "form/release_section.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <algorithm>

#include "form/number_field.h"

namespace dplab::ui {

using experiment::PrivateSelection;
using experiment::ReleaseMode;

ReleaseSection::ReleaseSection(QWidget* parent) : QWidget(parent) {
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
  mode_ = new QComboBox(this);
  mode_->addItem(tr("explore (every run shown and charged)"), QStringLiteral("explore"));
  mode_->addItem(tr("private: MA (each candidate once, winner only)"), QStringLiteral("ma"));
  mode_->addItem(tr("private: Liu–Talwar random stopping"), QStringLiteral("lt"));
  mode_->addItem(tr("private: Papernot–Steinke (Poisson μ)"), QStringLiteral("ps"));
  mode_->setToolTip(
      tr("What the search releases, and so what its ε covers. explore: every curve of every "
         "run is shown and ε composes ALL runs trained. private: the selection runs for real "
         "(the drawn runs trained afresh) and only the winner is released; ε is the "
         "selection's (MA: K runs; LT: Liu–Talwar Theorem 1 with its hard stop; PS: "
         "Papernot–Steinke 2022). In private modes repeats = independent replicate searches."));
  form->addRow(tr("Release"), mode_);
  mu_ = new NumberField(tr("μ: mean number of runs of Papernot–Steinke's Poisson stopping "
                           "(≥ 1)."),
                        NumberField::Rule([](double v) {
                          return (v >= 1 && v <= 700) ? QString() : tr("must be in [1, 700]");
                        }),
                        this);
  mu_->setValue(10);
  form->addRow(tr("μ (PS)"), mu_);
  secure_ = new QCheckBox(tr("secure noise (OS entropy, no seed)"), this);
  secure_->setToolTip(
      tr("Private modes: lots and noise from getrandom + ChaCha20 (noise on an integer grid, "
         "docs/secure-noise.md). No seed is shown or stored, so two runs differ and nobody "
         "can replay the noise. explore keeps its reproducible seed."));
  form->addRow(secure_);
  connect(mode_, &QComboBox::currentIndexChanged, this, &ReleaseSection::onModeChanged);
  connect(secure_, &QCheckBox::toggled, this, [this] {
    if (!updating_) emit edited();
  });
  connect(mu_, &NumberField::edited, this, [this] {
    if (!updating_) emit edited();
  });
  onModeChanged();
}

void ReleaseSection::selectMode(const QString& key) {
  mode_->setCurrentIndex(std::max(0, mode_->findData(key)));
}

bool ReleaseSection::isPrivate() const {
  return mode_->currentData().toString() != QLatin1String("explore");
}

bool ReleaseSection::secure() const {
  return isPrivate() && secure_->isChecked();
}

void ReleaseSection::onModeChanged() {
  const bool priv = isPrivate();
  secure_->setEnabled(priv);
  if (!updating_) {
    // Secure noise is the default of the private modes (switched on when leaving explore).
    if (priv && !was_private_) secure_->setChecked(true);
    if (!priv) secure_->setChecked(false);
  }
  was_private_ = priv;
  mu_->setEnabled(mode_->currentData().toString() == QLatin1String("ps"));
  if (!updating_) emit edited();
}

void ReleaseSection::setRelease(const experiment::ReleaseConfig& r) {
  updating_ = true;
  QString key = QStringLiteral("explore");
  if (r.mode == ReleaseMode::kPrivate) {
    key = r.selection == PrivateSelection::kMa   ? QStringLiteral("ma")
          : r.selection == PrivateSelection::kLt ? QStringLiteral("lt")
                                                 : QStringLiteral("ps");
  }
  selectMode(key);
  secure_->setChecked(r.secure);
  mu_->setValue(r.ps_mu);
  updating_ = false;
  onModeChanged();
}

experiment::ReleaseConfig ReleaseSection::release(const experiment::ReleaseConfig& base) const {
  experiment::ReleaseConfig r = base;
  const QString key = mode_->currentData().toString();
  if (key == QLatin1String("explore")) {
    r.mode = ReleaseMode::kExplore;
    r.validation = experiment::ValidationAssumption::kPublic;  // explore shows every curve
  } else {
    r.mode = ReleaseMode::kPrivate;
    r.selection = key == QLatin1String("ma")   ? PrivateSelection::kMa
                  : key == QLatin1String("lt") ? PrivateSelection::kLt
                                               : PrivateSelection::kPs;
  }
  r.secure = secure();
  if (key == QLatin1String("ps") && mu_->valid() && mu_->value()) r.ps_mu = *mu_->value();
  return r;
}

QStringList ReleaseSection::errors() const {
  QStringList list;
  if (mu_->isEnabled() && !mu_->valid()) list << tr("μ (PS): %1").arg(mu_->error());
  return list;
}

}  // namespace dplab::ui
