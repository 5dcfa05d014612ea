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
#include <vector>

#include "cli/accountant_flag.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/validate.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/selection/papernot_steinke.h"
#include "privacy/selection/private_selection.h"
#include "privacy/selection/subsampled_tuning.h"
#include "privacy/selection/tuning_cost_series.h"

namespace dplab::cli {
namespace {

// Validation messages name the FLAG ("--noise-multiplier = -1 must be > 0").
void check_positive(const std::string& flag, double value) {
  require_positive("--" + flag, value);
}

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

// Single run / MA under the chosen accountant: with PLD, epsilon is the PLD value and the RDP
// one stays beside it as epsilon_rdp.
void put_run_epsilon(nlohmann::json& out, const privacy::SubsampledGaussian& run, int candidates,
                     double delta, const AccountantFlags& flags, double rdp_epsilon) {
  if (flags.run == privacy::Accountant::kRdp) {
    out["accountant"] = "rdp";
    out["accountant_label"] = "accountant: rdp";
    return;
  }
  const auto e = privacy::run_epsilon(run, candidates, delta, flags.run, flags.pld);
  out["epsilon"] = number(e.epsilon);
  out["epsilon_rdp"] = number(rdp_epsilon);
  put_accountant_fields(out, e);
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
  AccountantFlags accountants =
      parse_accountant_flags(args.text_or("accountant", ""), args.text_or("pld-precision", ""));
  // --conversion is an RDP setting: without --accountant it selects RDP (paper reproduction).
  if (!accountants.given && args.has("conversion")) {
    accountants.run = privacy::Accountant::kRdp;
  }
  if (accountants.given && accountants.run == privacy::Accountant::kPld && args.has("conversion")) {
    throw UsageError("--conversion is an RDP setting; it needs --accountant rdp");
  }

  if (auto sweep = args.text("sweep-candidates")) {
    for (const char* flag : {"candidates", "selection", "gamma", "pld-precision"}) {
      if (args.has(flag))
        throw UsageError(std::string("--") + flag + " cannot be combined with --sweep-candidates");
    }
    if (accountants.given && accountants.run == privacy::Accountant::kPld) {
      throw UsageError(
          "--accountant pld: --sweep-candidates is an RDP sweep (use the GUI's Accountants view)");
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
  for (const char* flag : {"delta2", "lt-log-base"}) {
    if (selection != "lt" && args.has(flag))
      throw UsageError(std::string("--") + flag + " needs --selection lt");
  }
  for (const char* flag :
       {"tuning-fraction", "final-data", "subset-batching", "sweep-tuning-fraction"}) {
    if (selection != "ps" && args.has(flag)) {
      throw UsageError(std::string("--") + flag + " needs --selection ps");
    }
  }
  if (args.has("tuning-fraction") && args.has("sweep-tuning-fraction")) {
    throw UsageError("--tuning-fraction and --sweep-tuning-fraction exclude each other");
  }
  if (selection != "lt" && args.has("lt-integer-hard-stop")) {
    throw UsageError("--lt-integer-hard-stop needs --selection lt");
  }
  for (const char* flag : {"ps-distribution", "ps-mu", "ps-eta", "ps-gamma"}) {
    if (selection != "ps" && args.has(flag)) {
      throw UsageError(std::string("--") + flag + " needs --selection ps");
    }
  }

  if (selection == "none") {
    if (candidates != 1) {
      throw UsageError(
          "--selection none accounts for one run; use --selection ma or lt for --candidates " +
          std::to_string(candidates));
    }
    const auto r = privacy::epsilon_for_delta(run, delta, options);
    out["epsilon"] = number(r.epsilon);
    out["delta"] = r.delta;
    out["best_order"] = r.best_order;  // of the RDP bound
    out["order_at_grid_edge"] = r.order_at_grid_edge;
    put_run_epsilon(out, run, 1, delta, accountants, r.epsilon);
  } else if (selection == "ma") {
    const auto r = privacy::moments_accountant_selection(run, candidates, delta, options);
    out["epsilon"] = number(r.epsilon);
    out["delta"] = r.delta;
    out["best_order"] = r.best_order;  // of the RDP bound
    out["order_at_grid_edge"] = r.order_at_grid_edge;
    out["total_steps"] = r.total_steps;
    out["epsilon_single_run"] = number(r.epsilon_per_run);
    put_run_epsilon(out, run, candidates, delta, accountants, r.epsilon);
    if (accountants.run == privacy::Accountant::kPld) {
      out["epsilon_single_run"] =
          number(privacy::pld_epsilon_for_delta(run, delta, accountants.pld).epsilon);
    }
  } else if (selection == "lt") {
    const double gamma = args.number_or("gamma", 1.0 / candidates);
    require_left_open_interval("--gamma", gamma, 0.0, 1.0);
    privacy::LtSelectionCost r;
    if (args.has("lt-integer-hard-stop")) {
      if (args.has("lt-log-base") || args.has("conversion") ||
          accountants.lt != privacy::Accountant::kRdp) {
        throw UsageError(
            "--lt-integer-hard-stop uses ln, the RDP accountant and the improved conversion; "
            "drop --lt-log-base/--conversion/--accountant");
      }
      const auto curve = privacy::rdp_curve(run.noise_multiplier, run.sampling_rate);
      std::vector<double> rdp(curve->rdp_per_step);
      for (double& v : rdp) v *= static_cast<double>(run.steps);
      r = privacy::liu_talwar_selection_enforced(curve->orders, rdp, gamma, delta, delta2);
      out["lt_integer_hard_stop"] = true;
    } else {
      r = privacy::liu_talwar_selection_with(run, gamma, delta, accountants.lt, delta2, log_base,
                                             accountants.pld, options);
    }
    out["epsilon"] = number(r.epsilon);
    out["accountant"] = privacy::to_string(accountants.lt);
    out["accountant_label"] =
        std::string("accountant: ") + privacy::to_string(accountants.lt) + " (base run)";
    if (accountants.lt == privacy::Accountant::kPld) {  // how much the PLD base run buys
      const auto rdp = privacy::liu_talwar_selection(run, gamma, delta, delta2, log_base, options);
      out["epsilon_with_rdp_base_run"] = number(rdp.epsilon);
      out["epsilon_per_run_rdp"] = number(rdp.epsilon_per_run);
    }
    out["delta"] = r.delta;
    if (accountants.lt == privacy::Accountant::kRdp) out["best_order"] = r.best_order;
    out["order_at_grid_edge"] = r.order_at_grid_edge;
    out["epsilon_per_run"] = number(r.epsilon_per_run);
    out["delta_per_run"] = r.delta_per_run;
    out["gamma"] = r.gamma;
    out["delta2"] = r.delta2;
    out["upsilon"] = r.upsilon;
    out["lt_log_base"] = log_base == privacy::LogBase::kTwo ? "2" : "e";
  } else if (selection == "ps") {
    if (args.has("candidates")) {
      throw UsageError(
          "--candidates: with --selection ps the number of runs is random; use --ps-mu or "
          "--ps-gamma");
    }
    if (args.has("conversion") && conversion_name != "improved") {
      throw UsageError("--conversion: --selection ps uses the improved conversion only");
    }
    if (accountants.given && accountants.run == privacy::Accountant::kPld) {
      throw UsageError(
          "--accountant pld: --selection ps is an RDP theorem (Papernot-Steinke); use rdp");
    }
    out["accountant"] = "rdp";
    const std::string distribution = args.required_text("ps-distribution");
    privacy::PapernotSteinkeCost r;
    out["ps_distribution"] = distribution;
    if (distribution == "poisson") {
      if (args.has("ps-eta") || args.has("ps-gamma")) {
        throw UsageError("--ps-eta/--ps-gamma need --ps-distribution tnb");
      }
      const double mu = args.required_number("ps-mu");
      require_at_least("--ps-mu", mu, 1.0);
      r = privacy::papernot_steinke_poisson(run, mu, delta);
      out["ps_mu"] = mu;
    } else if (distribution == "tnb") {
      if (args.has("ps-mu")) throw UsageError("--ps-mu needs --ps-distribution poisson");
      const double eta = args.required_number("ps-eta");
      require_finite("--ps-eta", eta);
      if (!(eta > -1.0)) fail_field("--ps-eta", eta, "must be > -1");
      const double gamma = args.required_number("ps-gamma");
      require_open_interval("--ps-gamma", gamma, 0.0, 1.0);
      r = privacy::papernot_steinke_tnb(run, eta, gamma, delta);
      out["ps_eta"] = eta;
      out["ps_gamma"] = gamma;
    } else {
      throw UsageError("--ps-distribution must be 'poisson' or 'tnb', got '" + distribution + "'");
    }
    privacy::CandidateCountLaw law;
    law.poisson = distribution == "poisson";
    if (law.poisson) {
      law.mu = out["ps_mu"].get<double>();
    } else {
      law.eta = out["ps_eta"].get<double>();
      law.gamma = out["ps_gamma"].get<double>();
    }
    const auto batching = args.text_or("subset-batching", "same_sampling_rate");
    if (batching != "same_sampling_rate" && batching != "same_lot_size") {
      throw UsageError("--subset-batching must be 'same_sampling_rate' or 'same_lot_size', got '" +
                       batching + "'");
    }
    const privacy::SubsetBatching subset_batching = batching == "same_sampling_rate"
                                                        ? privacy::SubsetBatching::kSameSamplingRate
                                                        : privacy::SubsetBatching::kSameLotSize;
    if (args.has("sweep-tuning-fraction")) {
      // Koskela-Kulkarni: eps of the whole procedure versus q, beside PS and LT on the full data.
      const auto points = privacy::epsilon_vs_tuning_fraction(
          run, law, subset_batching, delta, privacy::default_tuning_fractions(), delta2);
      std::cout << "# dplab: eps of the WHOLE procedure at delta = " << delta
                << " (sigma = " << run.noise_multiplier << ", rate " << run.sampling_rate
                << ", T = " << run.steps
                << "); kk23: tuning on a Poisson-q subsample + the final run (both phases); "
                   "kk23_complement: final run on the rest; ps_full: Papernot-Steinke on the full "
                   "data, best run released; lt_full: Liu-Talwar with gamma = 1/E[K]; compute in "
                   "full-data runs; accountant: rdp\n";
      std::cout << "tuning_fraction,eps_kk23,eps_kk23_complement,eps_ps_full,eps_lt_full,"
                   "compute_kk23,compute_kk23_complement,compute_ps_full,compute_lt_full,"
                   "candidate_steps_kk23,candidate_steps_ps_full,candidate_steps_lt_full\n"
                << std::setprecision(17);
      for (const auto& p : points) {
        std::cout << p.tuning_fraction << ',' << p.epsilon_kk23 << ',' << p.epsilon_kk23_complement
                  << ',' << p.epsilon_ps_full << ',' << p.epsilon_lt_full << ',' << p.compute_kk23
                  << ',' << p.compute_kk23_complement << ',' << p.compute_ps_full << ','
                  << p.compute_lt_full << ',' << p.candidate_steps_kk23 << ','
                  << p.candidate_steps_ps_full << ',' << p.candidate_steps_lt_full << '\n';
      }
      return 0;
    }
    if (args.has("tuning-fraction")) {
      // The whole private-subsampled procedure: every candidate and the final run use `run`'s
      // sigma and T; the candidates' rate on the subset follows --subset-batching.
      privacy::SubsampledTuningSetting setting;
      setting.tuning_fraction = args.required_number("tuning-fraction");
      require_left_open_interval("--tuning-fraction", setting.tuning_fraction, 0.0, 1.0);
      setting.law = law;
      const std::string final_data = args.text_or("final-data", "full");
      if (final_data != "full" && final_data != "complement") {
        throw UsageError("--final-data must be 'full' or 'complement', got '" + final_data + "'");
      }
      setting.final_data = final_data == "full" ? privacy::FinalRunData::kFullData
                                                : privacy::FinalRunData::kComplement;
      const double rate_sub = privacy::subset_sampling_rate(
          run.sampling_rate, setting.tuning_fraction, subset_batching);
      const auto kk = privacy::subsampled_tuning_cost({run.noise_multiplier, rate_sub, run.steps},
                                                      run, setting, delta);
      out["selection"] = "ps-subsampled";
      out["tuning_fraction"] = setting.tuning_fraction;
      out["final_data"] = final_data;
      out["subset_batching"] = batching;
      out["tuning_sampling_rate"] = rate_sub;
      out.erase("candidates");
      out["expected_runs"] = kk.expected_candidates;
      out["epsilon"] = number(kk.epsilon);
      out["delta"] = kk.delta;
      out["best_order"] = kk.best_order;
      out["order_at_grid_edge"] = kk.order_at_grid_edge;
      out["epsilon_tuning_phase"] = number(kk.epsilon_tuning_phase);
      out["epsilon_final_run"] = number(kk.epsilon_final_run);
      out["covers"] =
          "both phases: the Papernot-Steinke search on a Poisson subsample, then the final run";
      std::cout << out.dump(2) << '\n';
      return 0;
    }
    out.erase("candidates");
    out["expected_runs"] = r.expected_runs;
    out["epsilon"] = number(r.epsilon);
    out["delta"] = r.delta;
    out["best_order"] = r.best_order;
    out["order_at_grid_edge"] = r.order_at_grid_edge;
    out["epsilon_single_run"] = number(r.epsilon_per_run);
  } else {
    throw UsageError("--selection must be 'none', 'ma', 'lt' or 'ps', got '" + selection + "'");
  }
  std::cout << out.dump(2) << '\n';
  return 0;
}

}  // namespace

void add_account_command(CLI::App& cli) {
  CLI::App* cmd = add_command(cli, "account",
                              "privacy of one run or of a search over K candidates (MA / LT / PS)");
  auto args = std::make_shared<Arguments>();
  add_value(*cmd, *args, "noise-multiplier", "sigma > 0, noise std relative to the clipping norm",
            "S")
      .required();
  add_value(*cmd, *args, "sampling-rate", "required: q in (0, 1], Poisson sampling rate L/n", "Q");
  add_hidden_alias(*cmd, *args, "sample-rate", "sampling-rate");
  add_value(*cmd, *args, "steps", "T >= 1 steps per run", "T").required();
  add_value(*cmd, *args, "delta", "target delta in (0, 1) of the whole release", "D").required();
  add_value(*cmd, *args, "candidates", "K >= 1 hyperparameter candidates (default 1)", "K");
  add_value(*cmd, *args, "selection",
            "none (one run; default for K = 1), ma (K runs composed in RDP; default for K > 1) or "
            "lt (Liu-Talwar random stopping, paper Thm 1) or ps (Papernot-Steinke 2022: a random "
            "number of runs, best released)",
            "none|ma|lt|ps");
  add_value(*cmd, *args, "ps-distribution",
            "ps: poisson (K ~ Poisson(mu), Thm 6) or tnb (truncated negative binomial, Thm 2)",
            "poisson|tnb");
  add_value(*cmd, *args, "ps-mu", "ps poisson: mean number of runs mu >= 1", "MU");
  add_value(*cmd, *args, "ps-eta", "ps tnb: shape eta > -1 (1 = geometric, 0 = logarithmic)", "E");
  add_value(*cmd, *args, "ps-gamma", "ps tnb: gamma in (0, 1)", "G");
  add_value(*cmd, *args, "gamma", "LT stopping probability in (0, 1] (default 1/K)", "G");
  add_value(*cmd, *args, "delta2", "LT delta2 in (0, delta) (default 1e-20)", "D2");
  add_value(*cmd, *args, "conversion",
            "improved (default: Balle et al. 2020, orders to 1024) or classic (the paper's "
            "accountant: eps_RDP - ln(delta)/(alpha-1), continuous alpha in (1, 512])",
            "improved|classic");
  add_value(*cmd, *args, "lt-log-base",
            "e (default) or 2: the logarithm in Upsilon = log(1/delta2)/gamma", "e|2");
  add_switch(*cmd, *args, "lt-integer-hard-stop",
             "LT with the integer Upsilon = ceil(ln(1/delta2)/gamma) that `tune --release private "
             "--strategy lt` enforces (improved conversion)");
  add_value(*cmd, *args, "sweep-candidates",
            "print CSV K,eps_ma,eps_lt for K = A..B instead of one JSON object", "A:B");
  add_value(*cmd, *args, "tuning-fraction",
            "ps: the whole private-subsampled procedure (Koskela-Kulkarni 2023): the search on a "
            "Poisson subsample of rate Q, then one final run; eps covers both phases",
            "Q");
  add_value(*cmd, *args, "final-data",
            "with --tuning-fraction: the final run on full (default) or complement",
            "full|complement");
  add_value(*cmd, *args, "subset-batching",
            "with --tuning-fraction: the candidates' rate on the subset: same_sampling_rate "
            "(default) or same_lot_size (rate / Q)",
            "same_sampling_rate|same_lot_size");
  add_switch(*cmd, *args, "sweep-tuning-fraction",
             "ps: print CSV of eps of the whole procedure vs q = 0.05..1 (private-subsampled, both "
             "variants) beside PS and LT on the full data, with the expected compute");
  add_value(*cmd, *args, "accountant", kAccountantHelp, "rdp|pld");
  add_value(*cmd, *args, "pld-precision", kPldPrecisionHelp, "fast|default|tight");
  set_footer(
      *cmd,
      "Output: one JSON object (epsilon, delta, accountant, best_order, selection, candidates, "
      "...).");
  on_run(*cmd, [args] { return run_account(*args); });
}

}  // namespace dplab::cli
