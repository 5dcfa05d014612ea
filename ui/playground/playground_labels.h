// The texts of the Playground's live labels (issue #27), one function per label, each with the
// longest text it can produce: the window's SteadyLabels (steady_label.h) reserve the height of
// that longest text, so a new frame's text never moves the layout. Every epsilon here comes from
// the engine (setting_epsilon, the ledger's release_cost), rounded up for display.
#pragma once

#include <QString>
#include <cstdint>
#include <optional>

#include "playground/playground_ledger.h"
#include "playground/playground_session.h"

namespace dplab::ui {

// Epsilon rounded up, as every Playground label prints it.
QString playground_eps_text(double epsilon);

// "step 40 / 200 · ε spent so far 4.43" (the RDP epsilon of the steps taken, when private).
QString step_label_text(std::int64_t steps, std::int64_t total, std::optional<double> spent);
QString longest_step_label_text();

// The last lot: its size, the fraction clipped and the signal-to-noise ratio (and C_t when
// adaptive); empty before the first step.
QString clip_label_text(const playground::StepPicture& picture,
                        const playground::TrainingOptions& training);
QString longest_clip_label_text();

// Test accuracy of the private run and of its non-private shadow (and of the minority cluster).
QString accuracy_label_text(const playground::HistoryPoint& dp,
                            const playground::HistoryPoint& non_private, bool minority);
QString longest_accuracy_label_text();

// The current setting's epsilon (RDP and PLD) and what it covers.
QString epsilon_label_text(double rdp, double pld, const playground::TrainingOptions& training,
                           Index train_size);
QString longest_epsilon_label_text();

// The ledger: the honest epsilon of the settings tried.
// `brief` (the projector font): only what the runs seen cost; what a private selection among them
// would have cost (Liu–Talwar, Papernot–Steinke) goes into the tooltip instead.
QString ledger_label_text(const playground::LedgerCost& cost, double best_accuracy,
                          bool brief = false);
QString longest_ledger_label_text(bool brief = false);
QString ledger_tooltip_text(const playground::LedgerCost& cost);

// The frame's cost: the worker's steps and field, this thread's redraw.
QString frame_label_text(std::int64_t steps_computed, double compute_ms, double draw_ms);
QString longest_frame_label_text();

}  // namespace dplab::ui
