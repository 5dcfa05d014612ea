// REPORT.md (see reproduction_report.h).
#include "reproduction/reproduction_report.h"

#include <cmath>
#include <cstdio>
#include <sstream>

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
  md << "\n## Verdict rules\n\n"
     << "Every verdict is one of three words, by one rule (reproduction/verdict.h): a claim is "
        "split before the run into its halves, each with a threshold; **reproduced** when every "
        "half holds, **partly** when some hold (the failing halves are named), **not** when none "
        "does; each half's margin is printed beside it.\n\n"
     << "- kk23 (Koskela & Kulkarni 2023): for every KK23 point inside Papernot-Steinke's eps "
        "range, PS's mean accuracy interpolated at the same eps (linear in log eps); halves: "
        "KK23 >= PS - 1 point at every matched eps; KK23 > PS at half of them or more; KK23's "
        "compute at most 1/3 of PS's (kk23/adult/kk23.md).\n"
     << "- Figure 2: at least 70% of the best 10% of (alpha, C) cells lie within a factor 3 of "
        "the fitted diagonal alpha C = k.\n"
     << "- Figure 3: the default within " << kAccuracyTolerance * 100
     << " point of the best candidate.\n"
     << "- Figure 4: DPAdam's final max within 1 point of DPSGD's, and within 1 point at every "
        "evaluation point of the second half of the run (\"extremely similar\").\n"
     << "- Figures 8 and 9 (appendix, sigma = 2 and 8): Figure 4's two halves.\n"
     << "- Figure 6 (appendix, accounting only): the largest K that MA composes at LT's cost "
        "equals "
        "the printed 14 (n = 5,000) and 26 (n = 60,000).\n"
     << "- Table 1: |dplab - paper| <= " << kEpsilonTolerance
     << " (the paper prints two decimals); computed with the preset's `accounting` block "
        "(the paper's classic conversion), dplab's tighter default in brackets.\n"
     << "- Figure 5: DPAdamWOSM's final max within 1 point of DPAdam's, and ADADP's below "
        "DPAdam's on Fashion-MNIST (on Adult, the paper's exception: not more than 1 point "
        "below).\n"
     << "- Section 5.2: DPAdam's mean released accuracy above pruned DPSGD's, and the two 95% "
        "t-intervals over the repeats (each repeat an independent training of every candidate) "
        "disjoint in DPAdam's favour. The "
     << kSection52Draws
     << " random draws per side only re-sample the trained runs; their CI is in the CSV, not "
        "in the verdict. A second row prunes DPSGD on times-best scores pooled over the "
        "searches of this run (the paper pooled over 4 data sets x 2 models x 3 sigma).\n"
     << "- followups (issue #47, no paper claim: two questions, reproduction/followup_rules.h), "
        "per data set and sigma; an optimizer's best candidate is the one with the highest mean "
        "final accuracy over the repeats, its seed band the 95% t-interval of that candidate "
        "over the repeats. (1) DPAdamWOSM vs DP-AdamBC, each at its default over the 4 clips: "
        "one **beats** the other when its mean is higher and the seed bands are disjoint in its "
        "favour, **tie** otherwise; the verdict's halves are DPAdamWOSM's (mean gap > 0; its "
        "low > DP-AdamBC's high). (2) DPSGD with automatic clipping over the 10 learning rates "
        "vs flat DPSGD over the 40 (alpha x C): C's grid is **unnecessary** when automatic "
        "clipping's best is within "
     << kAccuracyTolerance * 100 << " point of the grid's best or above it.\n";
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
