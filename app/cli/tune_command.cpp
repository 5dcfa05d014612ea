// Placeholder until the tune command lands (being built in this session).
#include <iostream>

#include "cli/commands.h"

namespace dplab::cli {

int run_tune(int, char**, int) {
  std::cerr << "dplab-cli tune: not available in this build\n";
  return 1;
}

}  // namespace dplab::cli
