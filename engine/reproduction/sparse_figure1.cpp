// Figure 1 of the sparse-DP paper: chart and verdict (see sparse_figure1.h).
#include "reproduction/sparse_figure1.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "reproduction/number_text.h"

namespace dplab::reproduction {
namespace {

using experiment::MethodCurve;
using training::WideMethod;

std::string label(WideMethod m) {
  switch (m) {
    case WideMethod::kNonPrivate:
      return "non-private";
    case WideMethod::kDpSgd:
      return "DP-SGD";
    case WideMethod::kSparseExponential:
      return "sparse EM";
    case WideMethod::kSparseVector:
      return "sparse SVT";
    case WideMethod::kSparseRandom:
      return "sparse random";
    case WideMethod::kSparseOracle:
      return "sparse top-k, no noise (not private)";
  }
  return "?";
}

const MethodCurve* find(const std::vector<MethodCurve>& curves, WideMethod m) {
  for (const auto& c : curves)
    if (c.method == m && !c.run.curve.empty()) return &c;
  return nullptr;
}

bool is_sparse(WideMethod m) {
  return m == WideMethod::kSparseExponential || m == WideMethod::kSparseVector ||
         m == WideMethod::kSparseRandom;
}

double final_train(const MethodCurve& c) {
  return c.run.curve.back().train_loss;
}
double final_test(const MethodCurve& c) {
  return c.run.curve.back().test_loss;
}
double best_test(const MethodCurve& c) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& p : c.run.curve) best = std::min(best, p.test_loss);
  return best;
}
double gap(const MethodCurve& c) {
  return final_test(c) - final_train(c);
}

}  // namespace

figures::Plot figure1_plot(const std::vector<MethodCurve>& curves, Figure1Loss loss,
                           double lot_size, std::int64_t train_examples,
                           const std::string& subtitle) {
  const bool train = loss == Figure1Loss::kTrain;
  figures::Plot plot;
  plot.title = std::string("Figure 1: ") + (train ? "training" : "test") + " loss";
  plot.subtitle = subtitle;
  plot.x_label = "epoch";
  plot.y_label = std::string(train ? "training" : "test") + " loss (mean over examples)";
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const MethodCurve& c = curves[i];
    if (c.run.curve.empty())
      throw InvalidArgument("figure 1: the " + training::to_string(c.method) +
                            " run has no loss points");
    figures::Series s;
    s.label = label(c.method);
    s.color = figures::palette(i);
    for (const auto& p : c.run.curve) {
      s.x.push_back(experiment::epoch_of_step(p.step, lot_size, train_examples));
      s.y.push_back(train ? p.train_loss : p.test_loss);
    }
    plot.series.push_back(std::move(s));
  }
  return plot;
}

ScaleCheck figure1_scale_check(const std::vector<MethodCurve>& curves) {
  ScaleCheck check;
  const MethodCurve* np = find(curves, WideMethod::kNonPrivate);
  if (!np) return check;
  check.applies = true;
  const auto& points = np->run.curve;
  const double train_drop = points.front().train_loss - final_train(*np);
  const double test_drop = points.front().test_loss - best_test(*np);
  check.learns = train_drop >= kLearnMargin && test_drop >= kHeldOutMargin;
  check.text =
      std::string("non-private ") + (check.learns ? "learns" : "does NOT learn") +
      ": start - final train = " + fixed(train_drop) + " (rule: >= " + fixed(kLearnMargin, 1) +
      "), start - best test = " + fixed(test_drop) + " (rule: >= " + fixed(kHeldOutMargin, 1) + ")";
  return check;
}

