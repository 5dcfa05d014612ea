// BackgroundTask<Result>: computes a Result on a worker std::thread and hands it back on the
// owner's (GUI) thread, so that a view never blocks the GUI thread on the engine. A request made
// while one is computing is kept (only the latest) and started when the running one ends; the
// running one's result is then dropped as stale. The destructor waits for a running computation.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QString>
#include <exception>
#include <functional>
#include <optional>
#include <thread>
#include <utility>

namespace dplab::ui {

template <class Result>
class BackgroundTask {
 public:
  using Compute = std::function<Result()>;
  using Done = std::function<void(const Result& result, const QString& error)>;

  explicit BackgroundTask(QObject* owner) : owner_(owner) {}
  ~BackgroundTask() {
    if (worker_.joinable()) worker_.join();
  }
  BackgroundTask(const BackgroundTask&) = delete;
  BackgroundTask& operator=(const BackgroundTask&) = delete;

  void request(Compute compute, Done done) {
    if (worker_.joinable()) {
      pending_.emplace(std::move(compute), std::move(done));
      return;
    }
    start(std::move(compute), std::move(done));
  }
  bool busy() const { return worker_.joinable(); }
  int completed() const { return completed_; }

 private:
  void start(Compute compute, Done done) {
    worker_ = std::thread([this, compute = std::move(compute), done = std::move(done)] {
      std::optional<Result> result;
      QString error;
      try {
        result = compute();
      } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
      }
      QMetaObject::invokeMethod(
          owner_,
          [this, result = std::move(result), error, done] {
            if (worker_.joinable()) worker_.join();  // posting was the worker's last act
            if (pending_) {
              auto next = std::move(*pending_);
              pending_.reset();
              start(std::move(next.first), std::move(next.second));
              return;  // stale: a newer request is computing
            }
            ++completed_;
            done(result ? *result : Result{}, error);
          },
          Qt::QueuedConnection);
    });
  }

  QObject* owner_;
  std::thread worker_;
  std::optional<std::pair<Compute, Done>> pending_;
  int completed_ = 0;
};

}  // namespace dplab::ui
