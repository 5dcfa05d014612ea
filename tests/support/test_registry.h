// One Qt Test runner per area (tests/CMakeLists.txt): instead of a main() of its own
// (QTEST_MAIN), a suite registers its test class under its file's name (test_foo.cpp ->
// "test_foo"), and support/test_runner_main.cpp runs the suite named by its first argument exactly
// as the QTest macro of the same name would in an executable of its own:
//   DPLAB_TEST_MAIN(TestFoo)          = QTEST_MAIN(TestFoo): QApplication in the UI runner,
//                                       QCoreApplication in the engine and CLI runners (no Qt Gui)
//   DPLAB_TEST_GUILESS_MAIN(TestFoo)  = QTEST_GUILESS_MAIN(TestFoo): a QCoreApplication
//   DPLAB_TEST_APPLESS_MAIN(TestFoo)  = QTEST_APPLESS_MAIN(TestFoo): no application object
// Keep `#include "test_foo.moc"` after it. A file that still ends in QTEST_*MAIN builds into an
// executable of its own, so both spellings work; replacing QTEST_ by DPLAB_TEST_ (and re-running
// cmake) moves a suite into its area's runner.
#pragma once

#include <QObject>
#include <QTest>

#include <memory>

namespace dplab::testing {

// Which application object the suite's process creates before the test object.
enum class TestApplication { None, Core, Default };

struct RegisteredSuite {
  TestApplication application;
  const char* source_file;  // __FILE__ of the suite, for QTest::setMainSourcePath
  void (*init_main)();      // the class's static initMain(), if it has one (as QTEST_MAIN)
  std::unique_ptr<QObject> (*make)();
};

// Registers the suite under the base name of source_file; returns true (for a static
// initializer). Two suites with the same name stop the runner with a message.
bool register_suite(const RegisteredSuite& suite);

}  // namespace dplab::testing

#define DPLAB_TEST_REGISTER_(TestObject, application_kind)                            \
  namespace {                                                                         \
  const bool dplab_test_suite_registered_ = ::dplab::testing::register_suite(         \
      {application_kind, __FILE__,                                                    \
       [] { QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>(); },     \
       []() -> std::unique_ptr<QObject> { return std::make_unique<TestObject>(); }}); \
  }

#define DPLAB_TEST_MAIN(TestObject) \
  DPLAB_TEST_REGISTER_(TestObject, ::dplab::testing::TestApplication::Default)
#define DPLAB_TEST_GUILESS_MAIN(TestObject) \
  DPLAB_TEST_REGISTER_(TestObject, ::dplab::testing::TestApplication::Core)
#define DPLAB_TEST_APPLESS_MAIN(TestObject) \
  DPLAB_TEST_REGISTER_(TestObject, ::dplab::testing::TestApplication::None)
