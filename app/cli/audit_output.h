// What `dplab-cli audit` shares between its two audits: the one-run audit of a training run
// (audit_command.cpp) and the audit of a tuning release (audit_tuning.cpp): the canary flags,
// how a bound is printed, and the numbers' format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "audit/one_run_audit.h"
#include "cli/arguments.h"

namespace dplab::cli {

// A number with `digits` decimals, "inf" for infinity.
std::string audit_fixed(double value, int digits = 3);

// "    WHAT: eps >= ... (pure-DP bound ...; m, r, v, k+, k-; ceiling ...)" and the f-DP line.
void print_audit_bound(const char* what, const audit::AuditBound& bound);

// The columns of a bound in audit.csv and tuning_audit.csv: canaries, included, k_plus, k_minus,
// guesses, correct, guess_sets, confidence, delta, epsilon_lower_bound, pure_epsilon_lower_bound,
// ceiling; and a bound's cells in that order (`included`: the canaries included).
const std::vector<std::string>& bound_csv_columns();
std::vector<std::string> bound_csv_cells(const audit::AuditBound& bound, int included,
                                         double confidence, double delta);

// --canaries, --mode, --whitebox-canaries, --blackbox-canaries, --confidence.
void add_audit_option_flags(CLI::App& command, Arguments& args);

// Those flags (and --audit-seed, default `default_seed`) over the engine's defaults; UsageError
// naming the flag.
audit::OneRunAuditOptions read_audit_options(const Arguments& args, std::uint64_t default_seed);

// The flags of the audit of a tuning release (audit_flags.cpp): --release and the other release
// flags of `tune`, --threads, --show-curator.
void add_tuning_audit_flags(CLI::App& command, Arguments& args);
// Without --release: UsageError for a flag only the tuning-release audit takes.
void refuse_tuning_audit_flags(const Arguments& args);
// `audit --config EXPERIMENT --release private|private-subsampled ...`; the exit status.
int run_tuning_audit(const Arguments& args);

}  // namespace dplab::cli
