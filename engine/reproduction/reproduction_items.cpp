// The reproduction items and the scaling rule (see reproduction_items.h).
#include "reproduction/reproduction_items.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/validate.h"
#include "optim/optimizer.h"

namespace dplab::reproduction {
namespace {

std::vector<DataVersion> both(const std::string& stem) {
  return {{"Adult", "adult", stem + "-adult"},
          {"Fashion-MNIST", "fashion-mnist", stem + "-fashion-mnist"}};
}

// Both data sets, each at every sigma of `sigmas` (one version per pair).
std::vector<DataVersion> both_at(const std::string& stem, const std::vector<double>& sigmas) {
  std::vector<DataVersion> out;
  for (const auto& v : both(stem)) {
    for (double sigma : sigmas) {
      DataVersion at = v;
      at.label += ", sigma = " + format_number(sigma);
      at.noise_multiplier = sigma;
      out.push_back(at);
    }
  }
  return out;
}

// The first, the last and evenly spaced values between: `keep` values in their order.
std::vector<double> thinned(const std::vector<double>& values, std::size_t keep) {
  if (values.size() <= keep || keep < 2) return values;
  std::vector<double> out;
  for (std::size_t i = 0; i < keep; ++i)
    out.push_back(values[(i * (values.size() - 1) + (keep - 1) / 2) / (keep - 1)]);
  return out;
}

std::string thousands(std::int64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

const std::vector<ReproductionItem>& reproduction_items() {
  static const std::vector<ReproductionItem> items = {
      {ItemId::kFigure2,
       "figure2",
       "Figure 2 (section 4.1): the alpha-C diagonal",
       {{"synthetic", "synthetic", "figure2-synthetic-linear"}}},
      {ItemId::kFigure3, "figure3",
       "Figure 3 (section 4.2): DPAdam's default among (alpha, beta1, beta2)",
       both("paper-figure3")},
      {ItemId::kFigure4Table1, "figure4",
       "Figure 4 and Table 1 (section 5.1): best accuracy and its epsilon",
       both("paper-figure4-table1")},
      {ItemId::kFigure8, "figure8", "Appendix Figure 8: Figure 4 at sigma = 2",
       both("paper-figure4-table1"), 2.0},
      {ItemId::kFigure9, "figure9", "Appendix Figure 9: Figure 4 at sigma = 8",
       both("paper-figure4-table1"), 8.0},
      {ItemId::kSection52, "section5.2",
       "Section 5.2: pruned DPSGD vs DPAdam at equal privacy cost", both("paper-section5-2")},
      {ItemId::kFigure5, "figure5", "Figure 5 (section 6.2): DPAdam, ADADP and DPAdamWOSM",
       both("paper-figure5")},
      {ItemId::kKk23,
       "kk23",
       "Koskela & Kulkarni 2023: tuning on a private subsample vs Papernot-Steinke on the full "
       "data",
       {{"Adult", "adult", "paper-kk23-adult"}}},
      {ItemId::kFollowups, "followups",
       "After the paper: DPAdamWOSM vs DP-AdamBC, automatic clipping vs DPSGD's C grid",
       both_at("followups", {4.0, 2.0, 8.0})},
  };
  return items;
}

std::string version_folder(const DataVersion& version) {
  return version.noise_multiplier > 0
             ? version.key + "-sigma" + format_number(version.noise_multiplier)
             : version.key;
}

const ReproductionItem& find_item(const std::string& name) {
  std::string names;
  for (const auto& item : reproduction_items()) {
    if (item.name == name) return item;
    names += (names.empty() ? "" : ", ") + item.name;
  }
  throw InvalidArgument("unknown item '" + name + "' (expected " + names + " or all)");
}

Scale parse_scale(const std::string& text) {
  if (text == "tiny") return Scale::kTiny;
  if (text == "quick") return Scale::kQuick;
  if (text == "paper") return Scale::kPaper;
  throw InvalidArgument("scale '" + text + "' must be quick, paper or tiny");
}

std::string to_string(Scale scale) {
  switch (scale) {
    case Scale::kTiny:
      return "tiny";
    case Scale::kQuick:
      return "quick";
    case Scale::kPaper:
      return "paper";
  }
  return "?";
}

experiment::ExperimentConfig scaled_experiment(const experiment::ExperimentConfig& preset,
                                               Scale scale) {
  experiment::ExperimentConfig c = preset;
  if (scale == Scale::kPaper) return c;
  const bool tiny = scale == Scale::kTiny;
  c.privacy.steps = tiny ? 20 : std::max<std::int64_t>(100, preset.privacy.steps / 20);
  c.eval_every = tiny ? 10 : std::max<std::int64_t>(1, c.privacy.steps / 20);
  c.repeats = 1;
  const bool big_grid = preset.optimizers.size() == 1 && preset.optimizers[0].grid[1] &&
                        preset.optimizers[0].grid[1]->grid_values().size() > 20;
  const std::size_t keep = tiny ? 2 : big_grid ? 10 : 4;
  for (auto& o : c.optimizers) {
    // The optimizer's default value of each hyperparameter (Figure 3's gold candidate) stays.
    experiment::Candidate defaults;
    defaults.optimizer = optim::default_spec(o.kind);
    for (int p = 0; p < experiment::kNumParams; ++p) {
      auto& spec = o.grid[p];
      if (!spec || spec->kind == experiment::ParamSpec::Kind::kUniform ||
          spec->kind == experiment::ParamSpec::Kind::kLogUniform)
        continue;
      const auto values = spec->grid_values();
      if (values.size() <= keep) continue;
      experiment::ParamSpec small;
      small.values = thinned(values, keep);
      const double d = defaults.value(static_cast<experiment::Param>(p));
      const bool has_default = std::find(values.begin(), values.end(), d) != values.end();
      if (has_default &&
          std::find(small.values.begin(), small.values.end(), d) == small.values.end()) {
        // Replace the kept value nearest to the default (never the first or last when keep > 2).
        std::size_t nearest = keep > 2 ? 1 : 0;
        for (std::size_t i = nearest; i < (keep > 2 ? keep - 1 : keep); ++i)
          if (std::abs(small.values[i] - d) < std::abs(small.values[nearest] - d)) nearest = i;
        small.values[nearest] = d;
        std::sort(small.values.begin(), small.values.end());
      }
      spec = small;
    }
  }
  return c;
}

std::string describe_scaling(const experiment::ExperimentConfig& preset,
                             const experiment::ExperimentConfig& scaled) {
  auto count = [](const experiment::ExperimentConfig& c) {
    return experiment::expand_candidates(c).size();
  };
  const std::size_t k_paper = count(preset), k_scaled = count(scaled);
  std::string text = "T = " + thousands(scaled.privacy.steps);
  if (scaled.privacy.steps != preset.privacy.steps)
    text += " (paper " + thousands(preset.privacy.steps) + ")";
  text += ", " + std::to_string(scaled.repeats) + (scaled.repeats == 1 ? " repeat" : " repeats");
  if (scaled.repeats != preset.repeats) text += " (paper " + std::to_string(preset.repeats) + ")";
  text += ", " + std::to_string(k_scaled) + " candidates";
  if (k_scaled != k_paper) text += " (paper " + std::to_string(k_paper) + ")";
  text += ", a point every " + std::to_string(scaled.eval_every) + " queries";
  return text;
}

}  // namespace dplab::reproduction
