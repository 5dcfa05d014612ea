// dplab.account / calibrate / selection_epsilon: the engine's answers to `dplab-cli account` and
// `dplab-cli calibrate` (privacy/selection/accounting_requests.h), the keywords being the flags
// with '_' for '-'. dplab.audit_bound: the one-run audit's lower bound (audit/one_run_bound.h).
#include <cmath>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "audit/one_run_bound.h"
#include "core/error.h"
#include "privacy/selection/accounting_requests.h"
#include "python/conversions.h"
#include "python/functions.h"

namespace dplab::python {
namespace {

privacy::AccountAnswer answer(const Settings& settings) {
  py::gil_scoped_release no_gil;  // PLD accounting can take a second
  return privacy::account_request(settings);
}

py::object account(const py::kwargs& kwargs) {
  const privacy::AccountAnswer a = answer(settings_from_kwargs(kwargs));
  switch (a.kind) {
    case privacy::AccountAnswer::Kind::kObject:
      return to_python(a.object);
    case privacy::AccountAnswer::Kind::kCandidateSweep: {
      std::vector<std::int64_t> k;
      std::vector<double> ma, lt;
      for (const auto& p : a.candidates) {
        k.push_back(p.candidates);
        ma.push_back(p.epsilon_ma);
        lt.push_back(p.epsilon_lt);
      }
      py::dict table;
      table["K"] = owning_array(std::move(k));
      table["eps_ma"] = owning_array(std::move(ma));
      table["eps_lt"] = owning_array(std::move(lt));
      return table;
    }
    case privacy::AccountAnswer::Kind::kTuningFractionSweep: {
      // The columns of `dplab-cli account --sweep-tuning-fraction`, by the same names.
      using Point = privacy::TuningFractionPoint;
      static const std::pair<const char*, double Point::*> kColumns[] = {
          {"tuning_fraction", &Point::tuning_fraction},
          {"eps_kk23", &Point::epsilon_kk23},
          {"eps_kk23_complement", &Point::epsilon_kk23_complement},
          {"eps_ps_full", &Point::epsilon_ps_full},
          {"eps_lt_full", &Point::epsilon_lt_full},
          {"compute_kk23", &Point::compute_kk23},
          {"compute_kk23_complement", &Point::compute_kk23_complement},
          {"compute_ps_full", &Point::compute_ps_full},
          {"compute_lt_full", &Point::compute_lt_full},
          {"candidate_steps_kk23", &Point::candidate_steps_kk23},
          {"candidate_steps_ps_full", &Point::candidate_steps_ps_full},
          {"candidate_steps_lt_full", &Point::candidate_steps_lt_full}};
      py::dict table;
      for (const auto& [name, member] : kColumns) {
        std::vector<double> column;
        for (const auto& p : a.tuning_fraction) column.push_back(p.*member);
        table[name] = owning_array(std::move(column));
      }
      return table;
    }
  }
  return py::none();
}

py::object calibrate(const py::kwargs& kwargs) {
  const Settings settings = settings_from_kwargs(kwargs);
  nlohmann::json out;
  {
    py::gil_scoped_release no_gil;
    out = privacy::calibrate_request(settings);
  }
  return to_python(out);
}

// The epsilon of an answer (JSON null: not finite, +inf).
double epsilon_of(const nlohmann::json& object) {
  const auto& e = object.at("epsilon");
  return e.is_null() ? INFINITY : e.get<double>();
}

bool is_vector(const py::handle& value) {
  if (py::isinstance<py::str>(value) || py::isinstance<py::bool_>(value)) return false;
  if (py::hasattr(value, "ndim")) return value.attr("ndim").cast<int>() == 1;
  return py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value);
}

// selection_epsilon: account's epsilon for one selection; a keyword given as a 1-D array (or
// list) is swept element by element and the answer is a numpy array of the same length.
py::object selection_epsilon(const py::kwargs& kwargs) {
  if (!kwargs.contains("selection")) {
    throw Error(
        "selection_epsilon: give selection (\"none\", \"ma\", \"lt\" or \"ps\"; \"ps\" with "
        "tuning_fraction is the private-subsampled procedure)");
  }
  std::vector<std::string> swept;
  py::ssize_t length = -1;
  for (const auto& [key, value] : kwargs) {
    if (!is_vector(value)) continue;
    const std::string keyword = py::str(key);
    const auto n = static_cast<py::ssize_t>(py::len(value));
    if (length >= 0 && n != length) {
      throw Error("selection_epsilon: " + keyword + " has " + std::to_string(n) + " values and " +
                  swept.front() + " " + std::to_string(length));
    }
    length = n;
    swept.push_back(keyword);
  }
  for (const char* sweep : {"sweep_candidates", "sweep_tuning_fraction"}) {
    if (kwargs.contains(sweep))
      throw Error(std::string("selection_epsilon: ") + sweep + " is account()'s sweep");
  }
  if (swept.empty()) {
    const privacy::AccountAnswer a = answer(settings_from_kwargs(kwargs));
    return py::float_(epsilon_of(a.object));
  }
  std::vector<double> epsilons;
  for (py::ssize_t i = 0; i < length; ++i) {
    py::kwargs one;
    for (const auto& [key, value] : kwargs) {
      const std::string keyword = py::str(key);
      const bool is_swept = std::find(swept.begin(), swept.end(), keyword) != swept.end();
      one[key] =
          is_swept ? py::object(value[py::int_(i)]) : py::reinterpret_borrow<py::object>(value);
    }
    epsilons.push_back(epsilon_of(answer(settings_from_kwargs(one)).object));
  }
  return owning_array(std::move(epsilons));
}

py::dict bound_dict(const audit::AuditBound& b, bool with_guess_set) {
  py::dict out;
  out["epsilon_lower_bound"] = b.epsilon_lower_bound;
  out["pure_epsilon_lower_bound"] = b.pure_epsilon_lower_bound;
  out["ceiling"] = b.ceiling;
  out["canaries"] = b.counts.canaries;
  out["guesses"] = b.counts.guesses;
  out["correct"] = b.counts.correct;
  out["guess_sets"] = b.sets_tried;
  if (with_guess_set) {
    out["k_plus"] = b.guess_set.top_in;
    out["k_minus"] = b.guess_set.bottom_out;
  }
  // The f-DP bound (Gaussian trade-off shape; audit/fdp_one_run_bound.h): None when delta = 0.
  out["fdp_epsilon_lower_bound"] =
      b.fdp ? py::object(py::float_(b.fdp->epsilon_lower_bound)) : py::object(py::none());
  out["fdp_ceiling"] = b.fdp ? py::object(py::float_(b.fdp->ceiling)) : py::object(py::none());
  if (b.fdp) {
    out["fdp_guesses"] = b.fdp->counts.guesses;
    out["fdp_correct"] = b.fdp->counts.correct;
    if (with_guess_set) {
      out["fdp_k_plus"] = b.fdp->guess_set.top_in;
      out["fdp_k_minus"] = b.fdp->guess_set.bottom_out;
    }
  }
  return out;
}

// audit_bound(canaries=, guesses=, correct=, ...) or audit_bound(scores=, included=, ...).
py::dict audit_bound(py::object canaries, py::object guesses, py::object correct, py::object scores,
                     py::object included, double delta, double confidence, py::object guess_sets) {
  const bool from_counts = !canaries.is_none() || !guesses.is_none() || !correct.is_none();
  const bool from_scores = !scores.is_none() || !included.is_none();
  if (from_counts == from_scores) {
    throw Error(
        "audit_bound: give either canaries, guesses and correct (the counts of one guess set) or "
        "scores and included (the canaries' scores and whether each was included)");
  }
  if (from_counts) {
    if (canaries.is_none() || guesses.is_none() || correct.is_none())
      throw Error("audit_bound: canaries, guesses and correct go together");
    const int sets = guess_sets.is_none() ? 1 : guess_sets.cast<int>();
    const audit::GuessCounts counts{canaries.cast<std::int64_t>(), guesses.cast<std::int64_t>(),
                                    correct.cast<std::int64_t>()};
    return bound_dict(audit::bound_of_counts(counts, delta, confidence, sets), false);
  }
  if (scores.is_none() || included.is_none())
    throw Error("audit_bound: scores and included go together");
  const auto score_array = py::array_t<double, py::array::c_style | py::array::forcecast>(scores);
  const auto included_array =
      py::array_t<bool, py::array::c_style | py::array::forcecast>(included);
  if (score_array.ndim() != 1 || included_array.ndim() != 1)
    throw Error("audit_bound: scores and included must be 1-D arrays");
  const std::vector<double> s(score_array.data(), score_array.data() + score_array.size());
  const std::vector<bool> in(included_array.data(), included_array.data() + included_array.size());
  std::vector<audit::GuessSet> sets;
  if (guess_sets.is_none()) {
    sets = audit::default_guess_sets(static_cast<std::int64_t>(s.size()));
  } else {
    for (const auto& pair : guess_sets) {
      const auto kk = pair.cast<std::pair<std::int64_t, std::int64_t>>();
      sets.push_back({kk.first, kk.second});
    }
  }
  return bound_dict(audit::best_bound_over_guess_sets(s, in, sets, delta, confidence), true);
}

}  // namespace

