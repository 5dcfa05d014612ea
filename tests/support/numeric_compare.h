// Tolerance helpers for Qt Test: QCOMPARE on doubles is fuzzy in an unstated way, so numeric
// tests state their tolerance and print 17 significant digits on failure.
#pragma once

#include <QTest>
#include <cmath>
#include <cstdio>
#include <string>

namespace dplab::testing {

inline std::string describe_mismatch(const char* what, double actual, double expected,
                                     double tolerance, const char* kind) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer,
                "%s: actual %.17g, expected %.17g (%s tolerance %.3g, error %.3g)", what, actual,
                expected, kind, tolerance,
                std::abs(actual - expected) /
                    (std::string(kind) == "relative" ? std::max(std::abs(expected), 1e-300) : 1.0));
  return buffer;
}

inline bool close_relative(double actual, double expected, double tolerance) {
  return std::isfinite(actual) &&
         std::abs(actual - expected) <= tolerance * std::max(std::abs(expected), 1e-300);
}

}  // namespace dplab::testing

// |actual - expected| <= rel * |expected|, with a 17-digit message on failure.
#define DPLAB_COMPARE_REL(actual, expected, rel)                                                \
  do {                                                                                          \
    const double dplab_a_ = (actual), dplab_e_ = (expected);                                    \
    if (!::dplab::testing::close_relative(dplab_a_, dplab_e_, (rel)))                           \
      QFAIL(::dplab::testing::describe_mismatch(#actual, dplab_a_, dplab_e_, (rel), "relative") \
                .c_str());                                                                      \
  } while (0)

// |actual - expected| <= abs, with a 17-digit message on failure.
#define DPLAB_COMPARE_ABS(actual, expected, tol)                                                \
  do {                                                                                          \
    const double dplab_a_ = (actual), dplab_e_ = (expected);                                    \
    if (!(std::isfinite(dplab_a_) && std::abs(dplab_a_ - dplab_e_) <= (tol)))                   \
      QFAIL(::dplab::testing::describe_mismatch(#actual, dplab_a_, dplab_e_, (tol), "absolute") \
                .c_str());                                                                      \
  } while (0)
