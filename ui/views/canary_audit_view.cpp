#include "views/canary_audit_view.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <algorithm>
#include <cmath>

#include "charts/chart_view.h"
#include "charts/theme.h"
#include "views/figure_run_panel.h"
#include "views/sparse_loss_view.h"
#include "views/sparse_preset_fields.h"

namespace dplab::ui {
namespace {

double total(const audit::RankHistogram& h) {
  double sum = 0;
  for (double c : h.counts) sum += c;
  return sum;
}

QString methodLabel(const std::string& method) {
  if (method == "never-inserted") return QObject::tr("never inserted (null)");
  return wideMethodLabel(training::parse_wide_method(method));
}

// Carlini et al.'s exposure over the m canaries: "mean / max" in bits.
QString exposureText(const audit::ExposureSummary& e) {
  return QStringLiteral("%1 / %2").arg(formatReadable(e.mean, 3), formatReadable(e.max, 3));
}

QColor methodColor(const std::string& method) {
  if (method == "never-inserted") return QColor(0x94, 0x67, 0xbd);  // purple: apart from grey
  return wideMethodColor(training::parse_wide_method(method));
}

}  // namespace

CanaryAuditView::CanaryAuditView(QWidget* parent)
    : FigureView(tr("Run canary audit"), tr("canary audit"), 420, parent) {
  fields_ = new SparsePresetFields(this);
  canaries_ = new QSpinBox(this);
  canaries_->setRange(10, 100000);
  canaries_->setValue(200);
  canaries_->setToolTip(tr("Number of canaries m (the paper: 1,000); 10 histogram bins"));
  repeats_ = new QLineEdit(QStringLiteral("3, 9, 15"), this);
  repeats_->setToolTip(tr("Comma-separated insertion counts n_c (each >= 1)"));
  fields_->form()->addRow(tr("canaries m"), canaries_);
  fields_->form()->addRow(tr("insertions n_c"), repeats_);
  panel()->addSettings(fields_);
  panel()->addNote(
      tr("Rank = fraction of all |V|² alternatives the canary beats (1 = memorised). Never-"
         "inserted phrases must look uniform; a memorised canary piles up at the right. χ² "
         "distance = X²/m against uniform over 10 bins (9 degrees of freedom). DP-SGD uses the "
         "sparse method's σ, as the paper's Table 2 does."));
  table_ = newFigureTable({tr("n_c"), tr("method"), tr("χ² distance"), tr("p-value"),
                           tr("exposure mean / max (bits)"), tr("training time")},
                          this);

  shown_ = new QComboBox(this);
  chart_ = new ChartView(tr("Canary rank histograms against uniform"),
                         QStringLiteral("canary_rank_histograms"), this);
  connect(chart_, &ChartView::message, this, &CanaryAuditView::message);
  chart_->setCsvProvider([this] { return histogramTable(); });
  placeResults(chartAndTableColumn(tr("chart shows n_c ="), shown_, chart_,
                                   tr("Table 2: χ² distance to uniform"), table_));

  connect(shown_, &QComboBox::currentIndexChanged, this, [this] { drawHistograms(); });
  drawHistograms();
}

CanaryAuditView::~CanaryAuditView() = default;

void CanaryAuditView::setCanaries(int count, const std::vector<int>& repeats) {
  canaries_->setValue(count);
  QStringList parts;
  for (int r : repeats) parts << QString::number(r);
  repeats_->setText(parts.join(", "));
}

bool CanaryAuditView::run() {
  if (busy()) return false;
  QString error;
  auto preset = fields_->preset(&error);
  std::vector<int> repeats;
  if (preset) {
    for (const QString& part : repeats_->text().split(',', Qt::SkipEmptyParts)) {
      bool ok = false;
      const int n = part.trimmed().toInt(&ok);
      if (!ok || n < 1) {
        error = tr("insertions n_c: \"%1\" is not an integer >= 1").arg(part.trimmed());
        preset.reset();
        break;
      }
      repeats.push_back(n);
    }
    if (preset && repeats.empty()) {
      error = tr("insertions n_c: give at least one n_c >= 1");
      preset.reset();
    }
  }
  if (!preset) {
    panel()->reject(error);
    return false;
  }
  preset->canaries = canaries_->value();
  preset->canary_repeats = repeats;
  pending_ = std::make_shared<std::vector<experiment::Table2Row>>();
  auto out = pending_;
  const experiment::SparsePreset p = *preset;
  return panel()->start(
      [p, out](const std::atomic<bool>& cancel, const BackgroundTask::ProgressFn& report) {
        *out = experiment::run_table2(p, report, &cancel);
      });
}

void CanaryAuditView::runEnded(bool ok) {
  if (ok) {
    rows_ = std::move(*pending_);
    double wall = 0;
    for (const auto& r : *rows_) wall += r.method == "never-inserted" ? 0 : r.train_wall_seconds;
    panel()->setStatus(
        tr("done: %1 rows, %2 of training").arg(rows_->size()).arg(formatSeconds(wall)));
    fillTable();
    {
      const QSignalBlocker block(shown_);
      shown_->clear();
      for (const auto& r : *rows_) {
        if (shown_->findData(r.repeats) < 0) shown_->addItem(QString::number(r.repeats), r.repeats);
      }
      shown_->setCurrentIndex(shown_->count() - 1);  // the largest n_c: the clearest contrast
    }
    drawHistograms();
  }
  pending_.reset();
}

void CanaryAuditView::fillTable() {
  table_->setRowCount(0);
  if (!rows_) return;
  table_->setRowCount(static_cast<int>(rows_->size()));
  int i = 0;
  for (const auto& r : *rows_) {
    const QStringList cells = {QString::number(r.repeats),
                               methodLabel(r.method),
                               formatReadable(r.histogram.test.distance, 3),
                               formatReadable(r.histogram.test.p_value, 3),
                               exposureText(r.exposure),
                               formatSeconds(r.train_wall_seconds)};
    for (int c = 0; c < cells.size(); ++c) table_->setItem(i, c, new QTableWidgetItem(cells[c]));
    ++i;
  }
}

CsvTable CanaryAuditView::histogramTable() const {
  CsvTable table;
  table.header = {"n_c",
                  "method",
                  "bin_low",
                  "bin_high",
                  "count",
                  "uniform_expected",
                  "chi2_distance",
                  "chi2_statistic",
                  "p_value",
                  "mean_exposure_bits",
                  "max_exposure_bits"};
  if (!rows_) return table;
  for (const auto& r : *rows_) {
    const double bins = static_cast<double>(r.histogram.counts.size());
    for (std::size_t b = 0; b < r.histogram.counts.size(); ++b) {
      table.rows.append(
          {QString::number(r.repeats), QString::fromStdString(r.method),
           formatNumber(static_cast<double>(b) / bins),
           formatNumber(static_cast<double>(b + 1) / bins), formatNumber(r.histogram.counts[b]),
           formatNumber(total(r.histogram) / bins), formatNumber(r.histogram.test.distance),
           formatNumber(r.histogram.test.statistic), formatNumber(r.histogram.test.p_value),
           formatNumber(r.exposure.mean), formatNumber(r.exposure.max)});
    }
  }
  return table;
}

void CanaryAuditView::drawHistograms() {
  QCustomPlot* plot = chart_->plot();
  plot->clearPlottables();
  plot->xAxis->setLabel(tr("canary rank (fraction of alternatives beaten)"));
  plot->yAxis->setLabel(tr("canaries"));
  plot->xAxis->setRange(0, 1);
  if (!rows_ || shown_->count() == 0) {
    plot->legend->setVisible(false);
    plot->yAxis->setRange(0, 1);
    plot->replot();
    return;
  }
  const int repeats = shown_->currentData().toInt();
  std::vector<const experiment::Table2Row*> shown;
  for (const auto& r : *rows_)
    if (r.repeats == repeats) shown.push_back(&r);
  if (!bars_group_) bars_group_ = new QCPBarsGroup(plot);
  bars_group_->clear();
  double ymax = 0, expected = 0;
  for (const auto* r : shown) {
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(tr("%1: χ² %2, p = %3")
                      .arg(methodLabel(r->method))
                      .arg(formatReadable(r->histogram.test.distance, 3))
                      .arg(formatReadable(r->histogram.test.p_value, 2)));
    const QColor color = methodColor(r->method);
    bars->setPen(QPen(color.darker(130)));
    bars->setBrush(color);
    const double bins = static_cast<double>(r->histogram.counts.size());
    bars->setWidth(0.9 / bins / static_cast<double>(shown.size()));
    bars->setBarsGroup(bars_group_);
    for (std::size_t b = 0; b < r->histogram.counts.size(); ++b) {
      bars->addData((static_cast<double>(b) + 0.5) / bins, r->histogram.counts[b]);
      ymax = std::max(ymax, r->histogram.counts[b]);
    }
    expected = total(r->histogram) / bins;
  }
  QCPGraph* uniform = plot->addGraph();
  uniform->setName(tr("uniform (m / 10 per bin)"));
  uniform->setPen(QPen(chartInk(plot), 1.4, Qt::DashLine));
  uniform->addData(0, expected);
  uniform->addData(1, expected);
  plot->yAxis->setRange(0, std::max(ymax, expected) * 1.1 + 1);
  chart_->setTitle(tr("Canary rank histograms, n_c = %1 (uniform dashed)").arg(repeats));
  plot->legend->setVisible(true);
  chart_->layoutLegend(chart_->width());
  plot->replot();
}

}  // namespace dplab::ui
