// dplab-cli account: privacy of one DP-SGD run, or of an honest search over K candidates
// composed with the moments accountant (MA) or selected by Liu-Talwar random stopping (LT).
// Prints one JSON object on stdout; --sweep-candidates a:b prints CSV K,eps_ma,eps_lt instead.
// The accounting itself lives in engine/privacy (rdp_accountant.h, private_selection.h).
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/validate.h"
#include "privacy/private_selection.h"
#include "privacy/rdp_accountant.h"
#include "privacy/tuning_cost_series.h"

namespace dplab::cli {
namespace {

// Validation messages name the FLAG ("--noise-multiplier = -1 must be > 0").
void check_positive(const std::string& flag, double value) { require_positive("--" + flag, value); }

privacy::AccountingOptions parse_conversion(const Arguments& args) {
  const std::string conversion = args.text_or("conversion", "improved");
  if (conversion == "improved") return {};
  if (conversion == "classic") return privacy::paper_compatible_options();
  throw UsageError("--conversion must be 'improved' or 'classic', got '" + conversion + "'");
}

privacy::LogBase parse_log_base(const Arguments& args) {
  const std::string base = args.text_or("lt-log-base", "e");
  if (base == "e") return privacy::LogBase::kNatural;
  if (base == "2") return privacy::LogBase::kTwo;
  throw UsageError("--lt-log-base must be 'e' or '2', got '" + base + "'");
}

// A JSON number, or null for a non-finite value (JSON has no inf; never print a fake number).
nlohmann::json number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

int parse_candidates(const std::string& flag, const std::string& text) {
  const std::int64_t k = parse_integer(flag, text);
  if (k < 1 || k > 1'000'000) {
    throw UsageError("--" + flag + " = " + text + " must be an integer in [1, 1000000]");
  }
  return static_cast<int>(k);
}

int run_account(const Arguments& args) {
  privacy::SubsampledGaussian run;
  run.noise_multiplier = args.required_number("noise-multiplier");
  check_positive("noise-multiplier", run.noise_multiplier);
  run.sampling_rate = args.required_number("sampling-rate");
  require_left_open_interval("--sampling-rate", run.sampling_rate, 0.0, 1.0);
  run.steps = args.required_integer("steps");
  if (run.steps < 1) fail_field("--steps", static_cast<double>(run.steps), "must be >= 1");
  const double delta = args.required_number("delta");
  require_open_interval("--delta", delta, 0.0, 1.0);
  const double delta2 = args.number_or("delta2", privacy::kDefaultDelta2);
  require_open_interval("--delta2", delta2, 0.0, delta);
  const privacy::AccountingOptions options = parse_conversion(args);
  const privacy::LogBase log_base = parse_log_base(args);
  const std::string conversion_name = args.text_or("conversion", "improved");

  if (auto sweep = args.text("sweep-candidates")) {
    for (const char* flag : {"candidates", "selection", "gamma"}) {
      if (args.has(flag)) throw UsageError(std::string("--") + flag + " cannot be combined with --sweep-candidates");
    }
    const auto colon = sweep->find(':');
    if (colon == std::string::npos) {
      throw UsageError("--sweep-candidates must be A:B (e.g. 1:200), got '" + *sweep + "'");
    }
    const int from = parse_candidates("sweep-candidates", sweep->substr(0, colon));
    const int to = parse_candidates("sweep-candidates", sweep->substr(colon + 1));
    if (to < from) throw UsageError("--sweep-candidates " + *sweep + ": B must be >= A");
    const auto points =
        privacy::epsilon_vs_candidates(run, delta, from, to, delta2, log_base, options);
    std::cout << "K,eps_ma,eps_lt\n" << std::setprecision(17);
    for (const auto& p : points) {
      std::cout << p.candidates << ',' << p.epsilon_ma << ',' << p.epsilon_lt << '\n';
    }
    return 0;
  }

  const int candidates = parse_candidates("candidates", args.text_or("candidates", "1"));
  const std::string selection = args.text_or("selection", candidates > 1 ? "ma" : "none");
  nlohmann::json out;
  out["noise_multiplier"] = run.noise_multiplier;
  out["sampling_rate"] = run.sampling_rate;
  out["steps"] = run.steps;
  out["conversion"] = conversion_name;
  out["candidates"] = candidates;
  out["selection"] = selection;
  if (selection != "lt" && args.has("gamma")) throw UsageError("--gamma needs --selection lt");

  if (selection == "none") {
    if (candidates != 1) {
      throw UsageError("--selection none accounts for one run; use --selection ma or lt for --candidates " +
                       std::to_string(candidates));
    }
    const auto r = privacy::epsilon_for_delta(run, delta, options);
    out["epsilon"] = number(r.epsilon);
    out["delta"] = r.delta;
    out["best_order"] = r.best_order;
    out["order_at_grid_edge"] = r.order_at_grid_edge;
  } else if (selection == "ma") {
    const auto r = privacy::moments_accountant_selection(run, candidates, delta, options);
    out["epsilon"] = number(r.epsilon);
    out["delta"] = r.delta;
    out["best_order"] = r.best_order;
    out["order_at_grid_edge"] = r.order_at_grid_edge;
    out["total_steps"] = r.total_steps;
    out["epsilon_single_run"] = number(r.epsilon_per_run);
  } else if (selection == "lt") {
    const double gamma = args.number_or("gamma", 1.0 / candidates);
    require_left_open_interval("--gamma", gamma, 0.0, 1.0);
    const auto r = privacy::liu_talwar_selection(run, gamma, delta, delta2, log_base, options);
    out["epsilon"] = number(r.epsilon);
    out["delta"] = r.delta;
    out["best_order"] = r.best_order;
    out["order_at_grid_edge"] = r.order_at_grid_edge;
    out["epsilon_per_run"] = number(r.epsilon_per_run);
    out["delta_per_run"] = r.delta_per_run;
    out["gamma"] = r.gamma;
    out["delta2"] = r.delta2;
    out["upsilon"] = r.upsilon;
    out["lt_log_base"] = log_base == privacy::LogBase::kTwo ? "2" : "e";
  } else {
    throw UsageError("--selection must be 'none', 'ma' or 'lt', got '" + selection + "'");
  }
  std::cout << out.dump(2) << '\n';
  return 0;
}

}  // namespace

void add_account_command(CLI::App& cli) {
  CLI::App* cmd = cli.add_subcommand(
      "account", "privacy of one run or of a search over K candidates (MA / LT)");
  auto args = std::make_shared<Arguments>();
  add_value(*cmd, *args, "noise-multiplier", "sigma > 0, noise std relative to the clipping norm", "S")
      ->required();
  add_value(*cmd, *args, "sampling-rate", "required: q in (0, 1], Poisson sampling rate L/n", "Q");
  add_hidden_alias(*cmd, *args, "sample-rate", "sampling-rate");
  add_value(*cmd, *args, "steps", "T >= 1 steps per run", "T")->required();
  add_value(*cmd, *args, "delta", "target delta in (0, 1) of the whole release", "D")->required();
  add_value(*cmd, *args, "candidates", "K >= 1 hyperparameter candidates (default 1)", "K");
  add_value(*cmd, *args, "selection",
            "none (one run; default for K = 1), ma (K runs composed in RDP; default for K > 1) or "
            "lt (Liu-Talwar random stopping, paper Thm 1)",
            "none|ma|lt");
  add_value(*cmd, *args, "gamma", "LT stopping probability in (0, 1] (default 1/K)", "G");
  add_value(*cmd, *args, "delta2", "LT delta2 in (0, delta) (default 1e-20)", "D2");
  add_value(*cmd, *args, "conversion",
            "improved (default: Balle et al. 2020, orders to 1024) or classic (the paper's "
            "accountant: eps_RDP - ln(delta)/(alpha-1), continuous alpha in (1, 512])",
            "improved|classic");
  add_value(*cmd, *args, "lt-log-base", "e (default) or 2: the logarithm in Upsilon = log(1/delta2)/gamma",
            "e|2");
  add_value(*cmd, *args, "sweep-candidates",
            "print CSV K,eps_ma,eps_lt for K = A..B instead of one JSON object", "A:B");
  cmd->footer("Output: one JSON object (epsilon, delta, best_order, selection, candidates, ...).");
  on_run(*cmd, [args] { return run_account(*args); });
}

}  // namespace dplab::cli
