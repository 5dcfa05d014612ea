// Tests of engine/objective_perturbation/{clipped_glm_loss, glm_data, perturbed_objective, solver,
// algorithm1}: derivatives against finite differences, the clipped gradient bound, the solvers
// reaching ||grad|| <= tau on logistic and squared losses, a hand-computed gradient-descent step,
// the strong-convexity premise of Theorem 4.1, and Algorithm 1's seeding and refusal to release.
#include <QTest>
#include <cmath>

#include "core/error.h"
#include "core/random.h"
#include "objective_perturbation/algorithm1.h"
#include "objective_perturbation/clipped_glm_loss.h"
#include "objective_perturbation/glm_data.h"
#include "objective_perturbation/perturbed_objective.h"
#include "objective_perturbation/solver.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab::objpert;

namespace {

// n rows, d features in [0, 1), a noisy linear teacher for the label.
dplab::data::Dataset toy(dplab::Index n, dplab::Index d, bool regression, std::uint64_t seed) {
  dplab::Rng rng(seed);
  dplab::data::Dataset data;
  data.name = "toy";
  data.features.resize(n, d);
  data.targets.resize(n);
  data.num_classes = regression ? 0 : 2;
  for (dplab::Index i = 0; i < n; ++i) {
    double score = -0.3 * d;
    for (dplab::Index j = 0; j < d; ++j) {
      data.features(i, j) = static_cast<float>(rng.uniform());
      score += (j % 2 ? 1.0 : 0.5) * data.features(i, j);
    }
    score += 0.3 * (rng.uniform() - 0.5);
    data.targets(i) = regression ? static_cast<float>(std::tanh(score)) : (score > 0 ? 1.f : 0.f);
  }
  return data;
}

Eigen::VectorXd random_vector(Eigen::Index d, double scale, std::uint64_t seed) {
  dplab::Rng rng(seed);
  Eigen::VectorXd v(d);
  for (Eigen::Index j = 0; j < d; ++j) v(j) = scale * (2 * rng.uniform() - 1);
  return v;
}

}  // namespace

class TestObjpertSolver : public QObject {
  Q_OBJECT

 private slots:
  void clipped_loss_derivative_matches_finite_differences() {
    for (GlmLoss loss : {GlmLoss::kLogistic, GlmLoss::kSquared})
      for (double c : {0.2, 0.7, 1.0, 4.5})
        for (double y : {-1.0, 1.0})
          for (double u : {-4.0, -1.3, -0.2, 0.1, 0.9, 3.7}) {
            const double h = 1e-6;
            const double fd =
                (clipped_loss(loss, u + h, y, c).value - clipped_loss(loss, u - h, y, c).value) /
                (2 * h);
            const LossValue l = clipped_loss(loss, u, y, c);
            DPLAB_COMPARE_ABS(l.derivative, fd, 1e-7);
            QVERIFY(std::abs(l.derivative) <= c * (1 + 1e-15));
          }
    // Unclipped logistic: f(0) = ln 2, f'(0) = -y/2.
    DPLAB_COMPARE_REL(clipped_loss(GlmLoss::kLogistic, 0.0, 1.0, 10.0).value, std::log(2.0), 1e-15);
    DPLAB_COMPARE_REL(clipped_loss(GlmLoss::kLogistic, 0.0, 1.0, 10.0).derivative, -0.5, 1e-15);
    // Huber: r = 3, c = 1: 3 - 1/2.
    DPLAB_COMPARE_REL(clipped_loss(GlmLoss::kSquared, 3.5, 0.5, 1.0).value, 2.5, 1e-15);
  }

  void design_rows_are_unit_norm_plus_bias() {
    const GlmData g = make_glm_data(toy(30, 4, false, 1));
    QCOMPARE(g.dim(), Eigen::Index(5));
    for (Eigen::Index i = 0; i < g.size(); ++i) {
      DPLAB_COMPARE_REL(g.x.row(i).head(4).norm(), 1.0, 1e-12);
      QCOMPARE(g.x(i, 4), 1.0);
      QVERIFY(g.y(i) == 1.0 || g.y(i) == -1.0);
    }
    DPLAB_COMPARE_REL(g.max_row_norm(), std::sqrt(2.0), 1e-12);
    DPLAB_COMPARE_REL(smoothness_of(GlmLoss::kLogistic, g), 0.5, 1e-12);
  }

  void perturbed_gradient_matches_finite_differences() {
    for (GlmLoss loss : {GlmLoss::kLogistic, GlmLoss::kSquared}) {
      const GlmData g = make_glm_data(toy(40, 5, loss == GlmLoss::kSquared, 2));
      // clip 0.6 < sqrt 2: clipping is active for part of the rows.
      PerturbedObjective objective(g, loss, 0.6, 0.7, random_vector(g.dim(), 2.0, 3));
      const Eigen::VectorXd theta = random_vector(g.dim(), 3.0, 4);
      Eigen::VectorXd grad, scratch;
      objective.evaluate(theta, grad);
      for (Eigen::Index j = 0; j < g.dim(); ++j) {
        const double h = 1e-6;
        Eigen::VectorXd plus = theta, minus = theta;
        plus(j) += h;
        minus(j) -= h;
        const double fd =
            (objective.evaluate(plus, scratch) - objective.evaluate(minus, scratch)) / (2 * h);
        DPLAB_COMPARE_ABS(grad(j), fd, 1e-5 * std::max(1.0, std::abs(fd)));
      }
    }
  }

