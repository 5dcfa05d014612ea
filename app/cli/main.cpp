// dplab-cli: headless entry point. Usage errors exit with 2, run-time errors with 1.
#include <cstring>
#include <iostream>
#include <string>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/error.h"

namespace {

constexpr const char* kUsage =
    "usage: dplab-cli <command> [flags]\n"
    "commands:\n"
    "  train      train one model with a DP optimizer, write curve.csv and summary.json\n"
    "  tune       run an honest hyperparameter search from an experiment file\n"
    "  account    privacy of one run or of a search over K candidates (MA / LT)\n"
    "  calibrate  smallest noise multiplier reaching a target (epsilon, delta)\n"
    "  bench      measure DP step throughput against non-private and naive baselines\n"
    "  sparse-train  word2vec: DP-SGD vs sparse DP (EM / SVT / random selection), Figure 1 CSV\n"
    "  canary     word2vec canary memorisation audit (rank histograms, chi-square), Table 2 CSV\n"
    "run 'dplab-cli <command> --help' for the flags of a command\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::cout << kUsage;
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
  try {
    if (command == "train") return dplab::cli::run_train(argc, argv, 2);
    if (command == "tune") return dplab::cli::run_tune(argc, argv, 2);
    if (command == "account") return dplab::cli::run_account(argc, argv, 2);
    if (command == "calibrate") return dplab::cli::run_calibrate(argc, argv, 2);
    if (command == "bench") return dplab::cli::run_bench(argc, argv, 2);
    if (command == "sparse-train") return dplab::cli::run_sparse_train(argc, argv, 2);
    if (command == "canary") return dplab::cli::run_canary(argc, argv, 2);
    std::cerr << "dplab-cli: unknown command '" << command << "'\n" << kUsage;
    return 2;
  } catch (const dplab::cli::UsageError& e) {
    std::cerr << "dplab-cli " << command << ": " << e.what() << "\n";
    return 2;
  } catch (const dplab::InvalidArgument& e) {
    std::cerr << "dplab-cli " << command << ": " << e.what() << "\n";
    return 2;
  } catch (const dplab::Cancelled&) {
    std::cerr << "dplab-cli " << command << ": cancelled\n";
    return 130;
  } catch (const dplab::Error& e) {
    std::cerr << "dplab-cli " << command << ": error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "dplab-cli " << command << ": internal error: " << e.what() << "\n";
    return 1;
  }
}
