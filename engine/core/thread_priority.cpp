#include "core/thread_priority.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace dplab {

void lower_this_thread_priority() {
#ifdef __linux__
  constexpr int kBackgroundNice = 10;
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  if (getpriority(PRIO_PROCESS, tid) < kBackgroundNice)
    setpriority(PRIO_PROCESS, tid, kBackgroundNice);
#endif
}

}  // namespace dplab