std::vector<ClaimHalf> figure1_claims(const std::vector<MethodCurve>& curves) {
  std::vector<ClaimHalf> halves;
  std::vector<const MethodCurve*> sparse;
  for (const auto& c : curves)
    if (is_sparse(c.method) && !c.run.curve.empty()) sparse.push_back(&c);
  const MethodCurve* dpsgd = find(curves, WideMethod::kDpSgd);
  const MethodCurve* np = find(curves, WideMethod::kNonPrivate);
  const MethodCurve* em = find(curves, WideMethod::kSparseExponential);
  const MethodCurve* svt = find(curves, WideMethod::kSparseVector);

  if (dpsgd && !sparse.empty()) {
    // The worst sparse method against DP-SGD, on each loss.
    double worst_train = -std::numeric_limits<double>::infinity(), worst_test = worst_train;
    for (const auto* s : sparse) {
      worst_train = std::max(worst_train, final_train(*s));
      worst_test = std::max(worst_test, final_test(*s));
    }
    const double train_margin = final_train(*dpsgd) - worst_train;
    const double test_margin = final_test(*dpsgd) - worst_test;
    halves.push_back({"sparse below DP-SGD",
                      "DP-SGD - worst sparse = " + fixed(train_margin) + " train, " +
                          fixed(test_margin) + " test (rule: both > 0)",
                      train_margin > 0 && test_margin > 0});
  }
  if (!sparse.empty()) {
    double least_drop = std::numeric_limits<double>::infinity();
    std::string least;
    for (const auto* s : sparse) {
      const double drop = s->run.curve.front().test_loss - final_test(*s);
      if (drop < least_drop) {
        least_drop = drop;
        least = training::to_string(s->method);
      }
    }
    halves.push_back({"sparse DP learns",
                      "start - final test = " + fixed(least_drop) + " (" + least +
                          ", the least; rule: >= " + fixed(kHeldOutMargin, 1) + ")",
                      least_drop >= kHeldOutMargin});
  }
  if (em && svt) {
    const double train_margin = final_train(*svt) - final_train(*em);
    const double test_margin = final_test(*svt) - final_test(*em);
    halves.push_back({"EM below SVT",
                      "SVT - EM = " + fixed(train_margin, 4) + " train, " + fixed(test_margin, 4) +
                          " test (rule: both > 0)",
                      train_margin > 0 && test_margin > 0});
  }
  double next_train = std::numeric_limits<double>::infinity(), next_test = next_train;
  for (const auto& c : curves) {
    if (&c == np || c.run.curve.empty() || c.method == WideMethod::kSparseOracle) continue;
    next_train = std::min(next_train, final_train(c));
    next_test = std::min(next_test, final_test(c));
  }
  if (np && std::isfinite(next_train)) {  // a DP method to compare with
    const double train_margin = next_train - final_train(*np);
    const double test_margin = next_test - final_test(*np);
    halves.push_back({"non-private best",
                      "best other - non-private = " + fixed(train_margin) + " train, " +
                          fixed(test_margin) + " test (rule: both > 0)",
                      train_margin > 0 && test_margin > 0});
  }
  if (np && (dpsgd || !sparse.empty())) {
    double widest = 0;
    for (const auto& c : curves)
      if (c.method != WideMethod::kNonPrivate && c.method != WideMethod::kSparseOracle &&
          !c.run.curve.empty())
        widest = std::max(widest, std::abs(gap(c)));
    halves.push_back(
        {"non-private gap huge, DP gaps small",
         "non-private gap = " + fixed(gap(*np)) + " (rule: >= " + fixed(kLearnMargin, 1) +
             "), widest DP |gap| = " + fixed(widest) + " (rule: <= " + fixed(kSmallGap, 1) + ")",
         gap(*np) >= kLearnMargin && widest <= kSmallGap});
  }
  return halves;
}

OracleCheck figure1_oracle_check(const std::vector<MethodCurve>& curves) {
  OracleCheck check;
  const MethodCurve* oracle = find(curves, WideMethod::kSparseOracle);
  if (!oracle) return check;
  check.applies = true;
  const auto& points = oracle->run.curve;
  const double test_drop = points.front().test_loss - final_test(*oracle);
  check.learns = test_drop >= kHeldOutMargin;
  check.text =
      std::string(
          "exact top-k, no noise (the bound on any selection and noise at these settings) ") +
      (check.learns ? "learns" : "does NOT learn") + ": start - final test = " + fixed(test_drop) +
      ", start - best test = " + fixed(points.front().test_loss - best_test(*oracle)) +
      " (rule: final >= " + fixed(kHeldOutMargin, 1) + ")" +
      (check.learns ? ""
                    : "; so no private selection can make sparse DP learn at these gamma, "
                      "learning rate and T");
  return check;
}

}  // namespace dplab::reproduction
