// The one reader of typed number lists (core/number_list.h) behind the GUI's ε fields: sorted,
// duplicates removed, blank entries skipped; a bad entry or an empty list is refused naming the
// field and the entry.
#include <QTest>

#include <string>
#include <vector>

#include "core/error.h"
#include "core/number_list.h"
#include "support/expect_error.h"
#include "support/test_registry.h"

using namespace dplab;
using dplab::testing::error_of;

class TestNumberList : public QObject {
  Q_OBJECT

 private slots:
  void readsSortsAndDeduplicates() {
    QCOMPARE(parse_positive_list(" 8, 0.5 ,4,,8 ", "ε values"), (std::vector<double>{0.5, 4, 8}));
    QCOMPARE(parse_positive_list("1e-3", "ε values"), (std::vector<double>{1e-3}));
  }

  void badEntriesNameTheFieldAndTheEntry() {
    for (const char* text : {"0.5, abc", "2, 0", "2, -1", "2, inf", "2, nan", "2, 3x"}) {
      const QString message =
          error_of<InvalidArgument>([&] { parse_positive_list(text, "target ε values"); });
      QVERIFY2(message.startsWith(QString::fromUtf8("target ε values: \"")), qPrintable(message));
      QVERIFY2(message.contains("is not a number > 0"), qPrintable(message));
    }
    QVERIFY(error_of<InvalidArgument>([] { parse_positive_list("1, abc", "x"); }).contains("abc"));
  }

  void anEmptyListIsRefused() {
    for (const char* text : {"", " , ,", "   "}) {
      QCOMPARE(error_of<InvalidArgument>([&] { parse_positive_list(text, "ε values"); }),
               QString::fromUtf8("ε values: give at least one number > 0"));
    }
  }

  void aHugeEntryIsCutInTheMessage() {
    const std::string huge = "1, " + std::string(100000, 'z');
    QVERIFY(error_of<InvalidArgument>([&] { parse_positive_list(huge, "ε values"); }).size() < 200);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestNumberList)
#include "test_number_list.moc"
