// The Playground's engine (issue #27): data generators (sizes, labels by each shape's rule,
// seeds, label noise, minority cluster, outlier), the tanh layer and Model::logits it needs, the
// DP step explained (clipped gradients of norm <= C, the sum and the noise the oracle used, the
// update), determinism however the steps are chunked, epsilon = the accountant for the same
// setting, the ledger's epsilon = tuning::release_cost for K candidates, and the settings JSON.
#include <QTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/error.h"
#include "models/conv_network.h"
#include "models/network_description.h"
#include "playground/playground_data.h"
#include "playground/playground_ledger.h"
#include "playground/playground_lesson.h"
#include "playground/playground_session.h"
#include "playground/playground_state.h"
#include "privacy/accounting/accountant_choice.h"
#include "privacy/selection/private_selection.h"
#include "support/expect_error.h"
#include "support/layer_gradient_check.h"
#include "support/numeric_compare.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "tuning/release_cost.h"

using namespace dplab;
using namespace dplab::playground;
using dplab::testing::error_of;

namespace {

PlaygroundSettings small_settings() {
  PlaygroundSettings s;
  s.data.shape = DataShape::kGaussians;
  s.data.num_points = 300;
  s.data.seed = 5;
  s.training.steps = 60;
  s.training.lot_size = 40;
  s.training.seed = 9;
  return s;
}

// release_cost of a private search of k candidates of (sigma, q, T), built here independently.
double release_cost_of(experiment::PrivateSelection selection, double sigma, double q,
                       std::int64_t steps, int k, double delta) {
  tuning::SearchResults plan;
  plan.config.release.mode = experiment::ReleaseMode::kPrivate;
  plan.config.release.selection = selection;
  plan.config.release.ps_mu = k;
  plan.candidates.resize(static_cast<std::size_t>(k));
  plan.mechanism = {sigma, q, steps, delta};
  return tuning::release_cost(plan).epsilon;
}

}  // namespace

class TestPlayground : public QObject {
  Q_OBJECT

 private slots:
  void generatorsHaveTheirSizesAndRules();
  void generatorsAreSeeded();
  void labelNoiseMinorityAndOutlier();
  void badDataOptionsNameTheField();
  void tanhLayerGradientMatchesFiniteDifferences();
  void logitsAgreeWithTheLoss();
  void clippedGradientsHaveNormAtMostC();
  void theStepAddsUpToTheUpdate();
  void fractionClippedFollowsC();
  void sameSeedSameParametersHoweverChunked();
  void sameParametersOnOneOrTwoThreads();
  void trainingLearnsAndTheFieldFollows();
  void epsilonEqualsTheAccountant();
  void ledgerEqualsReleaseCostForKCandidates();
  void ledgerWithDifferentSettingsIsBoundedSafely();
  void settingsJsonRoundTrips();
  void shippedLessonsParseAndTrain();
  void badLessonsNameTheKey();
  void badSettingsAndStatesAreRefusedWithBoundedMessages();
};

void TestPlayground::generatorsHaveTheirSizesAndRules() {
  for (DataShape shape : kAllDataShapes) {
    DataOptions o;
    o.shape = shape;
    o.num_points = 500;
    o.test_fraction = 0.3;
    const PlaygroundData d = make_playground_data(o);
    QCOMPARE(d.train.size() + d.test.size(), Index{500});
    QCOMPARE(d.test.size(), Index{150});
    QCOMPARE(d.outlier_index, Index{-1});
    Index ones = 0;
    for (const PointSet* set : {&d.train, &d.test}) {
      for (Index i = 0; i < set->size(); ++i) {
        const float label = set->labels[i];
        QVERIFY(label == 0.f || label == 1.f);
        ones += label == 1.f;
        const double x = set->xy(i, 0), y = set->xy(i, 1);
        // Each shape's rule (no label noise).
        if (shape == DataShape::kXor) QCOMPARE(label == 1.f, x * y > 0);
        if (shape == DataShape::kCircles) QCOMPARE(label == 1.f, std::hypot(x, y) > 0.55);
      }
    }
    QCOMPARE(ones, Index{250});  // classes alternate
    if (shape == DataShape::kGaussians) {
      // Class means near (+-0.5, +-0.5).
      double mean1 = 0;
      for (Index i = 0; i < d.train.size(); ++i)
        if (d.train.labels[i] == 1.f) mean1 += d.train.xy(i, 0) + d.train.xy(i, 1);
      QVERIFY(mean1 > 0);
    }
  }
}

