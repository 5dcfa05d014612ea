#include "cli/audit_output.h"

#include <cmath>
#include <iostream>
#include <sstream>

#include "audit/fdp_one_run_bound.h"
#include "core/error.h"
#include "core/number_text.h"
#include "core/validate.h"

namespace dplab::cli {

std::string audit_fixed(double value, int digits) {
  if (std::isinf(value)) return "inf";
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << value;
  return s.str();
}

void print_audit_bound(const char* what, const audit::AuditBound& b) {
  std::cout << "    " << what << ": eps >= " << audit_fixed(b.epsilon_lower_bound)
            << "  (pure-DP bound " << audit_fixed(b.pure_epsilon_lower_bound)
            << "; m = " << b.counts.canaries << ", r = " << b.counts.guesses
            << ", v = " << b.counts.correct << ", k+ = " << b.guess_set.top_in
            << ", k- = " << b.guess_set.bottom_out << "; ceiling " << audit_fixed(b.ceiling)
            << ")\n";
  if (b.fdp) {
    const audit::FdpAuditBound& f = *b.fdp;
    std::cout << "      " << audit::kFdpAssumption
              << ": eps >= " << audit_fixed(f.epsilon_lower_bound)
              << "  (same guess sets and split; r = " << f.counts.guesses
              << ", v = " << f.counts.correct << ", k+ = " << f.guess_set.top_in
              << ", k- = " << f.guess_set.bottom_out << "; ceiling " << audit_fixed(f.ceiling)
              << ")\n";
  }
}

const std::vector<std::string>& bound_csv_columns() {
  static const std::vector<std::string> columns = {"canaries",
                                                   "included",
                                                   "k_plus",
                                                   "k_minus",
                                                   "guesses",
                                                   "correct",
                                                   "guess_sets",
                                                   "confidence",
                                                   "delta",
                                                   "epsilon_lower_bound",
                                                   "pure_epsilon_lower_bound",
                                                   "ceiling"};
  return columns;
}

std::vector<std::string> bound_csv_cells(const audit::AuditBound& b, int included,
                                         double confidence, double delta) {
  return {std::to_string(b.counts.canaries),
          std::to_string(included),
          std::to_string(b.guess_set.top_in),
          std::to_string(b.guess_set.bottom_out),
          std::to_string(b.counts.guesses),
          std::to_string(b.counts.correct),
          std::to_string(b.sets_tried),
          number_text(confidence),
          number_text(delta),
          number_text(b.epsilon_lower_bound),
          number_text(b.pure_epsilon_lower_bound),
          number_text(b.ceiling)};
}

}  // namespace dplab::cli
