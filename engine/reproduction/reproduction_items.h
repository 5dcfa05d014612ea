// The main paper's items that `dplab-cli reproduce` runs (Mohapatra et al. 2022), each from the
// presets in resources/presets (one per data version), and how a run is scaled:
//
//   figure2     Figure 2, section 4.1: DPSGD's alpha x C grid on the synthetic linear regression
//   figure3     Figure 3, section 4.2: DPAdam's (alpha, beta1, beta2) ranking   (Adult, F-MNIST)
//   figure4     Figure 4 and Table 1, section 5.1: max accuracy curves and epsilons (with
//               Table 1's ENRON / Gisette rows and appendix Figure 6, accounting only)
//   figure8     appendix Figure 8: Figure 4's search at sigma = 2
//   figure9     appendix Figure 9: Figure 4's search at sigma = 8
//   section5.2  section 5.2: pruned DPSGD vs DPAdam at equal privacy cost
//   figure5     Figure 5, section 6.2: DPAdam, ADADP, DPAdamWOSM
//   kk23        Koskela & Kulkarni 2023: tuning on a private subsample vs Papernot-Steinke on
//               the full data, accuracy vs total epsilon (Adult; kk23_comparison.h, its own
//               sweep over sigma and seeds)
//   followups   after the paper (issue #47): DPAdamWOSM vs DP-AdamBC, and automatic clipping
//               vs DPSGD's C grid, at sigma = 4, 2, 8 (one data version per data set and sigma,
//               the paper's sigma first so that a run cut short keeps it; the rules in
//               followup_rules.h)
//
// Scales (one rule for every item, so a quick run is the paper's experiment made smaller):
//   paper  the preset as it is;
//   quick  T / 20 (at least 100) queries, one repeat, a point every T/20, and axes with more
//          than 4 values thinned to 4 (the first, last and two evenly spaced between; Figure 2's
//          30 x 30 grid to 10 x 10 the same way), so `reproduce all --scale quick` finishes in
//          minutes on 2 cores;
//   tiny   T = 20, one repeat, a point every 10 queries, every axis thinned to 2 values (with
//          the default kept; tests).
// Accounting numbers (Table 1) always use the paper-scale preset: they cost nothing to compute.
#pragma once

#include <string>
#include <vector>

#include "experiment/experiment_config.h"

namespace dplab::reproduction {

enum class ItemId {
  kFigure2,
  kFigure3,
  kFigure4Table1,
  kFigure8,
  kFigure9,
  kSection52,
  kFigure5,
  kKk23,
  kFollowups
};
enum class Scale { kTiny, kQuick, kPaper };

struct DataVersion {
  std::string label;              // "Adult", "Fashion-MNIST", "synthetic"
  std::string key;                // "adult", "fashion-mnist", "synthetic"
  std::string preset;             // file stem in the presets folder
  double noise_multiplier = 0.0;  // > 0: replaces the preset's sigma for this version only
};

// The version's output folder: its key, with "-sigma<N>" when it sets its own sigma
// ("adult-sigma2").
std::string version_folder(const DataVersion& version);

struct ReproductionItem {
  ItemId id;
  std::string name;   // "figure4"
  std::string title;  // "Figure 4 and Table 1 (section 5.1)"
  std::vector<DataVersion> versions;
  double noise_multiplier = 0.0;  // > 0: replaces the preset's sigma (appendix Figures 8, 9)
};

const std::vector<ReproductionItem>& reproduction_items();
// By name ("figure2", "figure3", "figure4", "figure8", "figure9", "section5.2", "figure5",
// "kk23", "followups"); throws
// InvalidArgument listing the names.
const ReproductionItem& find_item(const std::string& name);

// "tiny" | "quick" | "paper"; throws InvalidArgument naming the accepted values.
Scale parse_scale(const std::string& text);
std::string to_string(Scale scale);

// The preset scaled as described above (paper: unchanged).
experiment::ExperimentConfig scaled_experiment(const experiment::ExperimentConfig& preset,
                                               Scale scale);
// One line saying how a config was scaled ("T = 500 (paper 10,000), 1 repeat (paper 3), ...").
std::string describe_scaling(const experiment::ExperimentConfig& preset,
                             const experiment::ExperimentConfig& scaled);

}  // namespace dplab::reproduction