void TestPlayground::generatorsAreSeeded() {
  DataOptions o;
  o.shape = DataShape::kSpiral;
  o.seed = 3;
  const PlaygroundData a = make_playground_data(o), b = make_playground_data(o);
  QVERIFY(a.train.xy == b.train.xy);
  QVERIFY(a.test.labels == b.test.labels);
  o.seed = 4;
  const PlaygroundData c = make_playground_data(o);
  QVERIFY(!(a.train.xy == c.train.xy));
}

void TestPlayground::labelNoiseMinorityAndOutlier() {
  DataOptions o;
  o.shape = DataShape::kXor;
  o.num_points = 2000;
  o.label_noise = 0.2;
  const PlaygroundData d = make_playground_data(o);
  Index flipped = 0;
  for (const PointSet* set : {&d.train, &d.test})
    for (Index i = 0; i < set->size(); ++i)
      flipped += (set->labels[i] == 1.f) != (set->xy(i, 0) * set->xy(i, 1) > 0);
  // Binomial(2000, 0.2): mean 400, sd ~ 18; 5 sd either side.
  QVERIFY2(flipped > 310 && flipped < 490, qPrintable(QString::number(flipped)));

  o.label_noise = 0;
  o.minority_fraction = 0.05;
  o.outlier = OutlierPoint{0.9, -0.9, 1};
  const PlaygroundData m = make_playground_data(o);
  QCOMPARE(m.train.size() + m.test.size(), Index{2001});
  QCOMPARE(m.outlier_index, m.train.size() - 1);
  QCOMPARE(m.train.xy(m.outlier_index, 0), 0.9f);
  QCOMPARE(m.train.labels[m.outlier_index], 1.f);
  Index minority = 0;
  for (const PointSet* set : {&m.train, &m.test})
    for (Index i = 0; i < set->size(); ++i) {
      if (set->groups[static_cast<std::size_t>(i)] != 1) continue;
      ++minority;
      QCOMPARE(set->labels[i], 1.f);
      QVERIFY(std::hypot(set->xy(i, 0) + 0.75, set->xy(i, 1) - 0.35) < 0.5);
    }
  QCOMPARE(minority, Index{100});
}

void TestPlayground::badDataOptionsNameTheField() {
  DataOptions o;
  o.num_points = 20;
  QVERIFY(error_of<InvalidArgument>([&] { make_playground_data(o); }).contains("data.num_points"));
  o.num_points = 100;
  o.label_noise = 0.7;
  QVERIFY(error_of<InvalidArgument>([&] { make_playground_data(o); }).contains("data.label_noise"));
  PlaygroundSettings s = small_settings();
  s.model.hidden = {4, 9};
  QVERIFY(
      error_of<InvalidArgument>([&] { PlaygroundSession session(s); }).contains("model.hidden[1]"));
  s = small_settings();
  s.training.lot_size = 1000;
  QVERIFY(error_of<InvalidArgument>([&] {
            PlaygroundSession session(s);
          }).contains("training.lot_size"));
}

void TestPlayground::tanhLayerGradientMatchesFiniteDifferences() {
  const std::string json = R"({"name": "t", "input": [1, 1, 3], "layers": [
      {"type": "dense", "units": 5}, {"type": "tanh"}, {"type": "dense", "units": 4},
      {"type": "tanh"}, {"type": "dense", "units": 2}]})";
  auto net = models::make_network(json, 3, 2);
  net->initialize(7);
  QVERIFY(net->description().find("tanh") != std::string::npos);
  Rng rng(11);
  Matrix x(12, 3);
  Vector y(12);
  for (Index i = 0; i < 12; ++i) {
    for (Index j = 0; j < 3; ++j) x(i, j) = static_cast<float>(2 * rng.uniform() - 1);
    y[i] = static_cast<float>(i % 2);
  }
  const auto check = test::check_layer_gradients(*net, x, y, rng);
  QVERIFY2(check.failure.empty(), check.failure.c_str());
  QCOMPARE(check.checked, 3);
}

