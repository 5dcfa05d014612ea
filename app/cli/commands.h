// The dplab-cli commands. Each takes the arguments after the command name and returns the exit
// status (0 ok, 1 failure at run time, 2 bad usage). Each lives in its own *_command.cpp.
#pragma once

namespace dplab::cli {

int run_train(int argc, char** argv, int first);
int run_bench(int argc, char** argv, int first);
int run_account(int argc, char** argv, int first);
int run_calibrate(int argc, char** argv, int first);
int run_tune(int argc, char** argv, int first);
int run_sparse_train(int argc, char** argv, int first);
int run_canary(int argc, char** argv, int first);

}  // namespace dplab::cli
