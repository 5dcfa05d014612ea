#include "cli/interrupt.h"

#include <csignal>
#include <iterator>

namespace dplab::cli {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{0};
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGUSR1};
struct sigaction g_previous[std::size(kSignals)]{};

extern "C" void on_interrupt(int signal) {
  if (g_interrupted.exchange(true)) {  // the second signal: the default action (kill)
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  g_signal.store(signal);
}

}  // namespace

InterruptScope::InterruptScope() {
  g_interrupted.store(false);
  g_signal.store(0);
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < std::size(kSignals); ++i)
    sigaction(kSignals[i], &action, &g_previous[i]);
}

InterruptScope::~InterruptScope() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i)
    sigaction(kSignals[i], &g_previous[i], nullptr);
}

const std::atomic<bool>* InterruptScope::flag() const {
  return &g_interrupted;
}

bool InterruptScope::interrupted() const {
  return g_interrupted.load();
}

int InterruptScope::signal() const {
  return g_signal.load();
}

int InterruptScope::exit_status() const {
  return interrupt_exit_status(signal());
}

std::string InterruptScope::what_happened() const {
  return interrupt_description(signal());
}

int interrupt_exit_status(int signal) {
  return 128 + (signal == SIGTERM || signal == SIGUSR1 ? signal : SIGINT);
}

std::string interrupt_description(int signal) {
  if (signal == SIGTERM) return "terminated";
  if (signal == SIGUSR1) return "terminated by SIGUSR1";
  return "cancelled";
}

}  // namespace dplab::cli
