#include "form/optimizer_editor.h"

#include "charts/theme.h"

#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

#include "form/grid_field.h"
#include "form/number_field.h"
#include "optim/update_count.h"

namespace dplab::ui {

using experiment::Param;
using optim::OptimizerKind;

QString OptimizerEditor::displayName(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::kDpSgd:
      return QStringLiteral("DPSGD");
    case OptimizerKind::kDpMomentum:
      return QStringLiteral("DPMomentum");
    case OptimizerKind::kDpAdam:
      return QStringLiteral("DPAdam");
    case OptimizerKind::kAdaDp:
      return QStringLiteral("ADADP");
    case OptimizerKind::kDpAdamWosm:
      return QStringLiteral("DPAdamWOSM");
    case OptimizerKind::kOsoDpSgd:
      return QStringLiteral("OSO-DPSGD (online C and ρ)");
    case OptimizerKind::kFixedQuantile:
      return QStringLiteral("FixedQuantile (adaptive C)");
    case OptimizerKind::kDpAdamBc:
      return QStringLiteral("DP-AdamBC");
  }
  return QStringLiteral("?");
}

QString OptimizerEditor::displayName(const experiment::OptimizerConfig& entry) {
  const QString name = displayName(entry.kind);
  return entry.clipping == models::ClippingMode::kAutomatic ? name + tr(" · auto clip") : name;
}

namespace {
QString titleOf(OptimizerKind kind, models::ClippingMode clipping) {
  experiment::OptimizerConfig entry;
  entry.kind = kind;
  entry.clipping = clipping;
  return OptimizerEditor::displayName(entry);
}
}  // namespace

OptimizerEditor::OptimizerEditor(OptimizerKind kind, models::ClippingMode clipping, QWidget* parent)
    : QGroupBox(titleOf(kind, clipping), parent), kind_(kind), clipping_(clipping) {
  const bool automatic = clipping == models::ClippingMode::kAutomatic;
  setCheckable(true);
  setChecked(false);
  auto* form = new QFormLayout(this);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setContentsMargins(6, 4, 6, 4);
  {
    // Every optimizer has α (experiment::optimizer_takes, the rule tune and train share).
    const QString help =
        kind == OptimizerKind::kAdaDp
            ? tr("α: initial step size; ADADP adapts it during training (Koskela & Honkela 2020).")
        : kind == OptimizerKind::kDpAdamWosm
            ? tr("α: the numerator of DPAdamWOSM's fixed step α/(σC/L + ξ) (paper Algorithm 2 "
                 "line 3 uses 0.001).")
            : tr("α: learning rate (step size) of the update θ ← θ − α·update. DPSGD needs a wide "
                 "α grid because the best α scales like 1/C (paper Theorem 2).");
    // DPAdam, DPAdamWOSM and DP-AdamBC have a good default α (1e-3, paper section 4.2 and
    // Alg. 2; Tang et al.'s code); DPSGD, DPMomentum and ADADP (its initial step) must be given
    // their α grid — no hidden default.
    const bool adam = kind == OptimizerKind::kDpAdam || kind == OptimizerKind::kDpAdamWosm ||
                      kind == OptimizerKind::kDpAdamBc;
    GridField* alpha = addGrid(Param::kLearningRate, tr("α (learning rate)"),
                               adam ? help + tr(" Empty = the default 0.001.") : help, !adam);
    if (adam) alpha->setDefaultText(tr("default: 0.001"));
  }
  const bool adaptive_clip =
      kind == OptimizerKind::kOsoDpSgd || kind == OptimizerKind::kFixedQuantile;
  if (automatic) {
    // No C grid (experiment::entry_takes): every g_i becomes g_i/(‖g_i‖ + γ), of norm < 1.
    const QString help =
        tr("γ: automatic clipping (Bu et al. 2023, AUTO-S) scales every per-example gradient to "
           "g/(‖g‖ + γ), of norm < 1: the sensitivity is 1, the noise std on the sum is σ·1, and "
           "C is not searched. Their default γ = 0.01.");
    stability_ = new NumberField(help, NumberField::positive(), this);
    stability_->setValue(models::kDefaultClipStability);
    static_cast<QFormLayout*>(layout())->addRow(tr("γ (stability)"), stability_);
    connect(stability_, &NumberField::edited, this, &OptimizerEditor::edited);
    auto* note = new QLabel(tr("C disappears: g → g/(‖g‖ + γ), sensitivity 1 (no C grid)"), this);
    note->setWordWrap(true);
    setTone(note, Tone::kNote);
    form->addRow(note);
  } else {
    addGrid(Param::kClip,
            adaptive_clip ? tr("C₀ (initial clipping norm)") : tr("C (clipping norm)"),
            adaptive_clip
                ? tr("C₀: the clipping norm of the first step; the optimizer then adapts C_t "
                     "(OSO-DPSGD: sign of the hypergradient, Galli et al.; FixedQuantile: toward "
                     "a quantile of the norms, Andrew et al.). The OSO paper uses 0.1.")
                : tr("C: each per-example gradient is clipped to L2 norm ≤ C; the noise std on "
                     "the sum is σ·C."),
            true);
  }
  if (kind == OptimizerKind::kFixedQuantile) {
    addGrid(Param::kTargetQuantile, tr("γ (target quantile)"),
            tr("γ: the share of per-example gradients left unclipped that C_t tracks. Empty = "
               "0.5; the OSO paper's grid: 0.1, 0.3, 0.5, 0.7, 0.9."),
            false);
  }
  if (kind == OptimizerKind::kDpMomentum) {
    addGrid(Param::kMomentum, tr("m (momentum)"),
            tr("m: heavy-ball momentum, v ← m·v + g̃, θ ← θ − α·v. Empty = 0.9."), false)
        ->setDefaultText(tr("default: 0.9"));
  }
  if (kind == OptimizerKind::kDpAdam || kind == OptimizerKind::kDpAdamWosm ||
      kind == OptimizerKind::kDpAdamBc) {
    addGrid(Param::kBeta1, tr("β1"),
            tr("β1: decay of Adam's first-moment (mean) estimate. Empty = 0.9 (paper's default)."),
            false)
        ->setDefaultText(tr("default: 0.9"));
  }
  if (kind == OptimizerKind::kDpAdam || kind == OptimizerKind::kDpAdamBc) {
    addGrid(Param::kBeta2, tr("β2"),
            tr("β2: decay of Adam's second-moment estimate. Empty = 0.999 (paper's default)."),
            false)
        ->setDefaultText(tr("default: 0.999"));
  }
  if (kind == OptimizerKind::kDpAdamBc) {
    addGrid(Param::kEpsilon, tr("γ' (floor)"),
            tr("γ': the floor of max(v̂ − Φ, γ') under the square root, where Φ = (σC/L)² is the "
               "DP noise variance DP-AdamBC removes from Adam's second moment (Tang et al. "
               "2024). Empty = 1e-8 (the authors' code)."),
            false)
        ->setDefaultText(tr("default: 1e-8"));
    auto* note = new QLabel(
        tr("Adam with the noise variance (σC/L)² subtracted from v̂ before the square root"), this);
    note->setWordWrap(true);
    setTone(note, Tone::kNote);
    form->addRow(note);
  }
  if (optim::queries_per_update(kind) > 1) {
    // ADADP: T counts noisy-gradient queries (what ε composes), not updates.
    auto* note = new QLabel(
        tr("%1 noisy-gradient queries per update: at T queries it makes T/%1 updates (half of "
           "the other optimizers at equal T and ε). The accuracy tab can count T in updates.")
            .arg(optim::queries_per_update(kind)),
        this);
    note->setWordWrap(true);
    setTone(note, Tone::kNote);
    form->addRow(note);
  }
  if (kind == OptimizerKind::kDpAdamWosm) {
    auto* note =
        new QLabel(tr("step size fixed to α/(σC/L + ξ) (Theorem 3); α defaults to 1e-3"), this);
    note->setWordWrap(true);
    setTone(note, Tone::kNote);
    form->addRow(note);
  }
  count_ = new QSpinBox(this);
  count_->setRange(1, 10000);
  count_->setValue(10);
  count_->setToolTip(
      tr("Random search: number of candidates drawn for this optimizer (seeded by "
         "the experiment seed)."));
  count_->setEnabled(false);
  form->addRow(tr("draws (random)"), count_);
  connect(count_, &QSpinBox::valueChanged, this, &OptimizerEditor::edited);
  connect(this, &QGroupBox::toggled, this, [this](bool on) {
    // An unticked optimizer shows only its title, so the form stays short.
    for (QWidget* child : findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
      child->setVisible(on);
    }
    emit edited();
  });
  for (QWidget* child : findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
    child->setVisible(false);
  }
  setToolTip(tr("Include %1 in the comparison; its candidates are the product of the grids below.")
                 .arg(displayName(kind)));
}

