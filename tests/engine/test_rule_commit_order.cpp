// One rule, committed before each run (issue #48): for every rule file of resources/rules/items.txt
// whose numbers (the gallery paths listed beside it) changed after the cut-off,
//   (a) no commit after the cut-off touches both the rule file and its numbers (a rule committed
//       with its numbers was not fixed before the run), and
//   (b) the rule file's last commit precedes the last commit that touched the numbers
//       (`git merge-base --is-ancestor`): the numbers on HEAD were produced after the rule they
//       are judged by. A rule may change later, but then its numbers must be run again and
//       committed after it (a rule edited after its numbers, verdict words included, fails).
// The cut-off is the commit that added items.txt ("from now on"): numbers committed before it are
// not judged. Also: every entry two levels under docs/gallery/ is, or lies under, a path of
// items.txt, so a new gallery folder needs its rule (or "-") before it is committed.
// Reads the checkout's history with git; SKIPs when git is missing, the source tree is not a git
// checkout, or the clone is shallow (its history starts after the cut-off).
#include <QProcess>
#include <QStringList>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_paths.h"
#include "support/test_registry.h"

namespace fs = std::filesystem;

namespace {

struct GitResult {
  bool started = false;
  int exit_code = -1;
  QString out, err;
};

GitResult git(const QStringList& arguments) {
  QProcess process;
  process.setWorkingDirectory(QString::fromStdString(dplab::testing::source_dir()));
  process.start("git", arguments);
  GitResult r;
  r.started = process.waitForStarted(10000);
  if (!r.started) return r;
  process.waitForFinished(60000);
  r.exit_code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  r.out = QString::fromUtf8(process.readAllStandardOutput()).trimmed();
  r.err = QString::fromUtf8(process.readAllStandardError()).trimmed();
  return r;
}

// Commit hashes, one per line of `git log --format=%H <arguments>`.
QStringList log_hashes(const QStringList& arguments) {
  const auto r = git(QStringList{"log", "--format=%H"} + arguments);
  if (r.exit_code != 0) return {};
  return r.out.split('\n', Qt::SkipEmptyParts);
}

// items.txt: rule name -> paths ("-" for the paths no rule judges).
std::map<std::string, QStringList> read_items() {
  std::ifstream in(fs::path(dplab::testing::source_dir()) / "resources" / "rules" / "items.txt");
  std::map<std::string, QStringList> items;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string name, path;
    words >> name;
    while (words >> path) items[name].append(QString::fromStdString(path));
  }
  return items;
}

const char* const kItems = "resources/rules/items.txt";

}  // namespace

class TestRuleCommitOrder : public QObject {
  Q_OBJECT

 private slots:
  void every_gallery_entry_has_a_rule_line() {
    const auto items = read_items();
    QVERIFY2(!items.empty(), "resources/rules/items.txt is missing or empty");
    std::vector<std::string> mapped;
    for (const auto& [name, paths] : items)
      for (const auto& p : paths) mapped.push_back(p.toStdString());
    const fs::path root(dplab::testing::source_dir());
    for (const auto& folder : fs::directory_iterator(root / "docs" / "gallery")) {
      if (!folder.is_directory()) continue;
      for (const auto& entry : fs::directory_iterator(folder.path())) {
        const std::string relative = fs::relative(entry.path(), root).generic_string();
        bool covered = false;
        for (const auto& p : mapped)
          covered = covered || relative == p || relative.rfind(p + "/", 0) == 0;
        QVERIFY2(covered, qPrintable(QString::fromStdString(relative) +
                                     " is judged by no line of resources/rules/items.txt (give "
                                     "it its rule file, or \"-\")"));
      }
    }
  }

  void rules_are_committed_before_their_numbers() {
    const auto inside = git({"rev-parse", "--is-inside-work-tree"});
    if (!inside.started) QSKIP("git is not installed: the commit order cannot be checked");
    if (inside.exit_code != 0 || inside.out != "true")
      QSKIP("the source tree is not a git checkout: the commit order cannot be checked");
    if (git({"rev-parse", "--is-shallow-repository"}).out == "true")
      QSKIP("shallow clone: the history before the cut-off is missing (git fetch --unshallow)");
    const QStringList added = log_hashes({"--diff-filter=A", "--", kItems});
    if (added.isEmpty())
      QSKIP("resources/rules/items.txt is not committed yet: there is no cut-off to check from");
    const QString cutoff = added.last();  // the oldest commit that added items.txt
    int judged = 0;
    for (const auto& [name, paths] : read_items()) {
      if (name == "-") continue;
      const QString rule = QString::fromStdString("resources/rules/" + name + ".md");
      // The commits after the cut-off that touched the numbers, newest first.
      const QStringList numbers =
          log_hashes(QStringList{"--topo-order", cutoff + "..HEAD", "--"} + paths);
      if (numbers.isEmpty()) continue;  // no numbers changed since the cut-off
      const QStringList rule_changes = log_hashes({cutoff + "..HEAD", "--", rule});
      for (const QString& commit : numbers) {
        QVERIFY2(
            !rule_changes.contains(commit),
            qPrintable(commit + " changes both " + rule + " and its numbers (" + paths.join(' ') +
                       "): commit the rule before the run, then the numbers"));
      }
      const QStringList rule_commits = log_hashes({"-1", "HEAD", "--", rule});
      QVERIFY2(!rule_commits.isEmpty(),
               qPrintable(rule + " was never committed, but its numbers (" + paths.join(' ') +
                          ") were, in " + numbers.first()));
      const QString last_rule = rule_commits.first();
      const QString last_numbers = numbers.first();
      const auto ancestor = git({"merge-base", "--is-ancestor", last_rule, last_numbers});
      QVERIFY2(
          ancestor.exit_code == 0,
          qPrintable(rule + " was changed in " + last_rule + " after its numbers' last commit " +
                     last_numbers + " (" + paths.join(' ') +
                     "): run them again under the new rule and commit the numbers after it"));
      ++judged;
    }
    qInfo("cut-off %s; %d rule file(s) had numbers committed after it, every one after its rule",
          qPrintable(cutoff), judged);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestRuleCommitOrder)
#include "test_rule_commit_order.moc"
