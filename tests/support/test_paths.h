// Where the suites find the source tree's data and the dplab-cli binary. CTest passes both at run
// time (tests/CMakeLists.txt sets DPLAB_SOURCE_DIR and DPLAB_CLI in each test's ENVIRONMENT), so
// no absolute path is compiled into a test object and a fresh clone hits ccache. A suite started
// by hand outside CTest needs the same two variables; without them it stops with this message.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace dplab::testing {

inline std::string required_environment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0')
    throw std::runtime_error(std::string(name) +
                             " is not set: run the suite through ctest, or set it by hand "
                             "(DPLAB_SOURCE_DIR = the checkout, DPLAB_CLI = the dplab-cli binary)");
  return value;
}

// The checkout's root folder.
inline std::string source_dir() {
  return required_environment("DPLAB_SOURCE_DIR");
}
// tests/data: small files the suites read.
inline std::string test_data_dir() {
  return source_dir() + "/tests/data";
}
// datasets/: the shipped data sets (Adult).
inline std::string datasets_dir() {
  return source_dir() + "/datasets";
}
// resources/presets: the shipped experiment presets.
inline std::string presets_dir() {
  return source_dir() + "/resources/presets";
}
// The dplab-cli binary the CLI suites run.
inline std::string cli_path() {
  return required_environment("DPLAB_CLI");
}

}  // namespace dplab::testing
