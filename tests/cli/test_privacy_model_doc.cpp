// docs/privacy-model.md is the reviewer's page of every output field and its privacy class
// (charged / public / not covered / curator-only). This suite keeps it true: it runs dplab-cli on
// small presets (train; tune explore; tune --release private LT with 2 replicates and --db;
// tune --release private-subsampled; history export / list / show; the private search planned,
// run in shards and merged, and a slurm plan folder), collects every JSON key (as a dotted path,
// arrays collapsed)
// and every CSV column actually written, and fails if one has no row in the doc's table for
// that output; and it checks that no field the table classes curator-only appears in a released
// file of the private release (summary.json, winners.csv, the history export) unless the table
// also lists it for that file.
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using dplab::testing::CliRun;
using dplab::testing::read_file;
using dplab::testing::run_cli;

namespace {

struct Row {
  std::set<std::string> outputs;  // e.g. "private summary.json", "curves.csv"
  std::vector<std::string> fields;
  std::string klass;
};

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

// The table under "## Output fields": | Output | Field | Class | Note |.
std::vector<Row> parse_table(const std::string& markdown) {
  std::vector<Row> rows;
  const auto start = markdown.find("## Output fields");
  if (start == std::string::npos) return rows;
  std::istringstream in(markdown.substr(start));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0 || line.rfind("| Output", 0) == 0) continue;
    std::vector<std::string> cells;
    std::string cell;
    bool code = false;
    for (std::size_t i = 1; i < line.size(); ++i) {
      const char c = line[i];
      if (c == '`') code = !code;
      if (c == '|' && !code) {
        cells.push_back(trim(cell));
        cell.clear();
      } else {
        cell += c;
      }
    }
    if (cells.size() < 3) continue;
    Row row;
    std::istringstream outputs(cells[0]);
    std::string output;
    while (std::getline(outputs, output, ',')) row.outputs.insert(trim(output));
    const QRegularExpression code_span("`([^`]+)`");
    auto it = code_span.globalMatch(QString::fromStdString(cells[1]));
    while (it.hasNext()) row.fields.push_back(it.next().captured(1).toStdString());
    row.klass = cells[2];
    rows.push_back(row);
  }
  return rows;
}

// Dotted key paths of a JSON document, arrays collapsed ("optimizers.best_candidate.label").
void key_paths(const nlohmann::json& j, const std::string& prefix, std::set<std::string>& out,
               const std::set<std::string>& skip = {}) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      const std::string path = prefix.empty() ? key : prefix + "." + key;
      out.insert(path);
      if (!skip.count(path)) key_paths(value, path, out, skip);
    }
  } else if (j.is_array()) {
    for (const auto& value : j) key_paths(value, prefix, out, skip);
  }
}

// The column names of a CSV (the first line that is not a '#' comment).
std::set<std::string> csv_columns(const QString& path) {
  std::set<std::string> out;
  for (const QByteArray& line : read_file(path).split('\n')) {
    if (line.startsWith('#') || line.isEmpty()) continue;
    for (const QByteArray& column : line.split(',')) out.insert(column.trimmed().toStdString());
    break;
  }
  return out;
}

bool matches(const std::string& path, const std::string& field) {
  return path == field ||
         (path.size() > field.size() &&
          path.compare(path.size() - field.size() - 1, std::string::npos, "." + field) == 0);
}

// A row of `output` whose field matches `path`, or nullptr.
const Row* row_for(const std::vector<Row>& rows, const std::string& output,
                   const std::string& path) {
  for (const Row& row : rows) {
    if (!row.outputs.count(output)) continue;
    for (const auto& field : row.fields)
      if (matches(path, field)) return &row;
  }
  return nullptr;
}

}  // namespace

class TestPrivacyModelDoc : public QObject {
  Q_OBJECT

  std::vector<Row> rows_;
  QTemporaryDir dir_;
  // (output tag, key path or column) actually emitted.
  std::vector<std::pair<std::string, std::string>> emitted_;
  // Released files of the private release: (output tag, key paths / columns).
  std::vector<std::pair<std::string, std::set<std::string>>> private_released_;

