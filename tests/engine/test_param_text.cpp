// The GUI's grid text ("0.1, 1", "logspace(-4, -1, 4)", "uniform(a, b)", "loguniform(a, b)") is
// parsed by the engine through the experiment file's own JSON rules (experiment/param_text.h):
// each form gives the spec its JSON twin gives, the rules the old GUI grammar broke (num = 1 with
// low < high, num above 100000, uniform(a, a)) now agree with the file's, domain errors name the
// hyperparameter, and format_param_text round-trips.
#include <QTest>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "experiment/param_text.h"
#include "support/expect_error.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::experiment;
using nlohmann::json;
using testing::error_of;

namespace {
QString text_error(const char* text, Param param = Param::kLearningRate) {
  return error_of<ParseError>([&] { parse_param_text(text, param, param_name(param)); });
}
QString json_error(const json& j, Param param = Param::kLearningRate) {
  return error_of<ParseError>([&] { parse_param_spec(j, param, param_name(param)); });
}
}  // namespace

class TestParamText : public QObject {
  Q_OBJECT
 private slots:
  void eachFormIsItsJsonTwin_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("json");
    QTest::newRow("list") << "0.001, 0.01;0.1  1"
                          << "[0.001, 0.01, 0.1, 1]";
    QTest::newRow("one value") << " 0.5 "
                               << "0.5";
    QTest::newRow("logspace") << "logspace(-4, -1, 4)"
                              << R"({"log10": [-4, -1], "num": 4})";
    QTest::newRow("LOGSPACE, spaces") << "LogSpace ( -3 , 0 , 7 )"
                                      << R"({"log10": [-3, 0], "num": 7})";
    QTest::newRow("uniform") << "uniform(0.8, 0.99)"
                             << R"({"uniform": [0.8, 0.99]})";
    QTest::newRow("loguniform") << "loguniform(1e-4, 1)"
                                << R"({"log_uniform": [1e-4, 1]})";
  }
  void eachFormIsItsJsonTwin() {
    QFETCH(QString, text);
    QFETCH(QString, json);
    const ParamSpec from_text = parse_param_text(text.toStdString(), Param::kLearningRate, "lr");
    const ParamSpec from_json =
        parse_param_spec(json::parse(json.toStdString()), Param::kLearningRate, "lr");
    QVERIFY(from_text == from_json);
  }

  void logspaceValuesArePowersOfTen() {
    const ParamSpec s = parse_param_text("logspace(-4, -1, 4)", Param::kClip, "clip");
    const std::vector<double> v = s.grid_values();
    QCOMPARE(v.size(), std::size_t{4});
    for (int i = 0; i < 4; ++i) QCOMPARE(v[static_cast<std::size_t>(i)], std::pow(10.0, i - 4));
  }

  void rulesAgreeWithTheFile_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("json");
    // The old GUI grammar accepted the first two and rejected the third; a file did the opposite.
    QTest::newRow("one point over a range") << "logspace(-4, -1, 1)"
                                            << R"({"log10": [-4, -1], "num": 1})";
    QTest::newRow("too many points") << "logspace(-4, -1, 200000)"
                                     << R"({"log10": [-4, -1], "num": 200000})";
    QTest::newRow("fractional count") << "logspace(-4, -1, 2.5)"
                                      << R"({"log10": [-4, -1], "num": 2.5})";
    QTest::newRow("reversed range") << "uniform(1, 0.5)"
                                    << R"({"uniform": [1, 0.5]})";
  }
  void rulesAgreeWithTheFile() {
    QFETCH(QString, text);
    QFETCH(QString, json);
    const QString from_text = text_error(text.toUtf8().constData());
    const QString from_json = json_error(json::parse(json.toStdString()));
    QVERIFY2(from_text != QStringLiteral("<no exception>"), qPrintable(text));
    QCOMPARE(from_text, from_json);
  }

  void degenerateUniformIsAcceptedLikeInAFile() {
    const ParamSpec s = parse_param_text("uniform(0.5, 0.5)", Param::kLearningRate, "lr");
    QVERIFY(s.kind == ParamSpec::Kind::kUniform);
    QCOMPARE(s.low, 0.5);
  }

  void domainErrorsNameTheHyperparameter() {
    QCOMPARE(text_error("0.5, 0", Param::kClip), QStringLiteral("clip: values must be > 0, got 0"));
    QCOMPARE(text_error("0.9, 1", Param::kBeta1),
             QStringLiteral("beta1: values must be in [0, 1), got 1"));
    QVERIFY(text_error("logspace(-1, 1, 3)", Param::kMomentum).startsWith("momentum: "));
    QCOMPARE(text_error("uniform(0, 2)", Param::kTargetQuantile),
             json_error(json::parse(R"({"uniform": [0, 2]})"), Param::kTargetQuantile));
  }

  void syntaxErrorsSayWhatIsWrong() {
    QCOMPARE(text_error("0.1, abc"), QStringLiteral("learning_rate: 'abc' is not a number"));
    QCOMPARE(text_error("   "),
             QStringLiteral("learning_rate: empty grid: give at least one value"));
    QCOMPARE(text_error("linspace(1, 2, 3)"),
             QStringLiteral("learning_rate: unknown function 'linspace' (use logspace, uniform or "
                            "loguniform)"));
    QCOMPARE(text_error("logspace(1, 2)"),
             QStringLiteral("learning_rate: logspace needs (low exponent, high exponent, count)"));
    QCOMPARE(text_error("uniform(1, 2"),
             QStringLiteral("learning_rate: missing ')' after uniform("));
    QCOMPARE(text_error("0.1, inf"), QStringLiteral("learning_rate: 'inf' is not a number"));
  }

  void formatRoundTrips_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("thirds") << "0.3333333333333333, 0.1, 1e-05, 2";
    QTest::newRow("logspace") << "logspace(-4.5, -1, 8)";
    QTest::newRow("uniform") << "uniform(0.1, 0.7)";
    QTest::newRow("loguniform") << "loguniform(1e-06, 0.25)";
  }
  void formatRoundTrips() {
    QFETCH(QString, text);
    const ParamSpec s = parse_param_text(text.toStdString(), Param::kLearningRate, "lr");
    const std::string formatted = format_param_text(s);
    QVERIFY(parse_param_text(formatted, Param::kLearningRate, "lr") == s);
    QCOMPARE(QString::fromStdString(formatted), text);  // shortest exact form, as typed here
  }
};

DPLAB_TEST_APPLESS_MAIN(TestParamText)
#include "test_param_text.moc"
