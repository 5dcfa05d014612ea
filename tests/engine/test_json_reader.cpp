// The one reader of JSON objects in user files (core/json_reader.h): typed getters that name the
// key path, bounded excerpts of bad values, unknown keys refused with the keys that are known,
// string choices, integers written as 1e3, seeds up to 2^64 - 1.
#include <QTest>

#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "support/expect_error.h"
#include "support/test_registry.h"

using namespace dplab;
using dplab::testing::error_of;
using nlohmann::json;

class TestJsonReader : public QObject {
  Q_OBJECT

 private slots:
  void readsTypedValues() {
    const json j = parse_json_text(
        R"({"name": "adult", "rate": 0.5, "steps": 1e3, "seed": 18446744073709551615,
            "secure": true, "mode": "lt"})",
        "t.json");
    JsonReader r(j, "block");
    QCOMPARE(r.required_string("name"), std::string("adult"));
    QCOMPARE(r.required_number("rate"), 0.5);
    QCOMPARE(*r.optional_integer("steps"), std::int64_t{1000});
    QCOMPARE(*r.optional_seed("seed"), ~std::uint64_t{0});
    QCOMPARE(*r.optional_bool("secure"), true);
    QCOMPARE(*r.optional_choice("mode", {"ma", "lt", "ps"}), std::size_t{1});
    QVERIFY(!r.optional_number("absent"));
    QCOMPARE(r.number_or("absent2", 7.0), 7.0);
    QCOMPARE(r.key_path("rate"), std::string("block.rate"));
    r.reject_unknown();  // every key was read: no error
  }

  void errorsNameTheKeyPath() {
    const json j = json::parse(R"({"rate": "fast", "steps": 2.5, "seed": -1, "mode": "xx"})");
    QCOMPARE(error_of<ParseError>([&] { JsonReader(j, "opt").required_number("rate"); }),
             QString("opt.rate: expected a number, got \"fast\""));
    QCOMPARE(error_of<ParseError>([&] { JsonReader(j, "opt").optional_integer("steps"); }),
             QString("opt.steps: expected an integer, got 2.5"));
    QCOMPARE(error_of<ParseError>([&] { JsonReader(j, "opt").optional_seed("seed"); }),
             QString("opt.seed: expected a non-negative integer, got -1"));
    QCOMPARE(error_of<ParseError>([&] { JsonReader(j, "opt").require("lot"); }),
             QString("opt.lot: missing (required)"));
    QCOMPARE(error_of<ParseError>([&] {
               JsonReader(j, "opt").optional_choice("mode", {"ma", "lt", "ps"}, "mode");
             }),
             QString("opt.mode: unknown mode \"xx\" (expected ma, lt or ps)"));
    QCOMPARE(error_of<ParseError>([&] { JsonReader(json::array(), ""); }),
             QString("(top level): expected an object, got []"));
  }

  void unknownKeysAreRefusedWithTheKnownOnes() {
    const json j = json::parse(R"({"clip": 1, "lerning_rate": 0.1})");
    JsonReader r(j, "grid");
    r.optional_number("clip");
    r.optional_number("learning_rate");
    QCOMPARE(error_of<ParseError>([&] { r.reject_unknown(); }),
             QString("grid.lerning_rate: unknown key (expected clip or learning_rate)"));
  }

  // A 100 KB value is shown as an excerpt, never dumped whole into the message.
  void badValuesAreShownAsBoundedExcerpts() {
    json j;
    j["rate"] = std::string(100000, 'x');
    const QString message =
        error_of<ParseError>([&] { JsonReader(j, "opt").required_number("rate"); });
    QVERIFY2(message.startsWith("opt.rate: expected a number, got \"xxx"), qPrintable(message));
    QVERIFY2(message.size() < 120, qPrintable(QString::number(message.size())));
  }

  void integersOutOfRangeAreRefused() {
    const json j = json::parse(R"({"steps": 18446744073709551615, "big": 1e300})");
    QVERIFY(error_of<ParseError>([&] {
              JsonReader(j, "").optional_integer("steps");
            }).startsWith("steps: integer out of range"));
    QVERIFY(error_of<ParseError>([&] {
              JsonReader(j, "").optional_integer("big");
            }).startsWith("big: expected an integer"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestJsonReader)
#include "test_json_reader.moc"
