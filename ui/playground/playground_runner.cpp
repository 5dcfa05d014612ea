#include "playground/playground_runner.h"

#include <algorithm>
#include <chrono>

#include "core/thread_priority.h"

namespace dplab::ui {

using playground::PlaygroundSession;
using playground::PlaygroundSettings;

struct PlaygroundRunner::Sessions {
  std::unique_ptr<PlaygroundSession> run, shadow;
};

namespace {

// Same trained run: everything equal but delta.
bool same_run(const PlaygroundSettings& a, const PlaygroundSettings& b) {
  PlaygroundSettings copy = a;
  copy.training.delta = b.training.delta;
  return copy == b;
}

}  // namespace

PlaygroundRunner::PlaygroundRunner(QObject* parent)
    : QObject(parent), sessions_(std::make_unique<Sessions>()) {
  task_ =
      std::make_unique<LatestOnlyTask<PlaygroundQuery, std::shared_ptr<const PlaygroundSnapshot>>>(
          this, [this](const PlaygroundQuery& q) { return compute(q); },
          [this](int sequence, const std::shared_ptr<const PlaygroundSnapshot>& s) {
            emit snapshotReady(sequence, s);
          },
          [this](int, const QString& error) { emit failed(error); });
}

PlaygroundRunner::~PlaygroundRunner() {
  task_.reset();
}  // joins the worker before sessions_ go

int PlaygroundRunner::submit(const PlaygroundQuery& query) {
  return task_->submit(query);
}

bool PlaygroundRunner::busy() const {
  return task_->busy();
}

std::shared_ptr<const PlaygroundSnapshot> PlaygroundRunner::compute(const PlaygroundQuery& q) {
  // The GUI thread keeps a core while this worker trains (core/thread_priority.h): on a
  // 2-core machine the training, epsilon and study workers would otherwise share it with the
  // GUI thread and delay every frame the student sees.
  lower_this_thread_priority();
  const auto start = std::chrono::steady_clock::now();
  Sessions& s = *sessions_;
  if (!s.run || !same_run(s.run->settings(), q.settings) || q.target_steps < s.run->steps_taken()) {
    // The same data options keep the same data object (generated once, deterministic in the
    // options): a knob such as sigma then costs no data generation here, and the GUI, which
    // compares data by pointer, does not redraw the plane's 1,000 points (~5 ms) for every step
    // of the knob.
    std::shared_ptr<const playground::PlaygroundData> data;
    if (s.run && s.run->data()->options == q.settings.data) data = s.run->data();
    s.run.reset();
    s.shadow.reset();
    s.run = data ? std::make_unique<PlaygroundSession>(q.settings, data)
                 : std::make_unique<PlaygroundSession>(q.settings);
    s.shadow = std::make_unique<PlaygroundSession>(playground::non_private_shadow(q.settings),
                                                   s.run->data());
    s.shadow->set_explain(false);  // only the private run's step is drawn
  }
  const int d = static_cast<int>(s.run->num_params());
  s.run->set_projection(std::clamp(q.projection_a, 0, d - 1), std::clamp(q.projection_b, 0, d - 1));
  const std::int64_t before = s.run->steps_taken();
  s.run->step(q.target_steps - s.run->steps_taken());
  s.shadow->step(q.target_steps - s.shadow->steps_taken());
  auto snap = std::make_shared<PlaygroundSnapshot>();
  snap->settings = q.settings;
  snap->data = s.run->data();
  snap->steps = s.run->steps_taken();
  snap->finished = s.run->finished();
  snap->parameters = s.run->parameters();
  snap->parameter_names = s.run->parameter_names();
  snap->history = s.run->history();
  snap->shadow_history = s.shadow->history();
  snap->picture = s.run->picture();
  snap->field = s.run->decision_field(q.field_resolution);
  snap->boundary = playground::decision_boundary(snap->field);
  if (q.settings.training.is_private) {
    snap->shadow_boundary =
        playground::decision_boundary(s.shadow->decision_field(q.field_resolution));
  }
  if (q.settings.training.is_private && snap->steps > 0)
    snap->epsilon_spent = s.run->epsilon_spent(privacy::Accountant::kRdp);
  snap->steps_computed = snap->steps - before;
  snap->compute_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return snap;
}

}  // namespace dplab::ui
