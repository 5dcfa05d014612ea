// Placeholder until the bench command lands (being built in this session).
#include <iostream>

#include "cli/commands.h"

namespace dplab::cli {

int run_bench(int, char**, int) {
  std::cerr << "dplab-cli bench: not available in this build\n";
  return 1;
}

}  // namespace dplab::cli