void TestPlayground::logitsAgreeWithTheLoss() {
  // -log p(y_i) from logits() must be the model's own per-example loss (two code paths: float
  // rounding, tolerance 1e-4 relative).
  for (bool network : {false, true}) {
    PlaygroundSettings s = small_settings();
    if (network) s.model.hidden = {6, 3};
    s.model.features.xy = true;
    s.training.is_private = false;
    PlaygroundSession session(s);
    session.step(20);
    const Matrix features = expand_features(session.data()->test.xy, s.model.features);
    const Vector& labels = session.data()->test.labels;
    auto model = models::make_model(
        network ? models::ModelSpec{models::ModelKind::kCustom, 100,
                                    R"({"name": "p", "input": [1, 1, 3], "layers": [
        {"type": "dense", "units": 6}, {"type": "tanh"}, {"type": "dense", "units": 3},
        {"type": "tanh"}, {"type": "dense", "units": 2}]})"}
                : models::ModelSpec{},
        3, 2);
    model->params() = session.parameters();
    Matrix logits;
    model->logits(features, logits);
    QCOMPARE(logits.rows(), features.rows());
    QCOMPARE(logits.cols(), Index{network ? 2 : 1});
    for (Index i = 0; i < 10; ++i) {
      const double z = logits.cols() == 1 ? logits(i, 0) : logits(i, 1) - logits(i, 0);
      const double p1 = 1 / (1 + std::exp(-z));
      const double from_logits = -std::log(labels[i] == 1.f ? p1 : 1 - p1);
      const double loss = model->loss_sum(features.middleRows(i, 1), labels.segment(i, 1));
      DPLAB_COMPARE_REL(from_logits, loss, 1e-4);
    }
  }
}

void TestPlayground::clippedGradientsHaveNormAtMostC() {
  for (double clip : {0.05, 0.3, 1.0}) {
    PlaygroundSettings s = small_settings();
    s.model.hidden = {8, 8};
    s.training.clip = clip;
    PlaygroundSession session(s);
    session.step(7);
    for (int a : {0, 5}) {
      session.set_projection(a, a + 3);
      const StepPicture& p = session.picture();
      QCOMPARE(p.step, std::int64_t{7});
      QVERIFY(!p.clipped.empty());
      QCOMPARE(p.clipped.size(), p.lot.size());
      for (std::size_t i = 0; i < p.clipped.size(); ++i) {
        QVERIFY(std::hypot(p.clipped[i].x, p.clipped[i].y) <= clip * (1 + 1e-6));
        // Unclipped examples keep their gradient.
        if (p.norms[i] <= clip) QCOMPARE(p.clipped[i].x, p.gradients[i].x);
      }
    }
  }
}

void TestPlayground::theStepAddsUpToTheUpdate() {
  // DPSGD: update = -alpha (S + Z) / L, with S the sum of the drawn clipped gradients (row by row
  // vs the batched oracle call: float rounding, tolerance 1e-4 of the scale).
  PlaygroundSettings s = small_settings();
  s.training.clip = 0.2;
  s.training.noise_multiplier = 2.0;
  s.training.learning_rate = 0.3;
  PlaygroundSession session(s);
  session.step(5);
  const StepPicture& p = session.picture();
  Vec2 sum;
  for (const Vec2& c : p.clipped) {
    sum.x += c.x;
    sum.y += c.y;
  }
  const double scale = s.training.clip * static_cast<double>(p.lot.size()) + 1e-9;
  DPLAB_COMPARE_ABS(sum.x, p.clipped_sum.x, 1e-4 * scale);
  DPLAB_COMPARE_ABS(sum.y, p.clipped_sum.y, 1e-4 * scale);
  QVERIFY(std::hypot(p.noise.x, p.noise.y) > 0);
  const double k = -s.training.learning_rate / s.training.lot_size;
  DPLAB_COMPARE_ABS(p.update.x, k * (p.clipped_sum.x + p.noise.x), 1e-5);
  DPLAB_COMPARE_ABS(p.update.y, k * (p.clipped_sum.y + p.noise.y), 1e-5);
  QCOMPARE(p.noise_std, 0.4);
  // SNR = ||S|| / (sigma C sqrt(d)) is positive and finite; without privacy there is no noise.
  QVERIFY(p.signal_to_noise > 0 && std::isfinite(p.signal_to_noise));
  PlaygroundSession shadow(non_private_shadow(s), session.data());
  shadow.step(5);
  QCOMPARE(shadow.picture().noise.x, 0.0);
  QCOMPARE(shadow.picture().fraction_clipped, 0.0);
  QVERIFY(std::isinf(shadow.epsilon(privacy::Accountant::kRdp)));
}

