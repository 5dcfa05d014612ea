// ReportExporter: writes the report of the run the window shows without blocking the GUI thread
// (issue #9 items 2 and 9). What a report holds: the run's own experiment.json, its Release
// (engine release/: release.json and the released CSVs, the same bytes as `tune --out` and
// `history export` write for the run: explore every run's curves, aggregates and α–C grid; a
// private search its winners only), for explore also summary.json and README.md (engine
// tuning/run_summary), every chart as PNG, PDF and SVG with its numbers as CSV, and the results
// table as results.csv.
//
// How: start() snapshots the run and the results table and returns at once. The charts are then
// recorded one (chart, format) per event-loop pass (ChartView::recordImage: layout and drawing
// commands, no rasterising) — a chart whose view computes its numbers on a worker when read
// (a hidden tab) is waited for on the event loop, and a chart with nothing plotted is left out —
// and a worker (async::startInBackground) writes everything — engine
// files, pictures replayed onto PNG/PDF/SVG, CSVs. finished() reports the outcome. One export at a
// time.
#pragma once

#include <QList>
#include <QObject>
#include <QPicture>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <thread>
#include <vector>

#include "async/background_task.h"

#include <optional>

#include "charts/chart_export.h"
#include "store/spent_budget.h"
#include "tuning/private_search.h"
#include "tuning/results.h"

namespace dplab::ui {

class ChartView;

class ReportExporter : public QObject {
  Q_OBJECT
 public:
  explicit ReportExporter(QObject* parent = nullptr);
  ~ReportExporter() override;  // waits for a write in progress

  // Starts exporting the run with `charts` and the results table into `dir`: `runs` (every run
  // trained), `winners` (a private search's; none for explore) and `spent` (what a stored run
  // spent over its attempts) make its Release, `shown`
  // (what the views show) its explore summary. False (and *error) when nothing can start: an
  // export is running, or `dir` cannot be created.
  bool start(const QString& dir, const tuning::SearchResults& shown,
             const tuning::SearchResults& runs,
             const std::optional<tuning::PrivateRelease>& winners,
             const std::optional<store::SpentBudget>& spent, const QList<ChartView*>& charts,
             const CsvTable& results_table, const ImageExportOptions& options, QString* error);
  bool busy() const { return busy_; }
  // The thread that wrote the last report's files (tests: not the GUI thread).
  std::thread::id writerThread() const { return writer_id_; }

 signals:
  void finished(bool ok, const QString& dir, const QString& error);

 private:
  struct Recorded {
    QString path;
    ImageFormat format = ImageFormat::kPng;
    QPicture picture;
  };
  struct RecordedCsv {
    QString path;
    CsvTable table;
  };
  static constexpr int kPendingPollMs = 20;
  static constexpr int kPendingWaitMs = 30000;
  void recordNext();
  void write();
  void done(bool ok, const QString& error);

  bool busy_ = false;
  int waited_ms_ = 0;  // for the chart being recorded, while its numbers are computed
  QString dir_;
  tuning::SearchResults results_;
  tuning::SearchResults runs_;
  std::optional<tuning::PrivateRelease> winners_;
  std::optional<store::SpentBudget> spent_;
  CsvTable results_table_;
  ImageExportOptions options_;
  QList<QPointer<ChartView>> charts_;
  int next_step_ = 0;  // chart index × 3 + format
  std::vector<Recorded> pictures_;
  std::vector<RecordedCsv> csvs_;
  QTimer step_timer_;
  async::TaskHandle writer_;
  std::thread::id writer_id_;
};

}  // namespace dplab::ui
