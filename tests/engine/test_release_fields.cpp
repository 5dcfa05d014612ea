// The release layer's guarantees (engine/release/, issue #42), at the engine level:
//   - the field table (release/field_class.cpp) and docs/privacy-model.md's "Output fields" table
//     agree: every rule has a row for its file with the same class;
//   - the writer refuses a column or key the table does not classify, and a curator-only one,
//     before writing anything; it lists every not-covered column with its reason;
//   - a cancelled private search releases nothing (no winner rows, no released candidate), while
//     the curator's record keeps K; a finished one releases each replicate's winner;
//   - explore and private releases of the tiny search carry the privacy card's fixed facts.
#include <QTest>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/error.h"
#include "release/field_class.h"
#include "release/release_writer.h"
#include "release/search_release.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/private_search.h"
#include "tuning/runner.h"

using namespace dplab;
using release::FieldClass;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The doc's class of (file, field): the class cell of a row whose Output cell names the file and
// whose Field cell holds the field in backticks; "" when there is none.
std::string doc_class(const std::string& doc, const std::string& file, const std::string& field) {
  std::istringstream in(doc.substr(doc.find("## Output fields")));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    const auto first = line.find(" | ");
    const auto second = line.find(" | ", first + 3);
    const auto third = line.find(" | ", second + 3);
    if (first == std::string::npos || second == std::string::npos || third == std::string::npos)
      continue;
    const std::string outputs = line.substr(2, first - 2);
    const std::string fields = line.substr(first + 3, second - first - 3);
    bool names_file = false;
    std::istringstream list(outputs);
    for (std::string item; std::getline(list, item, ',');) {
      item.erase(0, item.find_first_not_of(' '));
      names_file = names_file || item == file;
    }
    if (names_file && fields.find("`" + field + "`") != std::string::npos)
      return line.substr(second + 3, third - second - 3);
  }
  return "";
}

tuning::SearchResults tiny_search(experiment::ReleaseMode mode, int repeats,
                                  tuning::PrivatePlan* plan = nullptr) {
  auto config = testing::tiny_experiment(30, repeats);
  config.release.mode = mode;
  config.release.selection = experiment::PrivateSelection::kMa;
  tuning::RunOptions options;
  if (mode == experiment::ReleaseMode::kPrivate) {
    *plan = tuning::draw_private_plan(config, 5, config.seed);
    options.plan = plan->jobs;
  }
  tuning::Runner runner(config, tuning::load_experiment_data(config), options);
  return runner.run();
}

}  // namespace

class TestReleaseFields : public QObject {
  Q_OBJECT
 private slots:
  void theTableIsTheDocsTable() {
    const std::string doc = read_text(testing::source_dir() + "/docs/privacy-model.md");
    QVERIFY(!doc.empty());
    for (const auto& rule : release::field_rules()) {
      const std::string klass = doc_class(doc, std::string(rule.file), std::string(rule.field));
      QVERIFY2(klass == release::to_string(rule.klass),
               qPrintable(QString("%1 %2: engine says '%3', docs/privacy-model.md says '%4'")
                              .arg(QString::fromUtf8(rule.file.data(), rule.file.size()))
                              .arg(QString::fromUtf8(rule.field.data(), rule.field.size()))
                              .arg(QString::fromStdString(release::to_string(rule.klass)))
                              .arg(QString::fromStdString(klass))));
      if (rule.klass == FieldClass::kNotCovered || rule.klass == FieldClass::kCuratorOnly)
        QVERIFY2(!rule.reason.empty(), rule.field.data());
    }
  }

  void aFieldWithoutAClassIsNotWritten() {
    QVERIFY(release::field_rule("release.json", "privacy.sampler").klass == FieldClass::kPublic);
    QVERIFY(
        release::field_rule("release.json", "released.replicates.released_candidate.clip").klass ==
        FieldClass::kCharged);
    const QString message =
        testing::error_of<Error>([] { release::field_rule("curves.csv", "wall_seconds"); });
    QVERIFY2(message.contains("wall_seconds") && message.contains("curves.csv"),
             qPrintable(message));
  }

