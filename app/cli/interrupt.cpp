#include "cli/interrupt.h"

#include <csignal>

namespace dplab::cli {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{0};
struct sigaction g_previous_int {};
struct sigaction g_previous_term {};

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
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

const std::atomic<bool>* InterruptScope::flag() const {
  return &g_interrupted;
}

bool InterruptScope::interrupted() const {
  return g_interrupted.load();
}

int InterruptScope::exit_status() const {
  return g_signal.load() == SIGTERM ? 143 : 130;
}

std::string InterruptScope::what_happened() const {
  return g_signal.load() == SIGTERM ? "terminated" : "cancelled";
}

}  // namespace dplab::cli
