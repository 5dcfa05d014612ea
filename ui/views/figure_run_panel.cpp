#include "views/figure_run_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "charts/chart_view.h"
#include "charts/side_column.h"
#include "charts/split_or_tabs.h"

namespace dplab::ui {

QString formatSeconds(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("–");
  const double ms = 1000 * seconds;
  if (ms < 9.95) return QStringLiteral("%1 ms").arg(ms, 0, 'f', 1);
  if (ms < 999.5) return QStringLiteral("%1 ms").arg(ms, 0, 'f', 0);
  if (seconds < 9.95) return QStringLiteral("%1 s").arg(seconds, 0, 'f', 1);
  const long s = std::lround(seconds);
  return s < 60 ? QStringLiteral("%1 s").arg(s)
                : QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60);
}

FigureRunPanel::FigureRunPanel(const QString& run_label, const QString& what, int width,
                               QWidget* parent)
    : QScrollArea(parent), what_(what), task_(new BackgroundTask(this)) {
  run_button_ = new QPushButton(run_label, this);
  cancel_button_ = new QPushButton(tr("Cancel"), this);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  settings_ = new QVBoxLayout;
  info_ = new QVBoxLayout;
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(run_button_);
  buttons->addWidget(cancel_button_);
  auto* column = new QVBoxLayout;
  column->addLayout(settings_);
  column->addLayout(buttons);
  column->addWidget(progress_);
  column->addWidget(status_);
  column->addLayout(info_);
  column->addStretch(1);
  auto* inner = new QWidget(this);
  inner->setLayout(column);
  setWidget(inner);
  setWidgetResizable(true);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setFrameShape(QFrame::NoFrame);
  setFixedWidth(width);

  connect(run_button_, &QPushButton::clicked, this, &FigureRunPanel::runClicked);
  connect(cancel_button_, &QPushButton::clicked, this, &FigureRunPanel::cancel);
  connect(task_, &BackgroundTask::progress, this, [this](const QString& text, double fraction) {
    progress_->setValue(static_cast<int>(std::lround(progress_->maximum() * fraction)));
    status_->setText(text);
  });
  connect(task_, &BackgroundTask::finished, this, &FigureRunPanel::onFinished);
  updateButtons();
}

void FigureRunPanel::addSettings(QWidget* widget) {
  settings_->addWidget(widget);
}

void FigureRunPanel::addSettings(QLayout* layout) {
  settings_->addLayout(layout);
}

void FigureRunPanel::addInfo(QWidget* widget) {
  info_->addWidget(widget);
}

QLabel* FigureRunPanel::addNote(const QString& text) {
  auto* note = new QLabel(text, this);
  note->setWordWrap(true);
  info_->addWidget(note);
  return note;
}

QLabel* FigureRunPanel::addSelectableNote() {
  QLabel* note = addNote(QString());
  note->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return note;
}

bool FigureRunPanel::busy() const {
  return task_->busy();
}

bool FigureRunPanel::start(BackgroundTask::Work work, int units, const QString& format) {
  if (!task_->start(std::move(work))) return false;
  progress_->setRange(0, std::max(1, units));
  progress_->setFormat(format);
  progress_->setValue(0);
  status_->setText(tr("starting …"));
  updateButtons();
  return true;
}

void FigureRunPanel::cancel() {
  if (!busy()) return;
  task_->cancel();
  status_->setText(tr("cancelling …"));
}

void FigureRunPanel::reject(const QString& error) {
  status_->setText(error);
  emit message(tr("%1: %2").arg(what_, error), true);
}

void FigureRunPanel::setStatus(const QString& text) {
  status_->setText(text);
}

QString FigureRunPanel::statusText() const {
  return status_->text();
}