  void theWriterRefusesCuratorOnlyAndUnclassifiedFields() {
    tuning::PrivatePlan plan;
    const auto results = tiny_search(experiment::ReleaseMode::kPrivate, 1, &plan);
    const auto winners = tuning::select_private_winners(results, plan, 1);
    testing::TempFiles dir;
    // K in the released results: refused by name, nothing written.
    release::Release leaky = release::private_release(results, winners, false);
    leaky.released["runs_trained"] = winners.runs_trained;
    QString message =
        testing::error_of<Error>([&] { release::write_release(leaky, dir.path("leaky")); });
    QVERIFY2(message.contains("runs_trained") && message.contains("curator-only"),
             qPrintable(message));
    QVERIFY(!std::filesystem::exists(dir.path("leaky")));
    // A new column nobody classified.
    release::Release unknown = release::private_release(results, winners, false);
    unknown.tables.front().table.header.push_back("gradient_norm");
    for (auto& row : unknown.tables.front().table.rows) row.push_back("1");
    message =
        testing::error_of<Error>([&] { release::write_release(unknown, dir.path("unknown")); });
    QVERIFY2(message.contains("gradient_norm") && message.contains("no privacy class"),
             qPrintable(message));
    QVERIFY(!std::filesystem::exists(dir.path("unknown")));
  }

  void aCancelledPrivateSearchReleasesNothing() {
    tuning::PrivatePlan plan;
    const auto results = tiny_search(experiment::ReleaseMode::kPrivate, 2, &plan);
    const auto winners = tuning::select_private_winners(results, plan, 1);
    QCOMPARE(winners.released, 2);  // both replicates finished: each has a winner
    const release::Release kept = release::private_release(results, winners, false);
    QCOMPARE(kept.released["replicates_released"].get<int>(), 2);
    QVERIFY(!kept.tables.front().table.rows.empty());
    const release::Release cancelled = release::private_release(results, winners, true);
    QCOMPARE(cancelled.released["replicates_released"].get<int>(), 0);
    QVERIFY(cancelled.tables.front().table.rows.empty());
    for (const auto& rep : cancelled.released["replicates"])
      QVERIFY(rep["released_candidate"].is_null());
    // The curator still knows K (to resume, to audit).
    QCOMPARE(cancelled.curator.facts["runs_trained"].get<std::int64_t>(), winners.runs_trained);
    QVERIFY(release::release_json(cancelled).dump().find("runs_trained") == std::string::npos);
  }

  void theCardStatesWhatTheEpsilonIsAbout() {
    const auto results = tiny_search(experiment::ReleaseMode::kExplore, 1);
    const release::Release r = release::explore_release(results, false);
    const nlohmann::json card = r.privacy;
    QCOMPARE(card["adjacency"].get<std::string>(), std::string("add or remove one example"));
    QCOMPARE(card["sampling_rate"].get<double>(), results.mechanism.sampling_rate);
    QCOMPARE(card["steps"].get<std::int64_t>(), results.mechanism.steps);
    QCOMPARE(card["delta"].get<double>(), results.mechanism.delta);
    QVERIFY(card["normalisation"].get<std::string>().find("expected lot size") !=
            std::string::npos);
    QCOMPARE(card["epsilon"].get<double>(), tuning::release_cost(results).epsilon);
    // The not-covered columns, each with its reason, under not_covered.
    const nlohmann::json j = release::release_json(r);
    std::set<std::string> fields;
    for (const auto& item : j["not_covered"]) {
      QVERIFY(!item["reason"].get<std::string>().empty());
      fields.insert(item["file"].get<std::string>() + ":" + item["field"].get<std::string>());
    }
    QVERIFY(fields.count("curves.csv:train_loss"));
    QVERIFY(fields.count("alpha_clip_grid.csv:final_train_loss"));
    // Several attempts: the composed ε is the headline, this attempt's beside it.
    const release::Release resumed =
        release::explore_release(results, false, release::SpentBudget{9.5, 1e-5, 3, "rdp"});
    QCOMPARE(resumed.privacy["epsilon"].get<double>(), 9.5);
    QCOMPARE(resumed.privacy["attempts"].get<int>(), 3);
    QCOMPARE(resumed.privacy["epsilon_this_attempt"].get<double>(), card["epsilon"].get<double>());
    QVERIFY(resumed.csv_label.find("eps <= 9.5") == 0);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestReleaseFields)
#include "test_release_fields.moc"
