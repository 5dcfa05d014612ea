#include "privacy/selection/accounting_requests.h"

#include <cmath>
#include <set>
#include <string>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/selection/accountant_settings.h"
#include "privacy/selection/papernot_steinke.h"
#include "privacy/selection/private_selection.h"
#include "privacy/selection/request_defaults.h"
#include "privacy/selection/subsampled_tuning.h"

namespace dplab::privacy {
namespace {

// Every setting `account` reads (the flags of `dplab-cli account`; its hidden alias
// --sample-rate stores under sampling-rate).
const std::set<std::string>& account_settings() {
  static const std::set<std::string> names = {"noise-multiplier",
                                              "sampling-rate",
                                              "steps",
                                              "delta",
                                              "candidates",
                                              "selection",
                                              "ps-distribution",
                                              "ps-mu",
                                              "ps-eta",
                                              "ps-gamma",
                                              "gamma",
                                              "delta2",
                                              "conversion",
                                              "lt-log-base",
                                              "lt-integer-hard-stop",
                                              "sweep-candidates",
                                              "tuning-fraction",
                                              "final-data",
                                              "subset-batching",
                                              "sweep-tuning-fraction",
                                              "accountant",
                                              "pld-precision"};
  return names;
}

const std::set<std::string>& calibrate_settings() {
  static const std::set<std::string> names = {"epsilon",    "delta",      "sampling-rate", "steps",
                                              "conversion", "accountant", "pld-precision"};
  return names;
}

// A JSON number, or null for a non-finite value (JSON has no inf; never print a fake number).
nlohmann::json number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

AccountingOptions parse_conversion(const Settings& s) {
  const std::string conversion = s.text_or("conversion", kDefaultConversion);
  if (conversion == "improved") return {};
  if (conversion == "classic") return paper_compatible_options();
  throw InvalidArgument(s.field("conversion") + " must be 'improved' or 'classic', got '" +
                        conversion + "'");
}

LogBase parse_log_base(const Settings& s) {
  const std::string base = s.text_or("lt-log-base", kDefaultLtLogBase);
  if (base == "e") return LogBase::kNatural;
  if (base == "2") return LogBase::kTwo;
  throw InvalidArgument(s.field("lt-log-base") + " must be 'e' or '2', got '" + base + "'");
}

int parse_candidates(const Settings& s, const char* name, const std::string& text) {
  const std::int64_t k = parse_setting_integer(s.field(name), text);
  if (k < 1 || k > 1'000'000) {
    throw InvalidArgument(s.field(name) + " = " + text + " must be an integer in [1, 1000000]");
  }
  return static_cast<int>(k);
}

// Single run / MA under the chosen accountant: with PLD, epsilon is the PLD value and the RDP
// one stays beside it as epsilon_rdp.
void put_run_epsilon(nlohmann::json& out, const SubsampledGaussian& run, int candidates,
                     double delta, const AccountantSettings& accountants, double rdp_epsilon) {
  if (accountants.run == Accountant::kRdp) {
    out["accountant"] = "rdp";
    out["accountant_label"] = "accountant: rdp";
    return;
  }
  const auto e = run_epsilon(run, candidates, delta, accountants.run, accountants.pld);
  out["epsilon"] = number(e.epsilon);
  out["epsilon_rdp"] = number(rdp_epsilon);
  put_accountant_fields(out, e);
}

// "--x needs --selection lt" for every given setting of `names` when selection is not `needed`.
void require_selection(const Settings& s, const std::string& selection, const char* needed,
                       std::initializer_list<const char*> names) {
  if (selection == needed) return;
  for (const char* name : names) {
    if (s.has(name))
      throw InvalidArgument(s.field(name) + " needs " + s.field("selection") + " " + needed);
  }
}

// The sweep over K = A..B of MA and LT (RDP).
AccountAnswer candidate_sweep(const Settings& s, const SubsampledGaussian& run, double delta,
                              double delta2, LogBase log_base, const AccountingOptions& options,
                              const AccountantSettings& accountants) {
  const std::string sweep = s.required_text("sweep-candidates");
  for (const char* name : {"candidates", "selection", "gamma", "pld-precision"}) {
    if (s.has(name)) {
      throw InvalidArgument(s.field(name) + " cannot be combined with " +
                            s.field("sweep-candidates"));
    }
  }
  if (accountants.given && accountants.run == Accountant::kPld) {
    throw InvalidArgument(s.field("accountant") + " pld: " + s.field("sweep-candidates") +
                          " is an RDP sweep (use the GUI's Accountants view)");
  }
  const auto colon = sweep.find(':');
  if (colon == std::string::npos) {
    throw InvalidArgument(s.field("sweep-candidates") + " must be A:B (e.g. 1:200), got '" + sweep +
                          "'");
  }
  const int from = parse_candidates(s, "sweep-candidates", sweep.substr(0, colon));
  const int to = parse_candidates(s, "sweep-candidates", sweep.substr(colon + 1));
  if (to < from)
    throw InvalidArgument(s.field("sweep-candidates") + " " + sweep + ": B must be >= A");
  AccountAnswer answer;
  answer.kind = AccountAnswer::Kind::kCandidateSweep;
  answer.candidates = epsilon_vs_candidates(run, delta, from, to, delta2, log_base, options);
  return answer;
}

void account_lt(const Settings& s, nlohmann::json& out, const SubsampledGaussian& run,
                int candidates, double delta, double delta2, LogBase log_base,
                const AccountingOptions& options, const AccountantSettings& accountants) {
  const double gamma = s.number_or("gamma", 1.0 / candidates);
  require_left_open_interval(s.field("gamma"), gamma, 0.0, 1.0);
  LtSelectionCost r;
  if (s.has("lt-integer-hard-stop")) {
    if (s.has("lt-log-base") || s.has("conversion") || accountants.lt != Accountant::kRdp) {
      throw InvalidArgument(s.field("lt-integer-hard-stop") +
                            " uses ln, the RDP accountant and the improved conversion; drop " +
                            s.field("lt-log-base") + "/" + s.field("conversion") + "/" +
                            s.field("accountant"));
    }
    const auto curve = rdp_curve(run.noise_multiplier, run.sampling_rate);
    std::vector<double> rdp(curve->rdp_per_step);
    for (double& v : rdp) v *= static_cast<double>(run.steps);
    r = liu_talwar_selection_enforced(curve->orders, rdp, gamma, delta, delta2);
    out["lt_integer_hard_stop"] = true;
  } else {
    r = liu_talwar_selection_with(run, gamma, delta, accountants.lt, delta2, log_base,
                                  accountants.pld, options);
  }
  out["epsilon"] = number(r.epsilon);
  out["accountant"] = to_string(accountants.lt);
  out["accountant_label"] = std::string("accountant: ") + to_string(accountants.lt) + " (base run)";
  if (accountants.lt == Accountant::kPld) {  // how much the PLD base run buys
    const auto rdp = liu_talwar_selection(run, gamma, delta, delta2, log_base, options);
    out["epsilon_with_rdp_base_run"] = number(rdp.epsilon);
    out["epsilon_per_run_rdp"] = number(rdp.epsilon_per_run);
  }
  out["delta"] = r.delta;
  if (accountants.lt == Accountant::kRdp) out["best_order"] = r.best_order;
  out["order_at_grid_edge"] = r.order_at_grid_edge;
  out["epsilon_per_run"] = number(r.epsilon_per_run);
  out["delta_per_run"] = r.delta_per_run;
  out["gamma"] = r.gamma;
  out["delta2"] = r.delta2;
  out["upsilon"] = r.upsilon;
  out["lt_log_base"] = log_base == LogBase::kTwo ? "2" : "e";
}

// Papernot-Steinke: one search, the private-subsampled procedure (tuning-fraction) or the sweep
// over the tuning fraction. Returns the answer (out is the object so far).
AccountAnswer account_ps(const Settings& s, nlohmann::json out, const SubsampledGaussian& run,
                         double delta, double delta2, const AccountantSettings& accountants) {
  if (s.has("candidates")) {
    throw InvalidArgument(s.field("candidates") + ": with " + s.field("selection") +
                          " ps the number of runs is random; use " + s.field("ps-mu") + " or " +
                          s.field("ps-gamma"));
  }
  if (s.has("conversion") && s.text_or("conversion", kDefaultConversion) != "improved") {
    throw InvalidArgument(s.field("conversion") + ": " + s.field("selection") +
                          " ps uses the improved conversion only");
  }
  if (accountants.given && accountants.run == Accountant::kPld) {
    throw InvalidArgument(s.field("accountant") + " pld: " + s.field("selection") +
                          " ps is an RDP theorem (Papernot-Steinke); use rdp");
  }
  out["accountant"] = "rdp";
  const std::string distribution = s.required_text("ps-distribution");
  PapernotSteinkeCost r;
  CandidateCountLaw law;
  out["ps_distribution"] = distribution;
  if (distribution == "poisson") {
    if (s.has("ps-eta") || s.has("ps-gamma")) {
      throw InvalidArgument(s.field("ps-eta") + "/" + s.field("ps-gamma") + " need " +
                            s.field("ps-distribution") + " tnb");
    }
    const double mu = s.required_number("ps-mu");
    require_at_least(s.field("ps-mu"), mu, 1.0);
    r = papernot_steinke_poisson(run, mu, delta);
    out["ps_mu"] = mu;
    law.poisson = true;
    law.mu = mu;
  } else if (distribution == "tnb") {
    if (s.has("ps-mu"))
      throw InvalidArgument(s.field("ps-mu") + " needs " + s.field("ps-distribution") + " poisson");
    const double eta = s.required_number("ps-eta");
    require_finite(s.field("ps-eta"), eta);
    if (!(eta > -1.0)) fail_field(s.field("ps-eta"), eta, "must be > -1");
    const double gamma = s.required_number("ps-gamma");
    require_open_interval(s.field("ps-gamma"), gamma, 0.0, 1.0);
    r = papernot_steinke_tnb(run, eta, gamma, delta);
    out["ps_eta"] = eta;
    out["ps_gamma"] = gamma;
    law.poisson = false;
    law.eta = eta;
    law.gamma = gamma;
  } else {
    throw InvalidArgument(s.field("ps-distribution") + " must be 'poisson' or 'tnb', got '" +
                          distribution + "'");
  }
  const auto batching = s.text_or("subset-batching", kDefaultSubsetBatching);
  if (batching != "same_sampling_rate" && batching != "same_lot_size") {
    throw InvalidArgument(s.field("subset-batching") +
                          " must be 'same_sampling_rate' or 'same_lot_size', got '" + batching +
                          "'");
  }
  const SubsetBatching subset_batching = batching == "same_sampling_rate"
                                             ? SubsetBatching::kSameSamplingRate
                                             : SubsetBatching::kSameLotSize;
  AccountAnswer answer;
  if (s.has("sweep-tuning-fraction")) {
    // Koskela-Kulkarni: eps of the whole procedure versus q, beside PS and LT on the full data.
    answer.kind = AccountAnswer::Kind::kTuningFractionSweep;
    answer.tuning_fraction = epsilon_vs_tuning_fraction(run, law, subset_batching, delta,
                                                        default_tuning_fractions(), delta2);
    answer.run = run;
    answer.delta = delta;
    return answer;
  }
  if (s.has("tuning-fraction")) {
    // The whole private-subsampled procedure: every candidate and the final run use `run`'s
    // sigma and T; the candidates' rate on the subset follows subset-batching.
    SubsampledTuningSetting setting;
    setting.tuning_fraction = s.required_number("tuning-fraction");
    require_left_open_interval(s.field("tuning-fraction"), setting.tuning_fraction, 0.0, 1.0);
    setting.law = law;
    const std::string final_data = s.text_or("final-data", kDefaultFinalData);
    if (final_data != "full" && final_data != "complement") {
      throw InvalidArgument(s.field("final-data") + " must be 'full' or 'complement', got '" +
                            final_data + "'");
    }
    setting.final_data = final_data == "full" ? FinalRunData::kFullData : FinalRunData::kComplement;
    const double rate_sub =
        subset_sampling_rate(run.sampling_rate, setting.tuning_fraction, subset_batching);
    const auto kk =
        subsampled_tuning_cost({run.noise_multiplier, rate_sub, run.steps}, run, setting, delta);
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
    answer.object = std::move(out);
    return answer;
  }
  out.erase("candidates");
  out["expected_runs"] = r.expected_runs;
  out["epsilon"] = number(r.epsilon);
  out["delta"] = r.delta;
  out["best_order"] = r.best_order;
  out["order_at_grid_edge"] = r.order_at_grid_edge;
  out["epsilon_single_run"] = number(r.epsilon_per_run);
  answer.object = std::move(out);
  return answer;
}

}  // namespace

AccountAnswer account_request(const Settings& s) {
  s.require_only(account_settings(), "account");
  SubsampledGaussian run;
  run.noise_multiplier = s.required_number("noise-multiplier");
  require_positive(s.field("noise-multiplier"), run.noise_multiplier);
  run.sampling_rate = s.required_number("sampling-rate");
  require_left_open_interval(s.field("sampling-rate"), run.sampling_rate, 0.0, 1.0);
  run.steps = s.required_integer("steps");
  if (run.steps < 1) fail_field(s.field("steps"), static_cast<double>(run.steps), "must be >= 1");
  const double delta = s.required_number("delta");
  require_open_interval(s.field("delta"), delta, 0.0, 1.0);
  const double delta2 = s.number_or("delta2", kDefaultDelta2);
  require_open_interval(s.field("delta2"), delta2, 0.0, delta);
  const AccountingOptions options = parse_conversion(s);
  const LogBase log_base = parse_log_base(s);
  const std::string conversion_name = s.text_or("conversion", kDefaultConversion);
  AccountantSettings accountants = read_accountant_settings(s);
  // conversion is an RDP setting: without an accountant it selects RDP (paper reproduction).
  if (!accountants.given && s.has("conversion")) accountants.run = Accountant::kRdp;
  if (accountants.given && accountants.run == Accountant::kPld && s.has("conversion")) {
    throw InvalidArgument(s.field("conversion") + " is an RDP setting; it needs " +
                          s.field("accountant") + " rdp");
  }
  if (s.has("sweep-candidates"))
    return candidate_sweep(s, run, delta, delta2, log_base, options, accountants);

  const int candidates = parse_candidates(
      s, "candidates", s.text_or("candidates", std::to_string(kDefaultCandidates)));
  const std::string selection = s.text_or("selection", candidates > 1 ? "ma" : "none");
  nlohmann::json out;
  out["noise_multiplier"] = run.noise_multiplier;
  out["sampling_rate"] = run.sampling_rate;
  out["steps"] = run.steps;
  out["conversion"] = conversion_name;
  out["candidates"] = candidates;
  out["selection"] = selection;
  require_selection(s, selection, "lt", {"gamma", "delta2", "lt-log-base"});
  require_selection(s, selection, "ps",
                    {"tuning-fraction", "final-data", "subset-batching", "sweep-tuning-fraction"});
  if (s.has("tuning-fraction") && s.has("sweep-tuning-fraction")) {
    throw InvalidArgument(s.field("tuning-fraction") + " and " + s.field("sweep-tuning-fraction") +
                          " exclude each other");
  }
  require_selection(s, selection, "lt", {"lt-integer-hard-stop"});
  require_selection(s, selection, "ps", {"ps-distribution", "ps-mu", "ps-eta", "ps-gamma"});

  if (selection == "none") {
    if (candidates != 1) {
      throw InvalidArgument(s.field("selection") + " none accounts for one run; use " +
                            s.field("selection") + " ma or lt for " + s.field("candidates") + " " +
                            std::to_string(candidates));
    }
    const auto r = epsilon_for_delta(run, delta, options);
    out["epsilon"] = number(r.epsilon);
    out["delta"] = r.delta;
    out["best_order"] = r.best_order;  // of the RDP bound
    out["order_at_grid_edge"] = r.order_at_grid_edge;
    put_run_epsilon(out, run, 1, delta, accountants, r.epsilon);
  } else if (selection == "ma") {
    const auto r = moments_accountant_selection(run, candidates, delta, options);
    out["epsilon"] = number(r.epsilon);
    out["delta"] = r.delta;
    out["best_order"] = r.best_order;  // of the RDP bound
    out["order_at_grid_edge"] = r.order_at_grid_edge;
    out["total_steps"] = r.total_steps;
    out["epsilon_single_run"] = number(r.epsilon_per_run);
    put_run_epsilon(out, run, candidates, delta, accountants, r.epsilon);
    if (accountants.run == Accountant::kPld) {
      out["epsilon_single_run"] =
          number(pld_epsilon_for_delta(run, delta, accountants.pld).epsilon);
    }
  } else if (selection == "lt") {
    account_lt(s, out, run, candidates, delta, delta2, log_base, options, accountants);
  } else if (selection == "ps") {
    return account_ps(s, std::move(out), run, delta, delta2, accountants);
  } else {
    throw InvalidArgument(s.field("selection") + " must be 'none', 'ma', 'lt' or 'ps', got '" +
                          selection + "'");
  }
  AccountAnswer answer;
  answer.object = std::move(out);
  return answer;
}

nlohmann::json calibrate_request(const Settings& s) {
  s.require_only(calibrate_settings(), "calibrate");
  const double epsilon = s.required_number("epsilon");
  require_positive(s.field("epsilon"), epsilon);
  const double delta = s.required_number("delta");
  require_open_interval(s.field("delta"), delta, 0.0, 1.0);
  const double q = s.required_number("sampling-rate");
  require_left_open_interval(s.field("sampling-rate"), q, 0.0, 1.0);
  const std::int64_t steps = s.required_integer("steps");
  if (steps < 1) fail_field(s.field("steps"), static_cast<double>(steps), "must be >= 1");
  const std::string conversion = s.text_or("conversion", kDefaultConversion);
  AccountingOptions options;
  if (conversion == "classic") {
    options = paper_compatible_options();
  } else if (conversion != "improved") {
    throw InvalidArgument(s.field("conversion") + " must be 'improved' or 'classic', got '" +
                          conversion + "'");
  }

  AccountantSettings accountants = read_accountant_settings(s);
  if (s.has("conversion")) {  // an RDP setting
    if (accountants.given && accountants.run == Accountant::kPld) {
      throw InvalidArgument(s.field("conversion") + " is an RDP setting; it needs " +
                            s.field("accountant") + " rdp");
    }
    accountants.run = Accountant::kRdp;
  }

  const double sigma_rdp = calibrate_noise_multiplier(epsilon, delta, q, steps, options);
  const auto achieved = epsilon_for_delta({sigma_rdp, q, steps}, delta, options);
  nlohmann::json out;
  out["noise_multiplier"] = sigma_rdp;
  out["epsilon"] = achieved.epsilon;
  out["accountant"] = "rdp";
  out["accountant_label"] = "accountant: rdp";
  if (accountants.run == Accountant::kPld) {
    // The same search on the PLD accountant; it never overshoots the target either.
    const auto cal = calibrate_noise_multiplier_pld(epsilon, delta, q, steps, accountants.pld);
    AccountedEpsilon pld;
    pld.epsilon = cal.epsilon.epsilon;
    pld.delta = delta;
    pld.accountant = Accountant::kPld;
    pld.pld_error_bound = cal.epsilon.error_bound;
    pld.pld_discretization = cal.epsilon.discretization;
    pld.pld_tail_mass = cal.epsilon.tail_mass;
    out["noise_multiplier"] = cal.noise_multiplier;
    out["epsilon"] = pld.epsilon;
    out["noise_multiplier_rdp"] = sigma_rdp;  // what RDP would have needed
    put_accountant_fields(out, pld);
  }
  out["target_epsilon"] = epsilon;
  out["delta"] = delta;
  out["sampling_rate"] = q;
  out["steps"] = steps;
  if (accountants.run == Accountant::kRdp) out["best_order"] = achieved.best_order;
  out["conversion"] = conversion;
  return out;
}

}  // namespace dplab::privacy
