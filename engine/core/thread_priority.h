// Background priority for worker threads, so that an interactive thread (the GUI's) gets a core
// at once even when every core computes: nice +10 for the CALLING thread only (on Linux,
// setpriority with a thread id acts per thread). Idempotent; failures are harmless (the thread
// simply keeps its priority); a no-op elsewhere.
#pragma once

namespace dplab {

void lower_this_thread_priority();

}  // namespace dplab