  void add_json(const std::string& tag, const QString& path, const std::set<std::string>& skip = {},
                bool private_release = false) {
    const QByteArray text = read_file(path);
    QVERIFY2(!text.isEmpty(), qPrintable(path));
    std::set<std::string> paths;
    key_paths(nlohmann::json::parse(text.toStdString()), "", paths, skip);
    for (const auto& p : paths) emitted_.push_back({tag, p});
    if (private_release) private_released_.push_back({tag, paths});
  }
  void add_csv(const std::string& tag, const QString& path, bool private_release = false) {
    const auto columns = csv_columns(path);
    QVERIFY2(!columns.empty(), qPrintable(path));
    for (const auto& c : columns) emitted_.push_back({tag, c});
    if (private_release) private_released_.push_back({tag, columns});
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    const std::string doc =
        read_file(QString::fromStdString(dplab::testing::source_dir() + "/docs/privacy-model.md"))
            .toStdString();
    QVERIFY2(!doc.empty(), "docs/privacy-model.md is missing");
    rows_ = parse_table(doc);
    QVERIFY2(rows_.size() > 50, "docs/privacy-model.md: no output-field table");
    const std::string readme =
        read_file(QString::fromStdString(dplab::testing::source_dir() + "/README.md"))
            .toStdString();
    QVERIFY2(readme.find("docs/privacy-model.md") != std::string::npos,
             "the README does not link docs/privacy-model.md");

    const QString preset =
        QString::fromStdString(dplab::testing::presets_dir() + "/quick-demo.json");
    const QString d = dir_.path();
    // train
    CliRun r = run_cli({"train", "--dataset", "synthetic-binary", "--steps", "40", "--eval-every",
                        "20", "--lot-size", "100", "--out", d + "/train"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    add_json("train summary.json", d + "/train/summary.json");
    add_csv("curve.csv", d + "/train/curve.csv");
    add_json("release.json", d + "/train/release.json");
    // tune explore
    r = run_cli({"tune", "--config", preset, "--threads", "2", "--out", d + "/explore"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    add_json("tune summary.json", d + "/explore/summary.json");
    for (const char* csv : {"curves.csv", "aggregate_curves.csv", "alpha_clip_grid.csv"})
      add_csv(csv, d + "/explore/" + csv);
    add_json("release.json", d + "/explore/release.json");
    // tune private (LT, 2 replicates, run history)
    const QString db = d + "/runs.sqlite";
    r = run_cli({"tune", "--config", preset, "--threads", "2", "--out", d + "/private", "--db", db,
                 "--release", "private", "--strategy", "lt", "--repeats", "2"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    add_json("private summary.json", d + "/private/summary.json", {}, true);
    add_csv("winners.csv", d + "/private/winners.csv", true);
    add_json("release.json", d + "/private/release.json", {}, true);
    add_json("curator-only.json", d + "/private/curator-only.json");
    // tune private-subsampled (Koskela-Kulkarni): the final run released, the tuning phase
    // curator-only.
    r = run_cli({"tune", "--config", preset, "--threads", "2", "--out", d + "/subsampled",
                 "--release", "private-subsampled", "--tuning-fraction", "0.3", "--ps-mu", "3"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    add_json("private summary.json", d + "/subsampled/summary.json", {}, true);
    add_csv("winners.csv", d + "/subsampled/winners.csv", true);
    add_json("curator-only.json", d + "/subsampled/curator-only.json");
    r = run_cli({"history", "export", "--db", db, "--id", "1", "--out", d + "/export"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    add_json("private summary.json", d + "/export/summary.json", {}, true);
    // A private search's export is its release: the winners only (no per-run curves).
    QVERIFY(!QFile::exists(d + "/export/curves.csv"));
    add_csv("winners.csv", d + "/export/winners.csv", true);
    add_json("release.json", d + "/export/release.json", {}, true);
    // The same private search planned, run in 2 shards and merged (issue #28): its released
    // files are checked like tune's; the plan folder's files are curator-only.
    const QString plan = d + "/plan";
    r = run_cli({"tune", "--config", preset, "--plan", plan, "--release", "private", "--strategy",
                 "lt", "--repeats", "2"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    for (const char* shard : {"0", "1"}) {
      r = run_cli({"run-jobs", plan, "--shard", shard, "--shards", "2", "--threads", "2"});
      QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    }
    r = run_cli({"history", "merge", plan, "--db", d + "/merged.sqlite", "--out", d + "/merged"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    add_json("private summary.json", d + "/merged/summary.json", {}, true);
    add_csv("winners.csv", d + "/merged/winners.csv", true);
    add_json("curator-only.json", d + "/merged/curator-only.json");
    add_json("plan.json", plan + "/plan.json", {"experiment"});
    r = run_cli({"slurm", preset, "--out", d + "/slurm", "--shards", "2"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    add_json("slurm.json", d + "/slurm/slurm.json");
    for (const char* command : {"list", "show"}) {
      QStringList args{"history", command, "--db", db, "--json"};
      if (QString(command) == "show")
        args << "--id"
             << "1";
      r = run_cli(args);
      QVERIFY2(r.exit_code == 0, qPrintable(r.err));
      const QString file = d + "/history-" + command + ".json";
      QFile out(file);
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(r.out.toUtf8());
      out.close();
      // show's "summary" is the stored summary.json, checked above.
      add_json(std::string("history ") + command + " --json", file, {"summary"}, true);
    }
  }

  void every_emitted_field_is_in_the_table() {
    QStringList missing;
    for (const auto& [tag, path] : emitted_) {
      if (!row_for(rows_, tag, path)) missing << QString::fromStdString(tag + ": " + path);
    }
    missing.removeDuplicates();
    QVERIFY2(missing.isEmpty(),
             qPrintable("docs/privacy-model.md has no row for:\n" + missing.join('\n')));
  }

  void every_row_has_a_class() {
    for (const Row& row : rows_) {
      QVERIFY2(row.klass == "charged" || row.klass == "public" || row.klass == "not covered" ||
                   row.klass == "curator-only" || row.klass == "not covered / charged",
               row.klass.c_str());
    }
  }

  void curator_only_fields_are_not_released() {
    std::set<std::string> curator;
    for (const Row& row : rows_)
      if (row.klass == "curator-only")
        for (const auto& f : row.fields) curator.insert(f);
    QVERIFY(curator.count("runs_trained") && curator.count("hit_hard_stop") &&
            curator.count("wall_seconds"));
    for (const auto& [tag, paths] : private_released_) {
      for (const auto& path : paths) {
        for (const auto& field : curator) {
          if (!matches(path, field)) continue;
          // Allowed only where the table lists the same name as released for this file.
          const Row* row = row_for(rows_, tag, path);
          QVERIFY2(row && row->klass != "curator-only",
                   qPrintable(QString::fromStdString("curator-only field " + field +
                                                     " released in " + tag + " (" + path + ")")));
        }
      }
    }
  }
};

DPLAB_TEST_GUILESS_MAIN(TestPrivacyModelDoc)
#include "test_privacy_model_doc.moc"
