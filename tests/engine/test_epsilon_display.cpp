// engine/privacy/accounting/epsilon_display.h: a displayed epsilon is rounded UP, never to nearest,
// so the printed number is itself a valid guarantee; exact decimals stay as they are.
#include <QTest>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"
#include "core/random.h"
#include "privacy/accounting/epsilon_display.h"
#include "support/test_registry.h"

using namespace dplab::privacy;

class TestEpsilonDisplay : public QObject {
  Q_OBJECT
 private slots:
  void rounds_up_not_to_nearest() {
    QCOMPARE(format_epsilon_up(1.2301), std::string("1.24"));
    QCOMPARE(format_epsilon_up(1.2349), std::string("1.24"));  // nearest would print 1.23
    QCOMPARE(format_epsilon_up(3.2804920, 2), std::string("3.29"));
    QCOMPARE(format_epsilon_up(3.2804920, 3), std::string("3.281"));
    QCOMPARE(format_epsilon_up(0.0), std::string("0.00"));
    QCOMPARE(format_epsilon_up(7.9999999, 0), std::string("8"));
  }

  void exact_decimals_stay() {
    QCOMPARE(format_epsilon_up(1.23), std::string("1.23"));  // 1.23 * 100 is a hair above 123
    QCOMPARE(format_epsilon_up(0.1, 1), std::string("0.1"));
    QCOMPARE(format_epsilon_up(2.0), std::string("2.00"));
  }

  void never_below_the_value() {
    dplab::Rng rng(3);
    for (int i = 0; i < 100'000; ++i) {
      const double eps = std::ldexp(rng.uniform(), static_cast<int>(rng.below(20)) - 10);
      for (int digits : {0, 2, 4}) {
        const double shown = std::stod(format_epsilon_up(eps, digits));
        QVERIFY(shown >= eps);
        QVERIFY(shown - eps < std::pow(10.0, -digits) * (1 + 1e-9));
        QCOMPARE(round_epsilon_up(eps, digits), shown);
      }
    }
  }

  void non_finite_and_bad_digits() {
    QCOMPARE(format_epsilon_up(std::numeric_limits<double>::infinity()), std::string("inf"));
    QCOMPARE(format_epsilon_up(std::nan("")), std::string("nan"));
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, format_epsilon_up(1.0, 13));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestEpsilonDisplay)
#include "test_epsilon_display.moc"
