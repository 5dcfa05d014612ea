// Placeholder until the account command lands (being built in this session).
#include <iostream>

#include "cli/commands.h"

namespace dplab::cli {

int run_account(int, char**, int) {
  std::cerr << "dplab-cli account: not available in this build\n";
  return 1;
}

}  // namespace dplab::cli
