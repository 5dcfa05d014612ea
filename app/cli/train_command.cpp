// Placeholder until the train command lands (being built in this session).
#include <iostream>

#include "cli/commands.h"

namespace dplab::cli {

int run_train(int, char**, int) {
  std::cerr << "dplab-cli train: not available in this build\n";
  return 1;
}

}  // namespace dplab::cli
