#include "shell/scripted_session.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QPixmap>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTextStream>
#include <QThread>
#include <QTimer>
#include <cstdio>

#include "form/experiment_form.h"
#include "shell/main_window.h"
#include "shell/status_panel.h"
#include "views/privacy_tab.h"

namespace dplab::ui {

namespace {
constexpr int kPollMs = 50;
constexpr int kFormWaitMs = 120000;  // data loading (Fashion-MNIST: ~1 s) must finish by then

void printErr(const QString& text) {
  std::fprintf(stderr, "dplab: %s\n", text.toLocal8Bit().constData());
  std::fflush(stderr);
}
}  // namespace

ScriptedSession::ScriptedSession(MainWindow* window, ScriptOptions options, QObject* parent)
    : QObject(parent), window_(window), options_(std::move(options)), poll_(new QTimer(this)) {
  poll_->setInterval(kPollMs);
  connect(poll_, &QTimer::timeout, this, &ScriptedSession::waitForForm);
  connect(window_, &MainWindow::runFinished, this, &ScriptedSession::onRunFinished);
  if (options_.unattended()) {
    QTimer::singleShot(options_.timeout_seconds * 1000, this, [this] {
      finish(1, tr("timed out after %1 s").arg(options_.timeout_seconds));
    });
  }
}

void ScriptedSession::start() {
  if (!options_.open_path.isEmpty()) {
    QString error;
    if (!window_->openExperiment(options_.open_path, &error)) {
      finish(1, tr("cannot open %1: %2").arg(options_.open_path, error));
      return;
    }
  }
  if (!options_.run) {
    if (!options_.screenshot_dir.isEmpty()) takeScreenshots();
    if (options_.quit_when_done) finish(0);
    return;
  }
  poll_->start();
}

void ScriptedSession::waitForForm() {
  waited_ms_ += kPollMs;
  ExperimentForm* form = window_->form();
  const QStringList errors = form->errors();
  if (form->dataReady() && errors.isEmpty()) {
    poll_->stop();
    run_started_ = window_->startRun();
    if (!run_started_) finish(1, tr("the run could not start"));
    return;
  }
  // A data set that failed to load, or a marked field once the data is there: report at once.
  const bool data_failed =
      !errors.isEmpty() && errors.first().startsWith(QStringLiteral("data set:"));
  const bool invalid = form->dataReady() && !errors.isEmpty();
  if (data_failed || invalid || waited_ms_ > kFormWaitMs) {
    poll_->stop();
    finish(1, tr("the experiment is not runnable: %1").arg(errors.join(QStringLiteral("; "))));
  }
}

void ScriptedSession::onRunFinished(bool ok, bool cancelled) {
  if (done_ || !run_started_) return;
  if (!ok || cancelled) {
    finish(1, ok ? tr("the run was cancelled") : tr("the run failed (see the messages above)"));
    return;
  }
  std::printf("dplab: run finished; longest GUI stall during the run: %.1f ms\n",
              window_->longestStallMs());
  std::fflush(stdout);
  if (!options_.screenshot_dir.isEmpty()) takeScreenshots();
  exportReportThenFinish();
}

void ScriptedSession::exportReportThenFinish() {
  if (done_) return;
  if (options_.report_dir.isEmpty()) {
    if (options_.quit_when_done) finish(0);
    return;
  }
  connect(window_, &MainWindow::reportExported, this,
          [this](bool ok, const QString& dir, const QString& error) {
            if (!ok) {
              finish(1, tr("report: %1").arg(error));
              return;
            }
            std::printf("dplab: report %s\n", dir.toLocal8Bit().constData());
            std::fflush(stdout);
            if (options_.quit_when_done) finish(0);
          });
  QString error;
  if (!window_->exportReport(options_.report_dir, &error)) finish(1, tr("report: %1").arg(error));
}

void ScriptedSession::takeScreenshots() {
  if (!QDir().mkpath(options_.screenshot_dir)) {
    finish(1, tr("cannot create %1").arg(options_.screenshot_dir));
    return;
  }
  QTabWidget* tabs = window_->tabs();
  const QDir dir(options_.screenshot_dir);
  for (int i = 0; i < tabs->count(); ++i) {
    tabs->setCurrentIndex(i);
    // Let layouts settle and queued replots run before grabbing; the privacy charts are computed
    // off the GUI thread, so wait (up to 30 s) until they show the current settings.
    for (int k = 0; k < 5; ++k) QApplication::processEvents();
    QElapsedTimer waited;
    waited.start();
    while (!window_->privacyTab()->upToDate() && waited.elapsed() < 30000) {
      QApplication::processEvents(QEventLoop::AllEvents, 50);
      QThread::msleep(10);
    }
    for (int k = 0; k < 5; ++k) QApplication::processEvents();
    // File-name-safe tab title: Greek symbols spelled out ("α–C heatmap" -> alpha_c_heatmap).
    QString slug = tabs->tabText(i).toLower().replace(QChar(0x03B1), QStringLiteral("alpha"));
    slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("_"));
    const QString name = QStringLiteral("%1_%2.png").arg(i + 1, 2, 10, QLatin1Char('0')).arg(slug);
    const QString path = dir.filePath(name);
    if (!window_->grab().save(path, "PNG")) {
      finish(1, tr("cannot write screenshot %1").arg(path));
      return;
    }
    std::printf("dplab: screenshot %s\n", path.toLocal8Bit().constData());
  }
  std::fflush(stdout);
}

void ScriptedSession::finish(int code, const QString& error) {
  if (done_) return;
  done_ = true;
  if (!error.isEmpty()) printErr(error);
  if (code != 0) {
    for (const QString& e : window_->statusPanel()->errors()) printErr(e);
  }
  std::printf("dplab: longest GUI stall: %.1f ms\n", window_->longestStallMs());
  std::fflush(stdout);
  if (options_.quit_when_done || (code != 0 && options_.unattended())) emit quitRequested(code);
}

}  // namespace dplab::ui
