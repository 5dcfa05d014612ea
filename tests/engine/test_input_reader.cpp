// The one reader of input files (data/file_reader.h, issue #45 item 4) behind every door: the
// text corpus, plan.json, slurm.json, experiment files, comparison presets and the JSON files
// of the CLI. Each reader refuses a FIFO and a device naming the file (a FIFO used to block for
// ever, /dev/zero to grow to 8 GB), holds the size cap without reading, checks the memory budget
// before it allocates, and names the byte offset of the first byte that is not UTF-8. Also the
// strict Slurm --time parser (item 9).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <QTest>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <utility>

#include "cluster/search_plan.h"
#include "cluster/slurm_script.h"
#include "core/error.h"
#include "core/memory_check.h"
#include "core/utf8.h"
#include "data/file_reader.h"
#include "experiment/experiment_config.h"
#include "objective_perturbation/comparison_preset.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "text/text_corpus.h"
#include "tuning/runner.h"

using dplab::InvalidArgument;
using dplab::IoError;
using dplab::ParseError;
using dplab::testing::error_of;
using dplab::testing::TempFiles;

namespace {

namespace fs = std::filesystem;

// A reader that opens a FIFO and waits for a writer (the readers before issue #45) would hang
// the suite; this opens the FIFO's write end once a reader waits and closes it again, so that
// reader sees an empty file and the old behaviour shows as a failed check, not as a hang.
class FifoUnblocker {
 public:
  explicit FifoUnblocker(std::string path) : path_(std::move(path)), thread_([this] { run(); }) {}
  FifoUnblocker(const FifoUnblocker&) = delete;
  FifoUnblocker& operator=(const FifoUnblocker&) = delete;
  ~FifoUnblocker() {
    stop_ = true;
    thread_.join();
  }

 private:
  void run() {
    for (int i = 0; i < 500 && !stop_; ++i) {  // O_NONBLOCK: fails with ENXIO until a reader waits
      const int fd = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd >= 0) {
        ::close(fd);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  std::string path_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Restores the default memory budget when the test ends.
struct BudgetScope {
  explicit BudgetScope(double bytes) { dplab::set_memory_limit_bytes(bytes); }
  ~BudgetScope() { dplab::set_memory_limit_bytes(0); }
  BudgetScope(const BudgetScope&) = delete;
  BudgetScope& operator=(const BudgetScope&) = delete;
};

// Every reader of a user file, each given the file at `path` (the plan and Slurm readers take
// the folder it is in, as their file names are fixed).
struct Reader {
  const char* name;
  const char* file_name;  // what `path` must be called
  std::function<void(const std::string& path)> read;
};

std::vector<Reader> readers() {
  return {
      {"text corpus", "corpus.txt",
       [](const std::string& p) { (void)dplab::text::load_text_corpus(p, {}); }},
      {"plan.json", dplab::cluster::kPlanFile,
       [](const std::string& p) { (void)dplab::cluster::read_plan(fs::path(p).parent_path()); }},
      {"slurm.json", dplab::cluster::kSlurmFile,
       [](const std::string& p) {
         (void)dplab::cluster::read_slurm_record(fs::path(p).parent_path());
       }},
      {"experiment file", "experiment.json",
       [](const std::string& p) { (void)dplab::experiment::load_experiment_file(p); }},
      {"comparison preset", "preset.json",
       [](const std::string& p) { (void)dplab::objpert::load_comparison_preset(p); }},
      {"JSON file", "settings.json",
       [](const std::string& p) { (void)dplab::data::read_json_file(p); }},
  };
}

// An IoError's message from `read`, or what else happened (so a check on it fails and says so).
QString io_error_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const IoError& e) {
    return QString::fromStdString(e.what());
  } catch (const std::exception& e) {
    return QStringLiteral("<not an IoError: %1>").arg(e.what());
  }
  return QStringLiteral("<no exception>");
}

}  // namespace

class TestInputReader : public QObject {
  Q_OBJECT

 private slots:
  // A FIFO blocked `--corpus`, plan.json and slurm.json for ever (std::ifstream waits in open()).
  void every_reader_refuses_a_fifo_naming_it() {
    for (const Reader& reader : readers()) {
      TempFiles dir;
      const std::string path = dir.path(reader.file_name);
      QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
      const FifoUnblocker unblock(path);
      const QString message = io_error_of([&] { reader.read(path); });
      QVERIFY2(message.contains("FIFO") && message.contains(QString::fromStdString(path)),
               qPrintable(QString(reader.name) + ": " + message));
    }
  }

