// The one reader of JSON objects in user files (core/json_reader.h): typed getters that name the
// key path, bounded excerpts of bad values, unknown keys refused with the keys that are known,
// string choices, integers written as 1e3, seeds up to 2^64 - 1.
#include <QTest>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/json_reader.h"
#include "core/utf8.h"
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
    // An unknown choice too (its text used to be echoed whole).
    j["mode"] = std::string(100000, 'y');
    const QString choice = error_of<ParseError>([&] {
      JsonReader(j, "opt").optional_choice("mode", {"ma", "lt"}, "mode");
    });
    QVERIFY2(choice.startsWith("opt.mode: unknown mode \"yyy"), qPrintable(choice.left(200)));
    QVERIFY2(choice.endsWith("(expected ma or lt)"), qPrintable(choice.right(200)));
    QVERIFY2(choice.size() < 140, qPrintable(QString::number(choice.size())));
  }

  // Found by tests/fuzz/fuzz_output_writers.cpp (issue #45): an excerpt of a string that is not
  // UTF-8 (built from a Latin-1 file name or flag, never parsed) threw nlohmann's type_error 316
  // out of the error message, and an excerpt cut inside a character left half of it.
  void excerptsAreUtf8WhateverTheValue() {
    QCOMPARE(json_excerpt(json("caf\xE9")), std::string("\"caf\xEF\xBF\xBD\""));
    QCOMPARE(json_excerpt(json{{"k\xFF", "ok"}}), std::string("{\"k\xEF\xBF\xBD\":\"ok\"}"));
    QCOMPARE(json_excerpt(json("ok\xE2\x82")), std::string("\"ok\xEF\xBF\xBD\""));  // cut short
    std::string accents;
    for (int i = 0; i < 100; ++i) accents += "\xC3\xA9";  // é, two bytes each
    for (std::size_t max : {std::size_t{10}, std::size_t{11}, std::size_t{60}}) {
      const std::string excerpt = json_excerpt(json(accents), max);
      QVERIFY2(!first_invalid_utf8(excerpt), excerpt.c_str());
      QVERIFY(excerpt.size() <= max);
      QVERIFY(excerpt.size() >= max - 4);  // cut at most one character early
    }
    // The readers' messages show such values without throwing anything but ParseError.
    json j;
    j["mode"] = "\xE9t\xE9";
    j["rate"] = accents;
    const QString choice = error_of<ParseError>([&] {
      JsonReader(j, "").optional_choice("mode", {"ma", "lt"});
    });
    QVERIFY2(choice.startsWith("mode: unknown value \"\uFFFDt\uFFFD\""), qPrintable(choice));
    const std::string rate =
        error_of<ParseError>([&] { JsonReader(j, "").required_number("rate"); }).toStdString();
    QVERIFY2(!first_invalid_utf8(rate), rate.c_str());
    // A long duplicate key is named in whole characters.
    const std::string key = "\"" + accents + "\"";
    const std::string message = error_of<ParseError>([&] {
                                  (void)parse_json_text("{" + key + ": 1, " + key + ": 2}", "f");
                                }).toStdString();
    QVERIFY2(message.find("duplicate key") != std::string::npos, message.c_str());
    QVERIFY2(!first_invalid_utf8(message), message.c_str());
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

  // Integer ranges, lists of numbers, integers and strings, and [low, high] pairs: each bad
  // element is named by its index and shown as a bounded excerpt.
  void readsRangesListsAndPairs() {
    const json j = json::parse(
        R"({"k": 7, "rates": [0.1, 2], "ks": [5, 7e0], "names": ["a", "b"], "range": [-2.5, 1.5]})");
    JsonReader r(j, "p");
    QCOMPARE(*r.optional_integer("k", 1, 50), std::int64_t{7});
    QCOMPARE(*r.optional_numbers("rates"), (std::vector<double>{0.1, 2.0}));
    QCOMPARE(*r.optional_integers("ks", 1, 50), (std::vector<std::int64_t>{5, 7}));
    QCOMPARE(*r.optional_strings("names"), (std::vector<std::string>{"a", "b"}));
    QCOMPARE(*r.optional_low_high("range"), (std::pair<double, double>{-2.5, 1.5}));
    QVERIFY(!r.optional_numbers("absent"));
    r.reject_unknown();

    const json bad = json::parse(
        R"({"k": 51, "rates": [0.1, "x"], "ks": [5, 0], "names": ["a", 3], "range": [1],
            "list": {"a": 1}})");
    const auto error = [&](auto read) {
      return error_of<ParseError>([&] {
        JsonReader in(bad, "p");
        read(in);
      });
    };
    QCOMPARE(error([](JsonReader& in) { in.optional_integer("k", 1, 50); }),
             QString("p.k: must be between 1 and 50, got 51"));
    QCOMPARE(error([](JsonReader& in) { in.optional_numbers("rates"); }),
             QString("p.rates[1]: expected a number, got \"x\""));
    QCOMPARE(error([](JsonReader& in) { in.optional_integers("ks", 1, 50); }),
             QString("p.ks[1]: must be between 1 and 50, got 0"));
    QCOMPARE(error([](JsonReader& in) { in.optional_strings("names"); }),
             QString("p.names[1]: expected a string, got 3"));
    QCOMPARE(error([](JsonReader& in) { in.optional_low_high("range"); }),
             QString("p.range: expected [low, high], got [1]"));
    QCOMPARE(error([](JsonReader& in) { in.optional_numbers("list"); }),
             QString("p.list: expected a list, got {\"a\":1}"));

    // A 100 KB element is an excerpt in the message, not the whole value.
    json huge;
    huge["ks"] = json::array({1, std::string(100000, 'x')});
    const QString message =
        error_of<ParseError>([&] { JsonReader(huge, "p").optional_integers("ks", 1, 50); });
    QVERIFY2(message.startsWith("p.ks[1]: expected an integer, got \"xxx"), qPrintable(message));
    QVERIFY2(message.size() < 120, qPrintable(QString::number(message.size())));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestJsonReader)
#include "test_json_reader.moc"
