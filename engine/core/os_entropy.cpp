#include "core/os_entropy.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/error.h"

namespace dplab {

void os_random_bytes(void* buffer, std::size_t size) {
  auto* out = static_cast<unsigned char*>(buffer);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = getrandom(out + done, size - done, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("secure mode: getrandom failed: ") + std::strerror(errno));
    }
    done += static_cast<std::size_t>(got);
  }
}

std::uint64_t os_random_u64() {
  std::uint64_t value = 0;
  os_random_bytes(&value, sizeof value);
  return value;
}

}  // namespace dplab