  // /dev/zero grew to 5.6-8.4 GB in seconds; any device is refused before it is opened (here
  // /dev/null behind a symbolic link: a device named like a plan file).
  void every_reader_refuses_a_device_naming_it() {
    for (const Reader& reader : readers()) {
      TempFiles dir;
      const std::string path = dir.path(reader.file_name);
      fs::create_symlink("/dev/null", path);
      const QString message = io_error_of([&] { reader.read(path); });
      QVERIFY2(message.contains("character device") && message.contains("not a regular file") &&
                   message.contains(QString::fromStdString(path)),
               qPrintable(QString(reader.name) + ": " + message));
    }
  }

  // The size cap is held from the file's size, before a byte is read: a sparse 257 MiB
  // plan.json takes no disk and no memory to refuse.
  void json_files_above_the_cap_are_refused_unread() {
    TempFiles dir;
    const std::string path = dir.path(dplab::cluster::kPlanFile);
    dplab::testing::write_file(path, "{}");
    fs::resize_file(path, dplab::data::kMaxJsonFileBytes + 1);
    const QString message =
        io_error_of([&] { (void)dplab::cluster::read_plan(fs::path(path).parent_path()); });
    QVERIFY2(message.contains("it is 268435457 bytes, and a JSON file may be at most 268435456 "
                              "bytes (268.4 MB; dplab's size cap") &&
                 message.contains(QString::fromStdString(path)),
             qPrintable(message));
  }

  // The parse tree of a JSON file is checked against the budget before the file is read.
  void json_parse_tree_is_checked_against_the_budget() {
    TempFiles dir;
    const std::string path = dir.write(
        "experiment.json", dplab::testing::tiny_experiment_json() + std::string(100000, ' '));
    (void)dplab::experiment::load_experiment_file(path);  // fits the default budget
    const BudgetScope budget(1e6);
    const QString message =
        error_of<InvalidArgument>([&] { (void)dplab::experiment::load_experiment_file(path); });
    QVERIFY2(message.contains(QString::fromStdString(path)) && message.contains("parsing its") &&
                 message.contains("the memory budget is 1.0 MB"),
             qPrintable(message));
  }

  // The corpus loader had no memory budget: 100,000 lines of two words now need their tables
  // checked first.
  void corpus_tables_are_checked_against_the_budget() {
    TempFiles dir;
    std::string text;
    for (int i = 0; i < 100000; ++i) text += "xq zv\n";
    const std::string path = dir.write("corpus.txt", text);
    const auto corpus = dplab::text::load_text_corpus(path, {});  // fits the default budget
    QCOMPARE(corpus.raw_tokens, std::int64_t{200000});
    QCOMPARE(static_cast<int>(corpus.lines.size()), 100000);
    const BudgetScope budget(2e6);
    const QString message =
        error_of<InvalidArgument>([&] { (void)dplab::text::load_text_corpus(path, {}); });
    QVERIFY2(message.contains("the text corpus '" + QString::fromStdString(path) + "'") &&
                 message.contains("the memory budget is 2.0 MB"),
             qPrintable(message));
  }

  // Text with names must be UTF-8; the first bad byte is named by its offset (a Latin-1 e-acute
  // is byte 0xE9).
  void latin1_text_is_named_by_byte_offset() {
    TempFiles dir;
    const std::string corpus = dir.write("corpus.txt", "bread wine\ncaf\xE9 bread wine\n");
    const QString c =
        error_of<ParseError>([&] { (void)dplab::text::load_text_corpus(corpus, {}); });
    QVERIFY2(c.contains(QString::fromStdString(corpus) + ": byte offset 14: not UTF-8 (byte 0xE9)"),
             qPrintable(c));
    std::string json = dplab::testing::tiny_experiment_json();
    json.replace(json.find("\"tiny\""), 6, "\"t\xE9ny\"");
    const std::string experiment = dir.write("experiment.json", json);
    const auto offset = json.find('\xE9');
    const QString e =
        error_of<ParseError>([&] { (void)dplab::experiment::load_experiment_file(experiment); });
    QVERIFY2(e.contains(QString::fromStdString(experiment) + ": byte offset " +
                        QString::number(offset) + ": not UTF-8 (byte 0xE9)"),
             qPrintable(e));
  }

