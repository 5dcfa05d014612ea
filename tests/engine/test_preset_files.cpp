// Presets by name (issue #43 item 3, data/preset_files.h): a path that exists is used as given,
// a bare name (with or without .json) is looked up in the presets folder, found by the shipped
// data's folder search or $DPLAB_PRESETS_DIR, whatever the working directory; an unknown name is
// an IoError naming the folder and listing its presets.
#include <QTest>

#include <filesystem>
#include <string>

#include "core/error.h"
#include "data/preset_files.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_paths.h"
#include "support/test_registry.h"

using namespace dplab;
using dplab::testing::error_of;
using dplab::testing::TempFiles;
namespace fs = std::filesystem;

namespace {
// Runs in `dir` as the working directory, then returns to the one before.
class InFolder {
 public:
  explicit InFolder(const std::string& dir) : before_(fs::current_path()) { fs::current_path(dir); }
  ~InFolder() { fs::current_path(before_); }

 private:
  fs::path before_;
};
}  // namespace

class TestPresetFiles : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() {
    qunsetenv("DPLAB_PRESETS_DIR");
    qunsetenv("DPLAB_DATA_DIR");
  }

  void name_is_found_in_the_presets_folder_from_any_folder() {
    TempFiles presets, elsewhere;
    const std::string demo = presets.write("demo.json", "{}");
    presets.write("other.json", "{}");
    qputenv("DPLAB_PRESETS_DIR", QByteArray::fromStdString(presets.path("")));
    InFolder in(elsewhere.path(""));
    QCOMPARE(fs::path(data::resolve_preset_path("demo")), fs::path(demo));
    QCOMPARE(fs::path(data::resolve_preset_path("demo.json")), fs::path(demo));
    // A folder of that name here is no experiment file: the preset is still found.
    fs::create_directory("demo");
    QCOMPARE(fs::path(data::resolve_preset_path("demo")), fs::path(demo));
  }

  void existing_path_and_path_with_a_folder_are_used_as_given() {
    TempFiles presets, here;
    presets.write("demo.json", "{}");
    qputenv("DPLAB_PRESETS_DIR", QByteArray::fromStdString(presets.path("")));
    InFolder in(here.path(""));
    here.write("demo.json", "{}");  // the user's own file of a preset's name wins
    QCOMPARE(data::resolve_preset_path("demo.json"), std::string("demo.json"));
    QCOMPARE(data::resolve_preset_path("runs/missing.json"), std::string("runs/missing.json"));
    const std::string absolute = here.path("demo.json");
    QCOMPARE(data::resolve_preset_path(absolute), absolute);
  }

  void unknown_name_lists_the_presets_and_the_folder() {
    TempFiles presets;
    presets.write("demo.json", "{}");
    presets.write("other.json", "{}");
    presets.write("notes.txt", "not a preset");
    qputenv("DPLAB_PRESETS_DIR", QByteArray::fromStdString(presets.path("")));
    const QString message = error_of<IoError>([] { data::resolve_preset_path("dmeo"); });
    QVERIFY2(message.contains("'dmeo'") && message.contains("presets: demo, other)") &&
                 message.contains(QString::fromStdString(presets.path(""))),
             qPrintable(message));
    qputenv("DPLAB_PRESETS_DIR", QByteArray::fromStdString(presets.path("missing")));
    const QString no_folder = error_of<IoError>([] { data::resolve_preset_path("demo"); });
    QVERIFY2(no_folder.contains("DPLAB_PRESETS_DIR") && no_folder.contains("not a folder"),
             qPrintable(no_folder));
  }

  // Without $DPLAB_PRESETS_DIR the presets sit next to the data folder the shipped data's search
  // finds: here $DPLAB_DATA_DIR at the checkout's datasets/, whose resources/presets is beside.
  void presets_folder_follows_the_data_folder_search() {
    qputenv("DPLAB_DATA_DIR", QByteArray::fromStdString(testing::datasets_dir()));
    QCOMPARE(fs::canonical(data::find_presets_dir()), fs::canonical(testing::presets_dir()));
    QCOMPARE(fs::canonical(data::resolve_preset_path("quick-demo")),
             fs::canonical(testing::presets_dir() + "/quick-demo.json"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestPresetFiles)
#include "test_preset_files.moc"