GridField* OptimizerEditor::addGrid(Param param, const QString& label, const QString& help,
                                    bool required) {
  auto* field = new GridField(help, param, required, this);
  fields_[static_cast<int>(param)] = field;
  static_cast<QFormLayout*>(layout())->addRow(label, field);
  connect(field, &GridField::edited, this, &OptimizerEditor::edited);
  return field;
}

void OptimizerEditor::setConfig(const experiment::OptimizerConfig& config) {
  for (int p = 0; p < experiment::kNumParams; ++p) {
    if (fields_[p]) fields_[p]->setSpec(config.grid[p]);
  }
  if (stability_) stability_->setValue(config.clip_stability);
  if (config.count) count_->setValue(*config.count);
}

experiment::OptimizerConfig OptimizerEditor::config() const {
  experiment::OptimizerConfig config;
  config.kind = kind_;
  config.clipping = clipping_;
  if (stability_)
    config.clip_stability = stability_->value().value_or(models::kDefaultClipStability);
  for (int p = 0; p < experiment::kNumParams; ++p) {
    if (fields_[p]) config.grid[p] = fields_[p]->spec();
  }
  if (count_->isEnabled()) config.count = count_->value();
  return config;
}

QString OptimizerEditor::error() const {
  return errors().value(0);
}

QStringList OptimizerEditor::errors() const {
  QStringList list;
  if (!isChecked()) return list;
  static const char* names[experiment::kNumParams] = {"α", "C", "m", "β1", "β2", "ξ", "γ"};
  const QString title = titleOf(kind_, clipping_);
  for (int p = 0; p < experiment::kNumParams; ++p) {
    if (fields_[p] && !fields_[p]->valid()) {
      const QString name =
          p == static_cast<int>(Param::kEpsilon) && kind_ == OptimizerKind::kDpAdamBc
              ? QStringLiteral("γ'")
              : QString::fromUtf8(names[p]);
      list << QStringLiteral("%1 %2: %3").arg(title, name, fields_[p]->error());
    }
  }
  if (stability_ && !stability_->valid())
    list << QStringLiteral("%1 γ: %2").arg(title, stability_->error());
  return list;
}

void OptimizerEditor::setRandomSearch(bool random) {
  count_->setEnabled(random);
}

}  // namespace dplab::ui
