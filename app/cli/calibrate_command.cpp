// Placeholder until the calibrate command lands (being built in this session).
#include <iostream>

#include "cli/commands.h"

namespace dplab::cli {

int run_calibrate(int, char**, int) {
  std::cerr << "dplab-cli calibrate: not available in this build\n";
  return 1;
}

}  // namespace dplab::cli
