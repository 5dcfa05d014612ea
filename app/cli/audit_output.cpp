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

void add_audit_option_flags(CLI::App& command, Arguments& args) {
  const audit::OneRunAuditOptions defaults;  // the engine's, which read_audit_options uses
  add_value(command, args, "canaries",
            "canaries m, each included with probability 1/2 (default " +
                std::to_string(defaults.canaries) + ")",
            "M");
  add_value(command, args, "mode",
            "whitebox (gradient canaries, all iterates and final model) or blackbox (labelled "
            "canary examples, -loss on the final model) (default " +
                std::string(audit::to_string(defaults.mode)) + ")",
            "blackbox|whitebox");
  add_value(command, args, "whitebox-canaries",
            "white-box canary directions: reserved (Dirac canaries on coordinates the model never "
            "reads) or random (random unit directions in the model's parameters) (default " +
                std::string(audit::to_string(defaults.whitebox_canaries)) + ")",
            "reserved|random");
  add_value(command, args, "blackbox-canaries",
            "black-box canaries: mislabelled (held-out rows with a wrong label) or crafted "
            "(out-of-domain inputs on extra features the data never sets; logistic and tlnn) "
            "(default " +
                std::string(audit::to_string(defaults.blackbox_canaries)) + ")",
            "mislabelled|crafted");
  add_value(
      command, args, "confidence",
      "confidence 1 - beta of the lower bound (default " + format_number(defaults.confidence) + ")",
      "P");
  add_value(command, args, "audit-seed", "seed of the canaries (default --seed + 1)", "N");
}

audit::OneRunAuditOptions read_audit_options(const Arguments& args, std::uint64_t default_seed) {
  audit::OneRunAuditOptions options;
  const int canaries = args.int_or("canaries", options.canaries);
  if (canaries < 2) throw UsageError("--canaries must be >= 2, got " + std::to_string(canaries));
  options.canaries = canaries;
  try {
    if (auto mode = args.text("mode")) options.mode = audit::parse_audit_mode(*mode);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("--mode: ") + e.what());
  }
  try {
    if (auto kind = args.text("whitebox-canaries"))
      options.whitebox_canaries = audit::parse_whitebox_canaries(*kind);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("--whitebox-canaries: ") + e.what());
  }
  try {
    if (auto kind = args.text("blackbox-canaries"))
      options.blackbox_canaries = audit::parse_blackbox_canaries(*kind);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("--blackbox-canaries: ") + e.what());
  }
  options.confidence = args.number_or("confidence", options.confidence);
  if (!(options.confidence > 0 && options.confidence < 1))
    throw UsageError("--confidence must be strictly between 0 and 1");
  options.seed = args.seed_or("audit-seed", default_seed);
  return options;
}

}  // namespace dplab::cli
