// REPORT.md of `dplab-cli reproduce`: one "paper vs dplab" table over every item and data
// version that ran (with verdicts and wall times), the items that were skipped, failed or
// interrupted, how each run was scaled, the figures written, and the verdict rules, each printed
// from its file in resources/rules/ with the file's SHA-256 (rule_files.h). Written after every
// item, so an interrupted run keeps what finished.
#pragma once

#include <string>
#include <vector>

#include "reproduction/item_outcome.h"

namespace dplab::reproduction {

struct ItemRun {
  std::string item;    // "figure4"
  std::string title;   // the item's title
  std::string data;    // "Adult"
  std::string status;  // "done", or why not: "skipped: ...", "failed: ...", "interrupted"
  double wall_seconds = 0;
  std::string cpu_time;                   // tuning::describe(search_efficiency) of its search
  std::string scaling;                    // describe_scaling()
  std::vector<std::string> figure_files;  // relative to the output folder
  ItemOutcome outcome;
};

// The rule files REPORT.md prints, in its order ("verdict", the one rule, first).
const std::vector<std::string>& report_rule_names();

std::string report_markdown(const std::vector<ItemRun>& runs, Scale scale,
                            const std::string& command_line, double total_wall_seconds);

}  // namespace dplab::reproduction