  void solvers_reach_tau_data() {
    QTest::addColumn<int>("loss");
    QTest::addColumn<int>("solver");
    QTest::newRow("logistic_lbfgs") << int(GlmLoss::kLogistic) << int(SolverKind::kLbfgs);
    QTest::newRow("logistic_gd") << int(GlmLoss::kLogistic) << int(SolverKind::kGradientDescent);
    QTest::newRow("squared_lbfgs") << int(GlmLoss::kSquared) << int(SolverKind::kLbfgs);
    QTest::newRow("squared_gd") << int(GlmLoss::kSquared) << int(SolverKind::kGradientDescent);
  }
  void solvers_reach_tau() {
    QFETCH(int, loss);
    QFETCH(int, solver);
    const GlmLoss l = static_cast<GlmLoss>(loss);
    const GlmData g = make_glm_data(toy(400, 8, l == GlmLoss::kSquared, 5));
    const double lambda = 5.0, tau = 1e-3;
    PerturbedObjective objective(g, l, std::sqrt(2.0), lambda, random_vector(g.dim(), 3.0, 6));
    SolverOptions options;
    options.kind = static_cast<SolverKind>(solver);
    options.tau = tau;
    const SolverResult r = solve(objective, options);
    QVERIFY(r.converged);
    QVERIFY(r.iterations >= 1);
    Eigen::VectorXd grad;
    objective.evaluate(r.theta, grad);
    QVERIFY2(grad.norm() <= tau, qPrintable(QString::number(grad.norm())));
    DPLAB_COMPARE_REL(r.gradient_norm, grad.norm(), 1e-12);
    // Theorem 4.1's premise: lambda-strong convexity puts theta_hat within tau/lambda of the
    // exact minimiser (solved here to 1e-8).
    SolverOptions exact = options;
    exact.kind = SolverKind::kLbfgs;
    exact.tau = 1e-8;
    const SolverResult star = solve(objective, exact);
    QVERIFY2(star.converged, qPrintable(QString::number(star.gradient_norm)));
    QVERIFY((r.theta - star.theta).norm() <= tau / lambda);
  }

  void gradient_descent_first_step_by_hand() {
    const GlmData g = make_glm_data(toy(20, 3, false, 7));
    const Eigen::VectorXd b = random_vector(g.dim(), 1.0, 8);
    PerturbedObjective objective(g, GlmLoss::kLogistic, 10.0, 2.0, b);
    SolverOptions options;
    options.kind = SolverKind::kGradientDescent;
    options.tau = 1e-12;
    options.max_iterations = 1;
    options.learning_rate = 0.5;
    const SolverResult r = solve(objective, options);
    QCOMPARE(r.iterations, 1L);
    QVERIFY(!r.converged);
    // At theta = 0 every margin is 0, f'(0; y) = -y/2: grad = -X^T y / 2 + b.
    const Eigen::VectorXd grad0 = -0.5 * g.x.transpose() * g.y + b;
    const double eta = 0.5 / (0.25 * g.row_norm.squaredNorm() + 2.0);
    for (Eigen::Index j = 0; j < g.dim(); ++j)
      DPLAB_COMPARE_ABS(r.theta(j), -eta * grad0(j), 1e-12);
  }

  void algorithm1_is_seeded_and_refuses_to_release_unconverged() {
    const GlmData g = make_glm_data(toy(300, 6, false, 9));
    Algorithm1Settings s;
    s.noise_std = 2.0;
    s.regularization = 3.0;
    s.seed = 42;
    const Algorithm1Result a = run_algorithm1(g, s), b = run_algorithm1(g, s);
    QCOMPARE(a.theta, b.theta);
    QVERIFY(a.gradient_norm <= s.tau);
    s.seed = 43;
    QVERIFY(run_algorithm1(g, s).theta != a.theta);
    // The released model is theta_hat + N(0, sigma_out^2): not the solver's point.
    s.solver.max_iterations = 1;
    s.solver.kind = SolverKind::kGradientDescent;
    const QString message = [&] {
      try {
        run_algorithm1(g, s);
      } catch (const dplab::Error& e) {
        return QString(e.what());
      }
      return QString("<no exception>");
    }();
    QVERIFY2(message.contains("nothing released"), qPrintable(message));
    // The message names only public settings: not the data-dependent gradient norm reached.
    QVERIFY2(!message.contains("||gradient|| ="), qPrintable(message));
    QVERIFY2(message.contains("tau = 0.01") && message.contains("max_iterations = 1"),
             qPrintable(message));
    s.regularization = 0.4;  // <= beta = 0.5
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, run_algorithm1(g, s));
  }

  void multiclass_is_rejected() {
    dplab::data::Dataset d = toy(10, 2, false, 1);
    d.num_classes = 3;
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument, make_glm_data(d));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestObjpertSolver)
#include "test_objpert_solver.moc"
