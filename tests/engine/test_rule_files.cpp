// The rule files (resources/rules/*.md, reproduction/rule_files.h, issue #48): the engine holds
// every file byte for byte as the checkout has it, with the SHA-256 that `sha256sum` prints; each
// file is one line that a report prints as it is; every number a rule states agrees with the
// constant its verdict uses; REPORT.md of `reproduce` prints each of its rules from its file with
// the file's SHA-256; items.txt names every rule file, and no other.
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/sha256.h"
#include "reproduction/item_outcome.h"
#include "reproduction/kk23_comparison.h"
#include "reproduction/reproduction_report.h"
#include "reproduction/rule_files.h"
#include "reproduction/sparse_figure1.h"
#include "support/expect_error.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::reproduction;
namespace fs = std::filesystem;

namespace {

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

fs::path rules_dir() {
  return fs::path(testing::source_dir()) / "resources" / "rules";
}

// Every number `pattern` (one capture group) finds in rule `name`, in order.
std::vector<double> numbers_in(const std::string& name, const QString& pattern) {
  const QString text = QString::fromStdString(rule_text(name));
  std::vector<double> out;
  auto it = QRegularExpression(pattern).globalMatch(text);
  while (it.hasNext()) {
    bool ok = false;
    out.push_back(it.next().captured(1).remove(',').toDouble(&ok));
    if (!ok) out.back() = std::nan("");  // fails the comparison, naming the number
  }
  return out;
}

// The numbers must be `expected`, in order (to 1e-12 relative: they are printed decimals).
void check_numbers(const std::string& name, const QString& pattern,
                   const std::vector<double>& expected) {
  const auto found = numbers_in(name, pattern);
  QVERIFY2(found.size() == expected.size(),
           qPrintable(QString("%1: '%2' found %3 numbers, expected %4")
                          .arg(QString::fromStdString(rule_path(name)), pattern)
                          .arg(found.size())
                          .arg(expected.size())));
  for (std::size_t i = 0; i < found.size(); ++i)
    QVERIFY2(std::abs(found[i] - expected[i]) <= 1e-12 * std::abs(expected[i]),
             qPrintable(QString("%1: number %2 of '%3' is %4, the constant is %5")
                            .arg(QString::fromStdString(rule_path(name)))
                            .arg(i + 1)
                            .arg(pattern)
                            .arg(found[i])
                            .arg(expected[i])));
}

}  // namespace

class TestRuleFiles : public QObject {
  Q_OBJECT

 private slots:
  void embedded_bytes_are_the_checkouts_files() {
    std::set<std::string> on_disk;
    for (const auto& entry : fs::directory_iterator(rules_dir()))
      if (entry.path().extension() == ".md") on_disk.insert(entry.path().stem().string());
    std::set<std::string> embedded;
    for (const auto& f : rule_files()) embedded.insert(std::string(f.name));
    QVERIFY2(on_disk == embedded, "re-run cmake: resources/rules/*.md and the built rules differ");
    for (const auto& f : rule_files()) {
      const std::string bytes = read_bytes(rules_dir() / (std::string(f.name) + ".md"));
      QVERIFY2(bytes == f.bytes, qPrintable(QString::fromStdString(rule_path(f.name)) +
                                            " differs from the built copy: rebuild"));
      QCOMPARE(rule_sha256(f.name), sha256_hex(bytes));
      QCOMPARE(rule_path(f.name), "resources/rules/" + std::string(f.name) + ".md");
    }
  }