void TestPlayground::fractionClippedFollowsC() {
  PlaygroundSettings s = small_settings();
  s.training.clip = 1e-4;
  PlaygroundSession tiny(s);
  tiny.step(3);
  QCOMPARE(tiny.picture().fraction_clipped, 1.0);
  s.training.clip = 1e4;
  PlaygroundSession huge(s);
  huge.step(3);
  QCOMPARE(huge.picture().fraction_clipped, 0.0);
}

void TestPlayground::sameSeedSameParametersHoweverChunked() {
  PlaygroundSettings s = small_settings();
  s.model.hidden = {8, 8};
  s.training.optimizer = OptimizerChoice::kDpAdam;
  s.training.learning_rate = 0.05;
  PlaygroundSession one(s), chunked(s);
  QCOMPARE(one.step(37), std::int64_t{37});
  chunked.step(10);
  chunked.step(20);
  chunked.step(7);
  QVERIFY(one.parameters() == chunked.parameters());  // same code path: bit for bit
  QCOMPARE(one.history().size(), chunked.history().size());
  s.training.seed = 10;
  PlaygroundSession other(s);
  other.step(37);
  QVERIFY(!(one.parameters() == other.parameters()));
  // The run stops at T.
  QCOMPARE(one.step(1000), std::int64_t{s.training.steps - 37});
  QVERIFY(one.finished());
  QCOMPARE(one.history().back().step, s.training.steps);
}

// Issue #49: the lot's work split over 2 threads gives the 1-thread run's parameters bit for bit
// (a lot of ~200 rows is 2 fixed chunks, models/batch_parallel_model.h), and the thread count
// never makes two settings differ.
void TestPlayground::sameParametersOnOneOrTwoThreads() {
  PlaygroundSettings s = small_settings();
  s.data.num_points = 600;
  s.model.hidden = {8};
  s.training.lot_size = 250;
  s.training.steps = 20;
  PlaygroundSession one(s);
  PlaygroundSettings two_threads = s;
  two_threads.training.threads.count = 2;
  QVERIFY(two_threads == s);
  PlaygroundSession two(two_threads);
  one.step(20);
  two.step(20);
  QVERIFY(one.parameters().norm() > 0);
  QVERIFY(one.parameters() == two.parameters());  // same chunks, another thread count
  QCOMPARE(one.picture().clipped_sum.x, two.picture().clipped_sum.x);
  QCOMPARE(one.picture().clipped_sum.y, two.picture().clipped_sum.y);
  two_threads.training.threads.count = 9;
  QVERIFY(error_of<InvalidArgument>([&] { validate(two_threads); }).contains("training.threads"));
}

void TestPlayground::trainingLearnsAndTheFieldFollows() {
  PlaygroundSettings s = small_settings();
  s.training.steps = 200;
  for (OptimizerChoice opt :
       {OptimizerChoice::kDpSgd, OptimizerChoice::kDpMomentum, OptimizerChoice::kDpAdam}) {
    s.training.optimizer = opt;
    s.training.learning_rate = opt == OptimizerChoice::kDpAdam ? 0.05 : 0.5;
    if (opt == OptimizerChoice::kDpMomentum) s.training.learning_rate = 0.05;
    PlaygroundSession session(s);
    session.step(200);
    QVERIFY2(session.history().back().test_accuracy > 0.85,
             qPrintable(QString::fromStdString(to_string(opt)) + " " +
                        QString::number(session.history().back().test_accuracy)));
    const DecisionField field = session.decision_field(100);
    QCOMPARE(field.probability.size(), std::size_t{10000});
    QVERIFY(field.probability[99] > 0.5f);    // top right: class 1
    QVERIFY(field.probability[9900] < 0.5f);  // bottom left: class 0
  }
}

