#include "shell/report_exporter.h"
#include "core/json_text.h"

#include <QDir>
#include <QSaveFile>
#include <nlohmann/json.hpp>

#include "charts/chart_view.h"
#include "experiment/experiment_config.h"
#include "release/release_writer.h"
#include "release/search_release.h"
#include "tuning/run_summary.h"

namespace dplab::ui {

namespace {

constexpr ImageFormat kFormats[] = {ImageFormat::kPng, ImageFormat::kPdf, ImageFormat::kSvg};
constexpr int kNumFormats = 3;

const char* suffix(ImageFormat format) {
  switch (format) {
    case ImageFormat::kPng:
      return "png";
    case ImageFormat::kPdf:
      return "pdf";
    case ImageFormat::kSvg:
      return "svg";
  }
  return "";
}

bool writeFileAtomically(const QString& path, const std::string& text, QString* error) {
  const QByteArray bytes = QByteArray::fromStdString(text);
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
    *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace

ReportExporter::ReportExporter(QObject* parent) : QObject(parent) {
  step_timer_.setSingleShot(true);
  step_timer_.setInterval(0);
  connect(&step_timer_, &QTimer::timeout, this, &ReportExporter::recordNext);
}

ReportExporter::~ReportExporter() {
  writer_.wait();  // a report is never left half-written (the worker holds only its own copies)
}

bool ReportExporter::start(const QString& dir, const tuning::SearchResults& results,
                           const tuning::SearchResults& runs,
                           const std::optional<tuning::PrivateRelease>& winners,
                           const std::optional<store::SpentBudget>& spent,
                           const QList<ChartView*>& charts, const CsvTable& results_table,
                           const ImageExportOptions& options, QString* error) {
  if (busy_) {
    if (error) *error = tr("a report is being written; wait until it is done");
    return false;
  }
  if (!QDir().mkpath(dir)) {
    if (error) *error = tr("cannot create folder %1").arg(dir);
    return false;
  }
  busy_ = true;
  dir_ = dir;
  results_ = results;
  runs_ = runs;
  winners_ = winners;
  spent_ = spent;
  results_table_ = results_table;
  options_ = options;
  charts_.clear();
  for (ChartView* chart : charts) charts_ << chart;
  next_step_ = 0;
  waited_ms_ = 0;
  pictures_.clear();
  csvs_.clear();
  step_timer_.start();
  return true;
}

void ReportExporter::recordNext() {
  const int total = static_cast<int>(charts_.size()) * kNumFormats;
  if (next_step_ >= total) {
    write();
    return;
  }
  ChartView* chart = charts_.value(next_step_ / kNumFormats);
  if (chart && next_step_ % kNumFormats == 0) {
    // A hidden view computes its numbers when read (views/shown_refresh.h), some on a worker:
    // the report waits for them (polling on the event loop, never blocking it) rather than
    // recording an empty chart, up to kPendingWaitMs per chart.
    if (chart->prepareRead() && waited_ms_ < kPendingWaitMs) {
      waited_ms_ += kPendingPollMs;
      step_timer_.start(kPendingPollMs);
      return;
    }
    waited_ms_ = 0;
    if (chart->isEmpty()) {  // nothing this run plotted there: no empty figure in the report
      next_step_ += kNumFormats;
      step_timer_.start(0);
      return;
    }
  }
  const int step = next_step_++;
  if (chart) {
    const QDir d(dir_);
    const ImageFormat format = kFormats[step % kNumFormats];
    pictures_.push_back({d.filePath(chart->fileStem() + "." + suffix(format)), format,
                         chart->recordImage(format, options_)});
    if (step % kNumFormats == 0) {
      csvs_.push_back({d.filePath(chart->fileStem() + ".csv"), chart->csvData()});
    }
  }
  step_timer_.start(0);  // next (chart, format) on the next event-loop pass
}

void ReportExporter::write() {
  csvs_.push_back({QDir(dir_).filePath(QStringLiteral("results.csv")), results_table_});
  struct Written {
    bool ok = false;
    QString error;
    std::thread::id writer;
  };
  writer_ = async::startInBackground(
      this,
      [dir = dir_, results = std::move(results_), runs = std::move(runs_),
       winners = std::move(winners_), spent = std::move(spent_), pictures = std::move(pictures_),
       csvs = std::move(csvs_), options = options_](async::TaskControl&) {
        QString error;
        const QDir d(dir);
        // A report describes the results it shows: their own config and summary, never the form's.
        bool ok = true;
        try {
          ok =
              writeFileAtomically(d.filePath(QStringLiteral("experiment.json")),
                                  json_text(experiment::to_json(results.config), 2) + "\n", &error);
          // A private search's summary would describe the runs behind the winner (their count
          // among them): its report carries the Release only.
          if (ok && results.config.release.mode == experiment::ReleaseMode::kExplore) {
            const tuning::RunSummary summary = tuning::summarize_run(results);
            ok = writeFileAtomically(
                     d.filePath(QStringLiteral("summary.json")),
                     json_text(tuning::run_summary_json(results, summary), 2) + "\n", &error) &&
                 writeFileAtomically(d.filePath(QStringLiteral("README.md")),
                                     tuning::run_summary_markdown(results, summary), &error);
          }
          if (ok) {
            release::write_release(release::search_release(runs, winners, false, spent),
                                   d.absolutePath().toStdString());
          }
        } catch (const std::exception& e) {
          ok = false;
          error = QString::fromStdString(e.what());
        }
        for (std::size_t i = 0; ok && i < pictures.size(); ++i) {
          ok = writePicture(pictures[i].picture, pictures[i].path, pictures[i].format, options,
                            &error);
        }
        for (std::size_t i = 0; ok && i < csvs.size(); ++i) {
          ok = writeCsv(csvs[i].table, csvs[i].path, &error);
        }
        return Written{ok, error, std::this_thread::get_id()};
      },
      [this](const Written& written) {
        writer_id_ = written.writer;
        done(written.ok, written.error);
      },
      [this](const async::Failure& failure) { done(false, failure.message); });
  results_ = {};
  runs_ = {};
  winners_.reset();
  spent_.reset();
  pictures_.clear();
  csvs_.clear();
}

void ReportExporter::done(bool ok, const QString& error) {
  busy_ = false;
  emit finished(ok, dir_, error);
}

}  // namespace dplab::ui