  void sha256_is_what_sha256sum_prints() {
    // FIPS 180-4's example (also test_shipped_datasets), through the rule's own path.
    QCOMPARE(QString::fromStdString(sha256_hex("abc")),
             QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QCOMPARE(rule_sha256("verdict").size(), std::size_t{64});
  }

  void every_rule_is_one_printed_line() {
    for (const auto& f : rule_files()) {
      const QString path = QString::fromStdString(rule_path(f.name));
      QVERIFY2(f.bytes.size() > 1 && f.bytes.back() == '\n',
               qPrintable(path + ": no final newline"));
      QVERIFY2(f.bytes.find('\n') == f.bytes.size() - 1,
               qPrintable(path + ": more than one line (a report prints the rule as one line)"));
      QVERIFY2(f.bytes.find('\r') == std::string_view::npos, qPrintable(path + ": CR byte"));
      QCOMPARE(rule_text(f.name), std::string(f.bytes.substr(0, f.bytes.size() - 1)));
    }
  }

  void unknown_rule_is_named() {
    const QString message = testing::error_of<InvalidArgument>([] { rule_file("figure7"); });
    QVERIFY2(message.contains("resources/rules/figure7.md") && message.contains("kk23"),
             qPrintable(message));
  }

  // Every threshold a rule states is the constant its verdict uses.
  void numbers_agree_with_the_constants() {
    const double point = 100 * kAccuracyTolerance;
    check_numbers("figure3", "within ([0-9]+(?:\\.[0-9]+)?) point", {point});
    check_numbers("figure4", "within ([0-9]+(?:\\.[0-9]+)?) point", {point, point});
    check_numbers("figure5", "within ([0-9]+(?:\\.[0-9]+)?) point", {point});
    check_numbers("figure5", "not more than ([0-9]+(?:\\.[0-9]+)?) point below", {point});
    check_numbers("followups", "within ([0-9]+(?:\\.[0-9]+)?) point", {point});
    check_numbers("table1", "<= ([0-9]+(?:\\.[0-9]+)?)", {kEpsilonTolerance});
    check_numbers("section52", "The ([0-9,]+) random draws", {double(kSection52Draws)});
    check_numbers("figure2", "at least ([0-9]+(?:\\.[0-9]+)?)% of", {100 * kFigure2BestShare});
    check_numbers("figure2", "within a factor ([0-9]+(?:\\.[0-9]+)?) of", {kFigure2Factor});
    check_numbers("kk23", "PS - ([0-9]+(?:\\.[0-9]+)?) point", {100 * kKk23AccuracyMargin});
    check_numbers("kk23", "at most 1/([0-9]+) of", {1 / kKk23ComputeRatio});
    // Sparse Figure 1: learn (training), held out (test), small gap, in the order of the text.
    check_numbers("sparse-figure1", "(?:>=|<=) (?:start - )?([0-9]+(?:\\.[0-9]+)?)",
                  {kLearnMargin, kHeldOutMargin, kLearnMargin, kHeldOutMargin, kLearnMargin,
                   kSmallGap, kHeldOutMargin, kLearnMargin, kSmallGap,
                   kHeldOutMargin});  // the last: the oracle diagnosis (figure1_oracle_check)
  }

  void report_prints_each_rule_with_its_sha256() {
    const std::string report = report_markdown({}, Scale::kPaper, "dplab-cli reproduce all", 0);
    const auto section_start = report.find("## Verdict rules\n\n");
    const auto section_end = report.find("\n## Paper vs dplab");
    QVERIFY(section_start != std::string::npos && section_end != std::string::npos);
    const std::string section = report.substr(section_start, section_end - section_start);
    QVERIFY(section.find("## Verdict rules\n\n" + rule_text("verdict") + "\n\nRule file `" +
                         rule_path("verdict") + "`, SHA-256 `" + rule_sha256("verdict") + "`") ==
            0);
    std::set<std::string> printed{"verdict"};
    for (const auto& name : report_rule_names()) {
      printed.insert(name);
      if (name == "verdict") continue;
      const std::string entry = "\n- " + rule_text(name) + "\n  - rule file `" + rule_path(name) +
                                "`, SHA-256 `" + rule_sha256(name) + "`\n";
      QVERIFY2(section.find(entry) != std::string::npos, qPrintable(QString::fromStdString(name)));
    }
    // The rules that belong to other commands (leaderboard, sparse-train, the OSO page).
    for (const auto& f : rule_files()) {
      const std::string name(f.name);
      if (printed.count(name) == 0)
        QVERIFY2(section.find(rule_path(name)) == std::string::npos,
                 qPrintable(QString::fromStdString(name)));
    }
    QCOMPARE(printed.size(), report_rule_names().size());
  }

  void items_txt_names_every_rule_file() {
    std::ifstream in(rules_dir() / "items.txt");
    QVERIFY2(in, "resources/rules/items.txt is missing");
    std::set<std::string> named;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      if (line.empty() || line[0] == '#') continue;
      std::istringstream words(line);
      std::string name, path;
      words >> name;
      int paths = 0;
      while (words >> path) {
        ++paths;
        QVERIFY2(fs::exists(fs::path(testing::source_dir()) / path),
                 qPrintable(QString("items.txt:%1: %2 does not exist")
                                .arg(number)
                                .arg(QString::fromStdString(path))));
      }
      QVERIFY2(paths > 0, qPrintable(QString("items.txt:%1: a name without paths").arg(number)));
      if (name == "-") continue;
      rule_file(name);  // throws, naming it, when there is no such rule file
      named.insert(name);
    }
    for (const auto& f : rule_files())
      QVERIFY2(named.count(std::string(f.name)) == 1,
               qPrintable(QString::fromStdString(rule_path(f.name)) + " has no line in items.txt"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestRuleFiles)
#include "test_rule_files.moc"