void TestPlayground::epsilonEqualsTheAccountant() {
  PlaygroundSettings s = small_settings();
  s.training.noise_multiplier = 1.3;
  s.training.delta = 1e-4;
  PlaygroundSession session(s);
  const Index n = session.data()->train.size();
  QCOMPARE(n, Index{210});
  const privacy::SubsampledGaussian run{1.3, 40.0 / 210.0, 60};
  for (auto accountant : {privacy::Accountant::kRdp, privacy::Accountant::kPld}) {
    const double expected = privacy::run_epsilon(run, 1, 1e-4, accountant).epsilon;
    QCOMPARE(session.epsilon(accountant), expected);  // same function, same inputs
  }
  DPLAB_COMPARE_REL(session.epsilon(privacy::Accountant::kRdp),
                    privacy::epsilon_for_delta(run, 1e-4).epsilon, 1e-12);
  QCOMPARE(session.epsilon_spent(privacy::Accountant::kRdp), 0.0);
  session.step(30);
  QCOMPARE(session.epsilon_spent(privacy::Accountant::kRdp),
           privacy::epsilon_for_delta({1.3, 40.0 / 210.0, 30}, 1e-4).epsilon);
}

void TestPlayground::ledgerEqualsReleaseCostForKCandidates() {
  PlaygroundLedger ledger;
  PlaygroundSettings s = small_settings();
  const Index n = 210;
  const double q = 40.0 / 210.0;
  using experiment::PrivateSelection;
  for (int k = 1; k <= 6; ++k) {
    s.training.learning_rate = 0.1 * k;  // a new setting, same mechanism
    ledger.record(s, n);
    ledger.record(s, n);  // the same setting twice is one candidate
    PlaygroundSettings other_delta = s;
    other_delta.training.delta = 1e-3;  // delta changes no run
    ledger.record(other_delta, n);
    const LedgerCost cost = ledger.cost(s, n);
    QCOMPARE(cost.settings, k);
    QVERIFY(!cost.dominated);
    QCOMPARE(cost.ma, release_cost_of(PrivateSelection::kMa, 1.0, q, 60, k, 1e-5));
    QCOMPARE(cost.ma, privacy::moments_accountant_selection({1.0, q, 60}, k, 1e-5).epsilon);
    if (k >= 2) {
      QCOMPARE(cost.lt, release_cost_of(PrivateSelection::kLt, 1.0, q, 60, k, 1e-5));
      QCOMPARE(cost.ps, release_cost_of(PrivateSelection::kPs, 1.0, q, 60, k, 1e-5));
    }
    QCOMPARE(cost.current_epsilon, privacy::epsilon_for_delta({1.0, q, 60}, 1e-5).epsilon);
  }
  const LedgerCost six = ledger.cost(s, n);
  QVERIFY(six.ma > six.current_epsilon);
  QVERIFY(QString::fromStdString(ledger_sentence(six)).startsWith("You tried 6 settings"));
  // LT / PS price a private selection the student did not run, not the runs they saw (#42).
  QVERIFY(QString::fromStdString(ledger_sentence(six))
              .contains("A private selection over these settings (random stopping, only its "
                        "winner shown) would cost LT "));
  // Another data set has its own count; reset empties the ledger.
  PlaygroundSettings circles = s;
  circles.data.shape = DataShape::kCircles;
  QCOMPARE(ledger.cost(circles, n).settings, 0);
  ledger.reset();
  QCOMPARE(ledger.cost(s, n).settings, 0);
}

void TestPlayground::ledgerWithDifferentSettingsIsBoundedSafely() {
  PlaygroundLedger ledger;
  PlaygroundSettings a = small_settings(), b = small_settings();
  b.training.noise_multiplier = 2.0;
  b.training.steps = 120;
  ledger.record(a, 210);
  ledger.record(b, 210);
  const LedgerCost cost = ledger.cost(a, 210);
  QVERIFY(cost.dominated);
  const privacy::SubsampledGaussian runs[] = {{1.0, 40.0 / 210, 60}, {2.0, 40.0 / 210, 120}};
  QCOMPARE(cost.ma, privacy::runs_epsilon(runs, 1e-5, privacy::Accountant::kRdp).epsilon);
  QVERIFY(cost.ma > privacy::epsilon_for_delta(runs[0], 1e-5).epsilon);
  // LT on (sigma 1, T 120) for both: at least LT of a's own mechanism.
  QCOMPARE(cost.lt,
           release_cost_of(experiment::PrivateSelection::kLt, 1.0, 40.0 / 210, 120, 2, 1e-5));
  PlaygroundSettings open = a;
  open.training.is_private = false;
  ledger.record(open, 210);
  QVERIFY(std::isinf(ledger.cost(a, 210).ma));
}

