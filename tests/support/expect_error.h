// The message of an expected exception, for tests that check what an error says:
//   const QString message = error_of<ParseError>([&] { load_libsvm(path); });
//   QVERIFY2(message.contains("file.svm:2:"), qPrintable(message));
#pragma once

#include <QString>

namespace dplab::testing {

// what() of the E that f throws, or "<no exception>" when f returns normally (so a check on the
// message fails and prints that). Exceptions of other types propagate.
template <class E, class F>
QString error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return QString::fromStdString(e.what());
  }
  return QStringLiteral("<no exception>");
}

}  // namespace dplab::testing