  // RFC 3629 / Unicode table 3-7, byte by byte.
  void utf8_validation_follows_the_standard() {
    using dplab::first_invalid_utf8;
    QVERIFY(!first_invalid_utf8("plain ASCII"));
    QVERIFY(!first_invalid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF"));
    QCOMPARE(*first_invalid_utf8("ab\x80"), std::size_t{2});            // stray continuation
    QCOMPARE(*first_invalid_utf8("a\xC0\x80"), std::size_t{1});         // overlong NUL
    QCOMPARE(*first_invalid_utf8("a\xE0\x80\x80"), std::size_t{1});     // overlong 3-byte
    QCOMPARE(*first_invalid_utf8("\xED\xA0\x80"), std::size_t{0});      // surrogate U+D800
    QCOMPARE(*first_invalid_utf8("\xF4\x90\x80\x80"), std::size_t{0});  // above U+10FFFF
    QCOMPARE(*first_invalid_utf8("x\xF5"), std::size_t{1});             // never a lead byte
    QCOMPARE(*first_invalid_utf8("ok\xE2\x82"), std::size_t{2});        // cut by the end
    QCOMPARE(*first_invalid_utf8("\xC3(b"), std::size_t{0});            // lead without its tail
    QCOMPARE(*first_invalid_utf8("\xE2\x82\xAC\xE2\x82("), std::size_t{3});  // after a good one
  }

  // Found by tests/fuzz/fuzz_search_plan.cpp (issue #45): a config path that is not UTF-8 (a
  // Latin-1 folder name given to `tune --plan`) made plan_json_text throw nlohmann's type_error
  // 316, so `tune --plan` and `slurm` ended in "internal error". It is written as json_text
  // writes every output (U+FFFD for the bad bytes), and the plan reads back with the same id.
  void a_plan_with_a_latin1_config_path_writes_and_reads_back() {
    const auto config = dplab::testing::tiny_experiment(20, 1);
    const auto search =
        dplab::tuning::Runner(config, dplab::tuning::load_experiment_data(config)).plan();
    auto plan = dplab::cluster::make_plan(search, std::nullopt, "runs/caf\xE9.json", "", "", "x");
    TempFiles dir;
    const std::string folder = dir.path("plan");
    dplab::cluster::write_plan(folder, plan);
    const auto back = dplab::cluster::read_plan(folder);
    QCOMPARE(back.config_path, std::string("runs/caf\xEF\xBF\xBD.json"));
    QCOMPARE(back.plan_id, plan.plan_id);
    QCOMPARE(dplab::cluster::plan_json_text(plan), [&] {
      auto again = back;
      return dplab::cluster::plan_json_text(again);
    }());
  }

  // Slurm's --time formats, parsed strictly: 99999999999999999999:00:00 used to be accepted.
  void slurm_time_is_parsed_strictly() {
    using dplab::cluster::slurm_time_minutes;
    QCOMPARE(slurm_time_minutes("90"), 90LL);
    QCOMPARE(slurm_time_minutes("1:30"), 2LL);  // seconds round up to a minute, as Slurm does
    QCOMPARE(slurm_time_minutes("2:00:00"), 120LL);
    QCOMPARE(slurm_time_minutes("1-0"), 1440LL);
    QCOMPARE(slurm_time_minutes("1-2:30"), 1590LL);
    QCOMPARE(slurm_time_minutes("1-2:30:15"), 1591LL);
    QCOMPARE(slurm_time_minutes("INFINITE"), -1LL);
    QCOMPARE(slurm_time_minutes("4294967293"), dplab::cluster::kMaxSlurmTimeMinutes);
    for (const char* bad :
         {"99999999999999999999:00:00", "4294967294", "1:60", "1:2:60", "1:60:00", "1-24", "1-2:60",
          "-5", "1:2:3:4", "", "a", "1 :00", "+5", "1--2", "1-", ":30"}) {
      const QString message = error_of<InvalidArgument>([&] { (void)slurm_time_minutes(bad); });
      QVERIFY2(message.startsWith(QString("--time '") + bad + "': "), qPrintable(message));
    }
    dplab::cluster::SlurmOptions o;
    o.time = "99999999999999999999:00:00";
    const QString check =
        error_of<InvalidArgument>([&] { dplab::cluster::check_slurm_options(o); });
    QVERIFY2(check.contains("'99999999999999999999' is not a number of at most 10 digits"),
             qPrintable(check));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestInputReader)
#include "test_input_reader.moc"
