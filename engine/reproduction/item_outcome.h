// What one reproduction item produced for one data version: the "paper vs dplab" rows of
// REPORT.md with verdicts, the figures (figures/plot.h) and the CSV files behind them, computed
// from the finished search (tuning::SearchResults) of the item's preset.
//
// Verdicts: one rule for every item (verdict.h: reproduced / partly / not by how many of the
// claim's halves hold, every margin printed); the halves, fixed before the run (REPORT.md quotes
// them):
//   figure2   >= 70% of the best 10% of (alpha, C) cells within a factor 3 of alpha C = k;
//   figure3   the default within 1 point of the best candidate;
//   figure4   DPAdam's final max within 1 point of DPSGD's, AND within 1 point at every
//             evaluation point of the second half of the run ("extremely similar");
//   table1    |dplab - paper| <= 0.005 (the paper prints two decimals);
//   figure5   DPAdamWOSM's final max within 1 point of DPAdam's, AND ADADP's below DPAdam's
//             (Fashion-MNIST) / not more than 1 point below (Adult, the paper's exception);
//   section5.2  DPAdam's mean above pruned DPSGD's, AND the 95% t-intervals over repeats
//             disjoint in its favour (tuning/pruned_comparison.h, 3.: what the trained runs
//             support; the random draws' CI only re-samples them).
// A result at a reduced scale is labelled with the scale; its verdict says what that run shows.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "figures/plot.h"
#include "reproduction/reproduction_items.h"
#include "tuning/pruned_comparison.h"
#include "tuning/results.h"

namespace dplab::reproduction {

struct ReportRow {
  std::string item;      // "figure4"
  std::string data;      // "Adult"
  std::string quantity;  // what is compared
  std::string paper;     // the paper's number or claim
  std::string dplab;     // dplab's number
  std::string verdict;   // verdict_text (verdict.h): "reproduced: ...", "partly, fails: ...", ...
};

struct ItemOutcome {
  std::vector<ReportRow> rows;
  std::vector<std::pair<std::string, figures::Plot>> figures;  // file stem -> plot
  std::vector<std::pair<std::string, std::string>> files;      // file name -> CSV text
  std::vector<std::string> notes;                              // lines for REPORT.md
};

// `paper` is the unscaled preset (for Table 1's accounting), `results` the finished search of
// its scaled version. Throws InvalidArgument when the search has no finished run.
ItemOutcome analyse_item(const ReproductionItem& item, const DataVersion& version,
                         const experiment::ExperimentConfig& paper,
                         const tuning::SearchResults& results, Scale scale);

// Section 5.2 again with DPSGD pruned on times-best scores pooled over `settings` (other searches
// of the same (alpha, C) grid: data sets x models x sigma; pruned_comparison.h, 4.), as the
// paper pooled over 4 data sets x 2 models x 3 sigma. Appends a row, a note, the figure
// "section5_2_pooled" and section5_2_pooled.csv / section5_2_pooled_pruning.csv to `out`.
void add_pooled_section52(ItemOutcome& out, const DataVersion& version,
                          const tuning::SearchResults& results,
                          const std::vector<tuning::PruningScores>& settings, Scale scale);

// Accuracy gap below which an accuracy claim counts as reproduced (1 point).
inline constexpr double kAccuracyTolerance = 0.01;
// Epsilon gap below which a Table 1 number counts as reproduced (two printed decimals).
inline constexpr double kEpsilonTolerance = 0.005;
// Figure 2: the share of the best 10% of (alpha, C) cells that must lie within a factor
// kFigure2Factor of the fitted diagonal alpha C = k.
inline constexpr double kFigure2BestShare = 0.7;
inline constexpr double kFigure2Factor = 3.0;
// Random best-of-k draws per side in section 5.2 (the presets' descriptions quote this number;
// test_reproduction_report checks they agree). Every number of a rule is written out in its file
// in resources/rules/ (rule_files.h); test_rule_files checks the file and the constant agree.
inline constexpr int kSection52Draws = 10000;

}  // namespace dplab::reproduction