void TestPlayground::settingsJsonRoundTrips() {
  PlaygroundSettings s = small_settings();
  s.data.outlier = OutlierPoint{0.1234567890123, -0.75, 1};
  s.data.minority_fraction = 0.1;
  s.model.hidden = {3, 7};
  s.model.activation = HiddenActivation::kRelu;
  s.model.features.y_squared = true;
  s.training.optimizer = OptimizerChoice::kDpMomentum;
  s.training.learning_rate = 0.123456789012345;
  s.training.delta = 3e-6;
  const auto text = settings_to_json(s).dump();
  QVERIFY(settings_from_json(nlohmann::json::parse(text)) == s);
  // Partial files keep the base; errors name the key path.
  const PlaygroundSettings partial =
      settings_from_json(nlohmann::json::parse(R"({"training": {"clip": 0.25}})"), s);
  QCOMPARE(partial.training.clip, 0.25);
  QCOMPARE(partial.model.hidden, s.model.hidden);
  QVERIFY(error_of<ParseError>([&] {
            settings_from_json(nlohmann::json::parse(R"({"training": {"clipp": 1}})"));
          }).contains("training.clipp"));
  QVERIFY(error_of<ParseError>([&] {
            settings_from_json(nlohmann::json::parse(R"({"data": {"num_points": 5}})"));
          }).contains("data.num_points"));
  QVERIFY(run_identity(s) != run_identity(partial));
  PlaygroundSettings d = s;
  d.training.delta = 0.01;
  QCOMPARE(run_identity(d), run_identity(s));
}

void TestPlayground::shippedLessonsParseAndTrain() {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(dplab::testing::source_dir()) / "resources" / "lessons";
  int count = 0;
  std::set<std::string> pictures;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const Lesson lesson = parse_lesson(text.str(), entry.path().filename().string());
    QVERIFY(!lesson.title.empty() && !lesson.question.empty() && !lesson.source.empty());
    pictures.insert(lesson.picture);
    // Each lesson's setting trains (a few steps).
    PlaygroundSession session(lesson.settings);
    QCOMPARE(session.step(3), std::int64_t{3});
    ++count;
  }
  QVERIFY(count >= 5);
  QVERIFY(pictures.size() >= 3);
}

void TestPlayground::badLessonsNameTheKey() {
  const auto error = [](const std::string& text) {
    return error_of<ParseError>([&] { parse_lesson(text, "l.json"); });
  };
  const std::string ok = R"("title": "t", "text": "x", "question": "q", "source": "s")";
  QVERIFY(error("{" + ok + "}") == "<no exception>");
  QVERIFY(error("{" + ok + R"(, "locked": ["sigmaa"]})").contains("l.json: locked[0]"));
  QVERIFY(error("{" + ok + R"(, "picture": "x"})").contains("picture"));
  QVERIFY(
      error("{" + ok + R"(, "settings": {"training": {"clip": -1}}})").contains("training.clip"));
  QVERIFY(error(R"({"title": "t"})").contains("text"));
  // A pinned first setting: the lesson's settings with its changes, a short label.
  const Lesson pinned = parse_lesson("{" + ok + R"(, "settings": {"training": {"clip": 0.5}},
      "pinned": {"label": "σ = 3, pinned", "settings": {"training": {"noise_multiplier": 3}}}})",
                                     "l.json");
  QVERIFY(pinned.pinned.has_value());
  QCOMPARE(pinned.pinned->label, std::string("σ = 3, pinned"));
  QCOMPARE(pinned.pinned->settings.training.noise_multiplier, 3.0);
  QCOMPARE(pinned.pinned->settings.training.clip, 0.5);  // the lesson's, unchanged
  QVERIFY(!parse_lesson("{" + ok + "}", "l.json").pinned.has_value());
  QVERIFY(error("{" + ok + R"(, "pinned": {"label": "a label of sixteen", "settings": {"training":
      {"clip": 2}}}})")
              .contains("l.json: pinned.label: must be 1 to 15 characters"));
  QVERIFY(error("{" + ok + R"(, "pinned": {"label": "p"}})").contains("pinned.settings"));
  QVERIFY(error("{" + ok + R"(, "pinned": {"label": "p", "settings": {"training": {"clip": -1}}}})")
              .contains("l.json: pinned.settings: training.clip"));
  QVERIFY(error("{" + ok + R"(, "pinned": {"label": "p", "settings": {}}})")
              .contains("nothing to compare"));
  QVERIFY(error("{" + ok +
                R"(, "pinned": {"label": "p", "settings": {"training": {"clip": 2}}, "x": 1}})")
              .contains("pinned.x"));
}

