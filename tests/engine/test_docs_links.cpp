// Every relative link in the README and docs/ resolves to a file or folder of the checkout, so a
// reader of the gallery or the guides never meets a broken link. Markdown links [text](target) and
// images ![alt](target) are checked; web addresses (scheme:...) and in-page anchors (#...) are not.
// A target's own "#anchor" or "?query" part is dropped before the check.
#include <QTest>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_paths.h"
#include "support/test_registry.h"

namespace fs = std::filesystem;

namespace {

// The Markdown files a reader opens: README.md and everything under docs/.
std::vector<fs::path> markdown_files(const fs::path& root) {
  std::vector<fs::path> files{root / "README.md"};
  for (const auto& entry : fs::recursive_directory_iterator(root / "docs"))
    if (entry.is_regular_file() && entry.path().extension() == ".md") files.push_back(entry.path());
  return files;
}

bool is_relative_target(const std::string& target) {
  if (target.empty() || target.front() == '#') return false;
  static const std::regex scheme("^[A-Za-z][A-Za-z0-9+.-]*:");
  return !std::regex_search(target, scheme);
}

// The broken links of one file, each as "file:line: target".
std::vector<std::string> broken_links(const fs::path& file, const fs::path& root) {
  std::vector<std::string> broken;
  std::ifstream in(file);
  // ](target) or ](target "title"), the target optionally in <...>. (No raw string: moc cannot read
  // one, and this file has a Q_OBJECT class.)
  static const std::regex link("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
  std::string line;
  bool in_code_block = false;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.rfind("```", 0) == 0) in_code_block = !in_code_block;
    if (in_code_block) continue;
    for (std::sregex_iterator it(line.begin(), line.end(), link), end; it != end; ++it) {
      std::string target = (*it)[1].str();
      if (!is_relative_target(target)) continue;
      target = target.substr(0, target.find_first_of("#?"));
      const fs::path resolved = file.parent_path() / target;
      if (!fs::exists(resolved))
        broken.push_back(fs::relative(file, root).string() + ":" + std::to_string(number) + ": " +
                         (*it)[1].str());
    }
  }
  return broken;
}

}  // namespace

class TestDocsLinks : public QObject {
  Q_OBJECT

 private slots:
  void everyRelativeLinkResolves() {
    const fs::path root = dplab::testing::source_dir();
    std::vector<std::string> broken;
    std::size_t files = 0;
    for (const auto& file : markdown_files(root)) {
      ++files;
      for (auto& b : broken_links(file, root)) broken.push_back(std::move(b));
    }
    QVERIFY2(files > 5, "README.md and docs/ were not found");
    std::ostringstream report;
    for (const auto& b : broken) report << "\n  " << b;
    QVERIFY2(broken.empty(), qPrintable(QString::number(broken.size()) +
                                        " broken links:" + QString::fromStdString(report.str())));
  }

  void theCheckerSeesABrokenLink() {
    // The checker itself can fail: a file with one good and one broken link reports exactly one.
    const fs::path dir = fs::temp_directory_path() / "dplab-docs-links-test";
    fs::create_directories(dir / "sub");
    std::ofstream(dir / "sub" / "there.png") << "x";
    std::ofstream(dir / "page.md") << "[ok](sub/there.png) ![bad](sub/missing.png#a) "
                                      "[web](https://example.org/x) [anchor](#top)\n"
                                      "```\n[in code](nowhere.md)\n```\n";
    const auto broken = broken_links(dir / "page.md", dir);
    fs::remove_all(dir);
    QCOMPARE(broken.size(), std::size_t{1});
    QVERIFY(QString::fromStdString(broken.front()).contains("sub/missing.png"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestDocsLinks)
#include "test_docs_links.moc"
