// The main() of an area's test runner (tests/CMakeLists.txt): `runner test_foo [QTest options]`
// runs the one suite registered as test_foo (support/test_registry.h) as QTEST_MAIN & co. do in
// an executable of its own: the class's initMain(), the application object, the test object,
// QTest::qExec with the remaining arguments. argv[0] is renamed to the suite's name so that the
// application name (QSettings, QStandardPaths) stays what it was when each suite had its own
// executable. CTest starts one process per suite, so no state is shared between suites.
#if defined(QT_WIDGETS_LIB)
#include <QApplication>
#elif defined(QT_GUI_LIB)
#include <QGuiApplication>
#endif
#include <QCoreApplication>
#include <QTest>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "support/test_registry.h"

namespace dplab::testing {
namespace {

std::map<std::string, RegisteredSuite>& registry() {
  static std::map<std::string, RegisteredSuite> suites;
  return suites;
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const auto dot = name.find('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

int run_test_object(const RegisteredSuite& suite, int argc, char** argv) {
  const std::unique_ptr<QObject> test_object = suite.make();
#ifdef QT_TESTCASE_BUILDDIR
  QTest::setMainSourcePath(suite.source_file, QT_TESTCASE_BUILDDIR);
#else
  QTest::setMainSourcePath(suite.source_file);
#endif
  return QTest::qExec(test_object.get(), argc, argv);
}

// QTEST_MAIN_WRAPPER's body, with the application object of the suite's macro.
int run_suite(const RegisteredSuite& suite, int argc, char** argv) {
  suite.init_main();
  switch (suite.application) {
    case TestApplication::None:
      return run_test_object(suite, argc, argv);
    case TestApplication::Core: {
      QTEST_QAPP_SETUP(QCoreApplication)
      return run_test_object(suite, argc, argv);
    }
    case TestApplication::Default: {
      QTEST_MAIN_SETUP()
      return run_test_object(suite, argc, argv);
    }
  }
  return 1;
}

int usage(const char* runner) {
  std::fprintf(stderr, "usage: %s SUITE [QTest options]\nsuites:", runner);
  for (const auto& entry : registry()) std::fprintf(stderr, " %s", entry.first.c_str());
  std::fprintf(stderr, "\n");
  return 2;
}

}  // namespace

bool register_suite(const RegisteredSuite& suite) {
  const std::string name = base_name(suite.source_file);
  if (!registry().emplace(name, suite).second) {
    std::fprintf(stderr, "two test suites are registered as %s\n", name.c_str());
    std::abort();
  }
  return true;
}

}  // namespace dplab::testing

int main(int argc, char* argv[]) {
  using namespace dplab::testing;
  if (argc < 2) return usage(argv[0]);
  const auto found = registry().find(argv[1]);
  if (found == registry().end()) {
    std::fprintf(stderr, "no test suite named %s\n", argv[1]);
    return usage(argv[0]);
  }
  // The suite's own argv: its name in place of the runner's, then the QTest options.
  std::string runner_path = argv[0];
  const auto slash = runner_path.find_last_of('/');
  std::string suite_path =
      (slash == std::string::npos ? std::string() : runner_path.substr(0, slash + 1)) + argv[1];
  std::vector<char*> suite_argv;
  suite_argv.push_back(suite_path.data());
  for (int i = 2; i < argc; ++i) suite_argv.push_back(argv[i]);
  suite_argv.push_back(nullptr);
  return run_suite(found->second, argc - 1, suite_argv.data());
}
