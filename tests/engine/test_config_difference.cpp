// engine/experiment/config_difference.h: Compare names each overlaid run by what sets it apart.
#include <QTest>
#include <cmath>
#include <string>
#include <vector>

#include "core/error.h"
#include "experiment/config_difference.h"
#include "support/test_registry.h"

using namespace dplab::experiment;

namespace {

ExperimentConfig config(const std::string& text) {
  return parse_experiment_text(text, "test");
}

const char* kBase = R"({
  "name": "quick", "dataset": {"source": "synthetic"}, "model": {"kind": "logistic"},
  "privacy": {"noise_multiplier": 4, "lot_size": 250, "steps": 1000},
  "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5], "clip": 1}}],
  "seed": 1})";

std::string with(const std::string& from, const std::string& to) {
  std::string s = kBase;
  s.replace(s.find(from), from.size(), to);
  return s;
}

}  // namespace

class TestConfigDifference : public QObject {
  Q_OBJECT
 private slots:
  void names_sigma_and_steps_by_their_symbols() {
    const auto labels = difference_labels(
        {config(kBase), config(with(R"("noise_multiplier": 4)", R"("noise_multiplier": 2)")),
         config(with(R"("steps": 1000)", R"("steps": 500)"))});
    QCOMPARE(labels.size(), std::size_t{3});
    QCOMPARE(labels[0], std::string("σ 4 · T 1000"));
    QCOMPARE(labels[1], std::string("σ 2 · T 1000"));
    QCOMPARE(labels[2], std::string("σ 4 · T 500"));
  }

  void the_name_alone_is_no_difference() {
    const auto labels =
        difference_labels({config(kBase), config(with(R"("name": "quick")", R"("name": "x")"))});
    QCOMPARE(labels[0], std::string("same settings"));
    QCOMPARE(labels[1], std::string("same settings"));
  }

  void optimizer_settings_carry_the_optimizer_name() {
    const auto labels =
        difference_labels({config(kBase), config(with(R"([0.1, 0.5])", R"([0.1, 2])")),
                           config(with("1}}]", "3}}]"))});
    QCOMPARE(labels[0], std::string("dpsgd clip 1 · dpsgd learning_rate [0.1, 0.5]"));
    QCOMPARE(labels[1], std::string("dpsgd clip 1 · dpsgd learning_rate [0.1, 2]"));
    QCOMPARE(labels[2], std::string("dpsgd clip 3 · dpsgd learning_rate [0.1, 0.5]"));
  }

  void too_many_differences_are_counted() {
    const std::string a = with(R"("seed": 1)", R"("seed": 2)");
    std::string b = a;
    b.replace(b.find(R"("lot_size": 250)"), 15, R"("lot_size": 100)");
    b.replace(b.find(R"("steps": 1000)"), 13, R"("steps": 10)");
    b.replace(b.find(R"("noise_multiplier": 4)"), 21, R"("noise_multiplier": 1)");
    const auto labels = difference_labels({config(kBase), config(b)}, {}, 2);
    QCOMPARE(labels[0], std::string("σ 4 · T 1000 · +2 more"));
    QCOMPARE(labels[1], std::string("σ 1 · T 10 · +2 more"));
  }

  void epsilon_is_added_when_it_differs_rounded_up() {
    const auto a = config(kBase);
    const auto b = config(with(R"("noise_multiplier": 4)", R"("noise_multiplier": 2)"));
    const auto labels = difference_labels({a, b}, {0.51234, 1.5});
    QCOMPARE(labels[0], std::string("σ 4 · ε ≤ 0.52"));
    QCOMPARE(labels[1], std::string("σ 2 · ε ≤ 1.50"));
    const auto same = difference_labels({a, a}, {1.0, 1.0});
    QCOMPARE(same[0], std::string("same settings"));
    const auto unknown = difference_labels({a, a}, {1.0, std::nan("")});
    QCOMPARE(unknown[1], std::string("ε —"));
  }

  void one_run_needs_no_label_and_epsilons_must_match() {
    QCOMPARE(difference_labels({config(kBase)}), std::vector<std::string>{""});
    QVERIFY_THROWS_EXCEPTION(dplab::InvalidArgument,
                             difference_labels({config(kBase), config(kBase)}, {1.0}));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestConfigDifference)
#include "test_config_difference.moc"
