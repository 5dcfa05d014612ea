#include "python/background_run.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include <pybind11/pybind11.h>

namespace dplab::python {

namespace py = pybind11;

void run_in_background(const std::function<void()>& work, const std::function<void()>& poll,
                       const std::function<void()>& cancel) {
  std::mutex mutex;
  std::condition_variable ended;
  bool done = false;
  std::exception_ptr failure;
  std::thread worker;
  {
    py::gil_scoped_release no_gil;
    worker = std::thread([&] {
      try {
        work();
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
      ended.notify_all();
    });
  }
  auto join = [&] {
    py::gil_scoped_release no_gil;
    worker.join();
  };
  while (true) {
    bool finished = false;
    {
      py::gil_scoped_release no_gil;
      std::unique_lock<std::mutex> lock(mutex);
      ended.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; });
      finished = done;
    }
    try {
      poll();  // the callback's news, also after the work ended
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    } catch (...) {
      cancel();
      join();
      throw;
    }
    if (finished) break;
  }
  join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace dplab::python