void add_accounting_functions(py::module_& m) {
  m.def("account", &account,
        R"(The privacy of one DP-SGD run or of a search, as `dplab-cli account` prints it.

Keywords are account's flags with '_' for '-': noise_multiplier, sampling_rate, steps, delta
(required); candidates, selection ("none", "ma", "lt", "ps"), gamma, delta2, conversion,
lt_log_base, lt_integer_hard_stop=True, ps_distribution ("poisson", "tnb"), ps_mu, ps_eta, ps_gamma,
tuning_fraction, final_data, subset_batching, accountant ("rdp", "pld"), pld_precision.
Returns account's JSON object as a dict; sweep_candidates=(A, B) or sweep_tuning_fraction=True
return the sweep's table as {column: numpy array}.)");
  m.def(
      "calibrate", &calibrate,
      R"(The smallest noise multiplier reaching a target (epsilon, delta), as `dplab-cli calibrate`.

Keywords: epsilon, delta, sampling_rate, steps (required); conversion, accountant, pld_precision.
Returns calibrate's JSON object as a dict (noise_multiplier, the epsilon it achieves, ...).)");
  m.def("selection_epsilon", &selection_epsilon,
        R"(The epsilon of a selection: account(...)["epsilon"] (inf when it is not finite).

selection="ma" (K candidates composed), "lt" (Liu-Talwar), "ps" (Papernot-Steinke; with
tuning_fraction the private-subsampled procedure) or "none", with account()'s keywords. Any one or
more keywords given as 1-D arrays of one length are swept together: the result is then a numpy
array of epsilons.)");
  m.def("audit_bound", &audit_bound, py::kw_only(), py::arg("canaries") = py::none(),
        py::arg("guesses") = py::none(), py::arg("correct") = py::none(),
        py::arg("scores") = py::none(), py::arg("included") = py::none(), py::arg("delta") = 0.0,
        py::arg("confidence") = 0.95, py::arg("guess_sets") = py::none(),
        R"(The one-run audit's lower bound on epsilon (Steinke, Nasr & Jagielski 2023).

From counts: canaries m, guesses r, correct v of the chosen guess set, guess_sets = K, the number of
pre-declared sets it was chosen from (Bonferroni: each at confidence 1 - beta / K; default 1).
From scores: scores (higher = more likely included) and included (bool) of the m canaries;
guess_sets = [(k_plus, k_minus), ...] pre-declared before the scores were seen (default: dplab's
own set for m). Returns epsilon_lower_bound, pure_epsilon_lower_bound, ceiling and the counts, and
with delta > 0 the f-DP bound on the same guesses (Mahloujifar, Melis & Chaudhuri 2025; valid under
the hypothesis that the run's trade-off curve is Gaussian): fdp_epsilon_lower_bound, fdp_ceiling,
fdp_guesses, fdp_correct (and fdp_k_plus, fdp_k_minus from scores); None at delta = 0.)");
}

}  // namespace dplab::python