// Settings, lessons and state files read through JsonReader: unknown keys list the known ones,
// integers are read whole (never truncated), bad values appear as bounded excerpts, and every
// error is a ParseError naming the key path.
void TestPlayground::badSettingsAndStatesAreRefusedWithBoundedMessages() {
  const auto settings_error = [](const std::string& text) {
    return error_of<ParseError>([&] { settings_from_json(nlohmann::json::parse(text)); });
  };
  QCOMPARE(settings_error(R"({"model": {"hiden": [4]}})"),
           QString("model.hiden: unknown key (expected activation, features or hidden)"));
  // 4294967300 units used to become 4 (get<int> truncates), a label of 2^32 + 1 became 1.
  QVERIFY(settings_error(R"({"model": {"hidden": [4294967300]}})")
              .startsWith("model.hidden[0]: must be between"));
  QVERIFY(settings_error(R"({"data": {"outlier": {"x": 0, "y": 0, "label": 4294967297}}})")
              .startsWith("data.outlier.label: must be between"));
  // A 100 KB name is an excerpt under its key path (it used to be echoed whole, twice prefixed).
  const QString shape =
      settings_error(nlohmann::json{{"data", {{"shape", std::string(100000, 'x')}}}}.dump());
  QVERIFY2(shape.startsWith("data.shape: unknown data set \"xxx"), qPrintable(shape.left(200)));
  QVERIFY2(shape.endsWith("(expected gaussians, circles, xor or spiral)"),
           qPrintable(shape.right(200)));
  QVERIFY2(shape.size() < 200, qPrintable(QString::number(shape.size())));

  const std::string ok = R"("title": "t", "text": "x", "question": "q", "source": "s")";
  const QString knob = error_of<ParseError>([&] {
    nlohmann::json lesson = nlohmann::json::parse("{" + ok + "}");
    lesson["locked"] = nlohmann::json::array({std::string(100000, 'k')});
    parse_lesson(lesson.dump(), "l.json");
  });
  QVERIFY2(knob.startsWith("l.json: locked[0]: unknown knob \"kkk"), qPrintable(knob.left(200)));
  QVERIFY2(knob.size() < 300, qPrintable(QString::number(knob.size())));
  QCOMPARE(error_of<ParseError>([&] { parse_lesson("{" + ok + R"(, "titel": "t"})", "l.json"); }),
           QString("l.json: titel: unknown key (expected hidden, locked, picture, pinned, "
                   "question, settings, source, text or title)"));

  // State files: a mistyped marker used to escape as nlohmann::json::type_error (not a
  // dplab::Error); a ledger entry's unknown key used to be ignored.
  const std::string state = state_to_text(PlaygroundState{});
  const auto state_error = [](const nlohmann::json& j) {
    return error_of<ParseError>([&] { state_from_text(j.dump(), "s.json"); });
  };
  nlohmann::json marker = nlohmann::json::parse(state);
  marker["dplab_playground_state"] = "1";
  QCOMPARE(state_error(marker),
           QString("s.json: dplab_playground_state: expected an integer, got \"1\""));
  nlohmann::json ledger = nlohmann::json::parse(state);
  nlohmann::json entry;
  entry["setting"] = settings_to_json(PlaygroundSettings{});
  entry["best_test_acuracy"] = 0.9;
  ledger["ledger"] = nlohmann::json::array({entry});
  QCOMPARE(state_error(ledger),
           QString("s.json: ledger[0].best_test_acuracy: unknown key (expected "
                   "best_test_accuracy or setting)"));
  nlohmann::json projection = nlohmann::json::parse(state);
  projection["projection"] = {0, 4294967297};
  QVERIFY(state_error(projection).startsWith("s.json: projection[1]: must be between"));
  QCOMPARE(state_from_text(state, "s.json").steps, std::int64_t{0});  // the good file reads
}

DPLAB_TEST_GUILESS_MAIN(TestPlayground)
#include "test_playground.moc"
