// REPORT.md (see reproduction_report.h).
#include "reproduction/reproduction_report.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "reproduction/rule_files.h"

namespace dplab::reproduction {
namespace {

std::string seconds(double s) {
  char buffer[32];
  if (s >= 60) {
    const long total = std::lround(s);
    std::snprintf(buffer, sizeof buffer, "%ld min %02ld s", total / 60, total % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.1f s", s);
  }
  return buffer;
}

// A table cell: '|' escaped, newlines flattened.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

}  // namespace

const std::vector<std::string>& report_rule_names() {
  static const std::vector<std::string> names = {"verdict", "kk23",       "figure2",  "figure3",
                                                 "figure4", "figures8-9", "figure6",  "table1",
                                                 "figure5", "section52",  "followups"};
  return names;
}

std::string report_markdown(const std::vector<ItemRun>& runs, Scale scale,
                            const std::string& command_line, double total_wall_seconds) {
  std::ostringstream md;
  md << "# dplab reproduction of Mohapatra et al. 2022 and Koskela & Kulkarni 2023 ("
     << to_string(scale) << " scale)\n\n"
     << "Command: `" << command_line << "`; total wall time " << seconds(total_wall_seconds)
     << ".\n";
  if (scale != Scale::kPaper) {
    md << "\nThis run is **scaled down** (`--scale " << to_string(scale)
       << "`): fewer queries, one repeat and thinned grids (each item's line below says how), "
          "so its accuracies are not the paper's experiment; Table 1's epsilons are computed at "
          "the paper's settings whatever the scale.\n";
  }
  // Each rule from its file (rule_files.h), with the file's SHA-256.
  md << "\n## Verdict rules\n\n"
     << rule_text("verdict") << "\n\n"
     << "Rule file `" << rule_path("verdict") << "`, SHA-256 `" << rule_sha256("verdict")
     << "`; each rule below is printed from its file with the file's SHA-256 (check one with "
        "`sha256sum resources/rules/<item>.md`).\n\n";
  for (const auto& name : report_rule_names()) {
    if (name == "verdict") continue;
    md << "- " << rule_text(name) << "\n  - rule file `" << rule_path(name) << "`, SHA-256 `"
       << rule_sha256(name) << "`\n";
  }
  md << "\n## Paper vs dplab\n\n"
     << "| item | data | quantity | paper | dplab | verdict | wall time |\n"
     << "|---|---|---|---|---|---|---|\n";
  for (const auto& run : runs) {
    if (run.status != "done") {
      md << "| " << run.item << " | " << run.data << " | | | | " << cell(run.status) << " | "
         << seconds(run.wall_seconds) << " |\n";
      continue;
    }
    bool first = true;
    for (const auto& row : run.outcome.rows) {
      md << "| " << cell(row.item) << " | " << cell(row.data) << " | " << cell(row.quantity)
         << " | " << cell(row.paper) << " | " << cell(row.dplab) << " | " << cell(row.verdict)
         << " | " << (first ? seconds(run.wall_seconds) : std::string()) << " |\n";
      first = false;
    }
  }
  md << "\n## Runs\n\n";
  for (const auto& run : runs) {
    md << "- **" << run.item << ", " << run.data << "** (" << run.title << "): " << run.status;
    if (!run.scaling.empty()) md << "; " << run.scaling;
    md << "; " << seconds(run.wall_seconds) << ".";
    if (!run.cpu_time.empty()) md << " " << run.cpu_time << ".";
    for (const auto& f : run.figure_files) md << " [" << f << "](" << f << ")";
    md << "\n";
    for (const auto& note : run.outcome.notes) md << "  - " << note << "\n";
  }
  md << "\n## Figures\n\n"
     << "- Figures are vector SVG and PDF and a 144 dpi PNG, all drawn from one layout by dplab's "
        "engine (no Qt; the PNG through Cairo); the numbers behind each are in the CSV of the "
        "same name.\n";
  return md.str();
}

}  // namespace dplab::reproduction
