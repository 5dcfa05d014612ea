// Long engine work (training, a search) from Python: the work runs on a worker thread with the
// GIL released, while the calling thread wakes every 50 ms, takes the GIL, lets `poll` hand news
// to the user's progress callback, and checks for signals (PyErr_CheckSignals: Ctrl-C raises
// KeyboardInterrupt there, as in any Python loop). A Python exception from either - Ctrl-C, or an
// exception raised by the callback - calls `cancel` (the engine stops within one optimizer
// step), waits for the worker to end cleanly, and is raised to the caller. An engine exception
// of the work is raised after the worker ended (dplab.Error). The worker never touches Python.
#pragma once

#include <functional>

namespace dplab::python {

void run_in_background(const std::function<void()>& work, const std::function<void()>& poll,
                       const std::function<void()>& cancel);

}  // namespace dplab::python
