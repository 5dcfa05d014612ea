#include "playground/playground_labels.h"

#include <QObject>

#include "privacy/accounting/epsilon_display.h"

namespace dplab::ui {

using namespace dplab::playground;

namespace {

// The widest numbers the labels show (a SteadyLabel reserves the lines of these texts).
// The largest epsilon a setting reaches: sigma = 0.1, q = 1, T = 100,000 and delta = 1e-10 give
// 5.5e6 by RDP (`dplab-cli account`), so up to 10^7 fits the reserve (an epsilon above 10^5 took
// a line the label did not reserve). The ledger composes many settings and may go beyond; a
// line more is then clipped at its foot.
constexpr double kWidestEpsilon = 9999999.99;
constexpr std::int64_t kWidestSteps = 100000;  // the steps knob's maximum
constexpr double kWidestSmall = 1.23456e-05;   // a 'g' 3 number with an exponent
constexpr double kWidestMs = 1234.5;

}  // namespace

QString playground_eps_text(double epsilon) {
  return QString::fromStdString(privacy::format_epsilon_up(epsilon));
}

QString step_label_text(std::int64_t steps, std::int64_t total, std::optional<double> spent) {
  QString text = QObject::tr("step %1 / %2").arg(steps).arg(total);
  if (spent) text += QObject::tr(" · ε spent so far %1").arg(playground_eps_text(*spent));
  return text;
}

QString longest_step_label_text() {
  return step_label_text(kWidestSteps, kWidestSteps, kWidestEpsilon);
}

QString clip_label_text(const StepPicture& p, const TrainingOptions& t) {
  if (p.step == 0) return QString();
  if (!t.is_private) {
    return QObject::tr("lot %1: non-private, nothing clipped, no noise").arg(p.lot.size());
  }
  if (t.automatic_clipping) {
    // Every g_i is rescaled (small ones up, large ones down): "% clipped" does not apply.
    return QObject::tr(
               "lot %1 (L = %2): all g → g/(‖g‖+γ), norm < 1 · SNR = %3 · automatic: "
               "C = 1, knob unused")
        .arg(p.lot.size())
        .arg(p.expected_lot)
        .arg(p.signal_to_noise, 0, 'g', 3);
  }
  QString text = QObject::tr("lot %1 (L = %2): %3% clipped · SNR ‖ΣclipG‖/(σC√d) = %4")
                     .arg(p.lot.size())
                     .arg(p.expected_lot)
                     .arg(100 * p.fraction_clipped, 0, 'f', 0)
                     .arg(p.signal_to_noise, 0, 'g', 3);
  if (t.optimizer == OptimizerChoice::kFixedQuantile) {
    text += QObject::tr(" · adaptive C_t = %1 (C_0 = %2)")
                .arg(p.clip, 0, 'g', 3)
                .arg(t.clip, 0, 'g', 3);
  }
  return text;
}

QString longest_clip_label_text() {
  StepPicture p;
  p.step = 1;
  p.lot.resize(2000);  // the lot knob's maximum
  p.expected_lot = 2000;
  p.fraction_clipped = 1;
  p.signal_to_noise = kWidestSmall;
  p.clip = kWidestSmall;
  TrainingOptions t;
  t.is_private = true;
  t.optimizer = OptimizerChoice::kFixedQuantile;
  t.clip = kWidestSmall;
  const QString adaptive = clip_label_text(p, t);
  t.optimizer = OptimizerChoice::kDpSgd;
  t.automatic_clipping = true;
  const QString automatic = clip_label_text(p, t);
  return automatic.size() > adaptive.size() ? automatic : adaptive;
}

QString accuracy_label_text(const HistoryPoint& h, const HistoryPoint& g, bool minority) {
  QString text = QObject::tr("test accuracy: DP %1%, non-private %2%")
                     .arg(100 * h.test_accuracy, 0, 'f', 1)
                     .arg(100 * g.test_accuracy, 0, 'f', 1);
  if (minority) {
    text += QObject::tr("\nminority cluster: DP %1%, non-private %2%")
                .arg(100 * h.minority_test_accuracy, 0, 'f', 1)
                .arg(100 * g.minority_test_accuracy, 0, 'f', 1);
  }
  return text;
}

QString longest_accuracy_label_text() {
  HistoryPoint full;
  full.test_accuracy = full.minority_test_accuracy = 1;
  return accuracy_label_text(full, full, true);
}

QString epsilon_label_text(double rdp, double pld, const TrainingOptions& t, Index train_size) {
  if (!t.is_private) return QObject::tr("<b>Non-private: ε = ∞</b> (no clipping, no noise).");
  return QObject::tr(
             "<b>This setting: ε = %1</b> (RDP) · %2 (PLD) at δ = %3<br>for T = %4 steps of q = "
             "L/n = %5, σ = %6.")
      .arg(playground_eps_text(rdp), playground_eps_text(pld))
      .arg(t.delta, 0, 'g', 3)
      .arg(t.steps)
      .arg(t.lot_size / static_cast<double>(train_size), 0, 'g', 3)
      .arg(t.noise_multiplier);
}

QString longest_epsilon_label_text() {
  TrainingOptions t;
  t.is_private = true;
  t.delta = kWidestSmall;
  t.steps = kWidestSteps;
  t.lot_size = 1;
  t.noise_multiplier = 19.99;  // the sigma knob: 0.1 to 20 in steps of 0.01
  return epsilon_label_text(kWidestEpsilon, kWidestEpsilon, t, 3);
}

QString ledger_label_text(const LedgerCost& c, double best_accuracy, bool brief) {
  if (c.settings == 0) return QObject::tr("No setting trained on this data set yet.");
  if (brief) {
    return QObject::tr(
               "<b>You tried %1 setting%2</b>: the accuracy you see (best test %3%) cost "
               "<b>ε = %4</b>, not %5.")
        .arg(c.settings)
        .arg(c.settings == 1 ? QString() : QStringLiteral("s"))
        .arg(100 * best_accuracy, 0, 'f', 1)
        .arg(playground_eps_text(c.ma), playground_eps_text(c.current_epsilon));
  }
  return QObject::tr(
             "<b>You tried %1 setting%2</b>: the accuracy you see (best test %3%) cost "
             "<b>ε = %4</b> (MA), not %5.<br>Selecting privately among them instead would cost "
             "Liu–Talwar ε = %6, Papernot–Steinke ε = %7.%8")
      .arg(c.settings)
      .arg(c.settings == 1 ? QString() : QStringLiteral("s"))
      .arg(100 * best_accuracy, 0, 'f', 1)
      .arg(playground_eps_text(c.ma), playground_eps_text(c.current_epsilon),
           playground_eps_text(c.lt), playground_eps_text(c.ps))
      .arg(c.dominated ? QObject::tr(" <i>(Settings differ: each candidate is charged as the "
                                     "costliest σ, q, T.)</i>")
                       : QString());
}

QString longest_ledger_label_text(bool brief) {
  LedgerCost c;
  c.settings = 999;
  c.ma = c.current_epsilon = c.lt = c.ps = kWidestEpsilon;
  c.dominated = true;
  return ledger_label_text(c, 1, brief);
}

QString ledger_tooltip_text(const LedgerCost& c) {
  if (c.settings == 0) return QString();
  return QObject::tr(
             "The ε is the MA composition of the runs you saw. Selecting privately among "
             "them instead would cost Liu–Talwar ε = %1, Papernot–Steinke ε = %2.")
      .arg(playground_eps_text(c.lt), playground_eps_text(c.ps));
}

QString frame_label_text(std::int64_t steps_computed, double compute_ms, double draw_ms) {
  return QObject::tr("frame: %1 steps + field %2 ms (worker), draw %3 ms")
      .arg(steps_computed)
      .arg(compute_ms, 0, 'f', 1)
      .arg(draw_ms, 0, 'f', 1);
}

QString longest_frame_label_text() {
  return frame_label_text(kWidestSteps, kWidestMs, kWidestMs);
}

}  // namespace dplab::ui
