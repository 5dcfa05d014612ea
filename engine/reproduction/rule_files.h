// The verdict rules, one file per gallery item: resources/rules/<name>.md holds a rule's text
// exactly as a report prints it (one paragraph, one line, thresholds written out as numbers;
// test_rule_files checks that they agree with the constants the verdicts use). The files are
// compiled into the engine byte for byte at build time (cmake/embed_rules.cmake), so a report
// prints each rule from its file with the file's SHA-256, and a reader checks which text the
// numbers were judged by with `sha256sum resources/rules/<name>.md` (docs/reproduction.md).
// Which gallery folders each file judges: resources/rules/items.txt (test_rule_commit_order).
// Thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dplab::reproduction {

struct RuleFile {
  std::string_view name;   // "kk23": resources/rules/kk23.md
  std::string_view bytes;  // the file as it was built, byte for byte
};

// Every rule file, by name.
const std::vector<RuleFile>& rule_files();
// Throws InvalidArgument naming `name` and the rule files there are.
const RuleFile& rule_file(std::string_view name);

// "resources/rules/<name>.md".
std::string rule_path(std::string_view name);
// The file's text without its final newline (what a report prints).
std::string rule_text(std::string_view name);
// SHA-256 of the file's bytes, 64 lowercase hex digits (what `sha256sum` prints).
std::string rule_sha256(std::string_view name);

}  // namespace dplab::reproduction