void FigureRunPanel::onFinished(bool ok, bool cancelled, const QString& error) {
  if (ok) {
    progress_->setValue(progress_->maximum());
    // Every end says so in the window's messages, or its status bar keeps an older run's
    // "cancelled" or error after this run succeeded.
    emit message(tr("%1 finished").arg(what_), false);
  } else if (cancelled) {
    status_->setText(tr("cancelled; the previous result stays shown"));
    emit message(tr("%1 cancelled").arg(what_), false);
  } else {
    status_->setText(tr("error: %1").arg(error));
    emit message(tr("%1: %2").arg(what_, error), true);
  }
  updateButtons();
  emit finished(ok, cancelled);
}

void FigureRunPanel::updateButtons() {
  run_button_->setEnabled(!busy());
  cancel_button_->setEnabled(busy());
}

QTableWidget* newFigureTable(const QStringList& headers, QWidget* parent) {
  auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
  table->setHorizontalHeaderLabels(headers);
  table->verticalHeader()->setVisible(false);
  table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table->horizontalHeader()->setStretchLastSection(true);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setMinimumHeight(140);
  return table;
}

QVBoxLayout* chartAndTableColumn(const QString& chooser_label, QComboBox* chooser, ChartView* chart,
                                 const QString& table_title, QTableWidget* table) {
  auto* chooser_row = new QHBoxLayout;
  chooser_row->addWidget(new QLabel(chooser_label, chart->parentWidget()));
  chooser_row->addWidget(chooser);
  chooser_row->addStretch(1);
  auto* column = new QVBoxLayout;
  column->addLayout(chooser_row);
  column->addWidget(chartOverTable(chart, table_title, table), 1);
  return column;
}

SplitOrTabs* chartOverTable(ChartView* chart, const QString& table_title, QTableWidget* table,
                            int chart_least) {
  QWidget* parent = chart->parentWidget();
  auto* table_page = new QWidget(parent);
  auto* table_layout = new QVBoxLayout(table_page);
  table_layout->setContentsMargins(0, 0, 0, 0);
  table_layout->addWidget(new QLabel(table_title, table_page));
  table_layout->addWidget(table, 1);
  // A short window shows the chart or the table, each whole (the chart was 141–185 px of plot at
  // 1024 × 700 over its table).
  auto* stack = new SplitOrTabs(Qt::Vertical, parent);
  stack->addPanel(chart, QObject::tr("Chart"), chart_least > 0 ? chart_least : kLeastChartHeight,
                  3);
  stack->addPanel(table_page, QObject::tr("Table"), table->minimumHeight() + 30, 2);
  return stack;
}

FigureView::FigureView(const QString& run_label, const QString& what, int panel_width,
                       QWidget* parent)
    : QWidget(parent), panel_(new FigureRunPanel(run_label, what, panel_width, this)) {
  connect(panel_, &FigureRunPanel::runClicked, this, [this] { run(); });
  connect(panel_, &FigureRunPanel::message, this, &FigureView::message);
  connect(panel_, &FigureRunPanel::finished, this, [this](bool ok, bool cancelled) {
    runEnded(ok);
    if (ok) ++finished_runs_;
    emit finished(ok, cancelled);
  });
}

void FigureView::placeResults(QLayout* results) {
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(panel_, 0);
  layout->addLayout(results, 1);
  fitPanel();
}

void FigureView::placeResults(QWidget* results) {
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(panel_, 0);
  layout->addWidget(results, 1);
  fitPanel();
}

void FigureView::fitPanel() {
  // The panel's width as made (FigureRunPanel's fixed width) while the results keep a readable
  // chart beside it; narrower on a small screen (it scrolls vertically).
  fitSideColumn(this, panel_, panel_->maximumWidth(), kLeastFigurePanelWidth,
                kLeastChartColumnWidth);
}

void FigureView::cancel() {
  panel_->cancel();
}
bool FigureView::busy() const {
  return panel_->busy();
}
QPushButton* FigureView::runButton() const {
  return panel_->runButton();
}
QPushButton* FigureView::cancelButton() const {
  return panel_->cancelButton();
}
QProgressBar* FigureView::progressBar() const {
  return panel_->progressBar();
}
QString FigureView::statusText() const {
  return panel_->statusText();
}

}  // namespace dplab::ui
