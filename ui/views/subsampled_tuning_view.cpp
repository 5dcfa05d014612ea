#include "views/subsampled_tuning_view.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "async/latest_only_task.h"
#include "charts/chart_export.h"
#include "charts/chart_view.h"
#include "charts/side_column.h"
#include "charts/split_or_tabs.h"
#include "charts/theme.h"

namespace dplab::ui {
namespace {

QString fmt(double v) {
  return QString::number(v, 'g', 4);
}

QCPGraph* add_line(QCustomPlot* plot, const QString& name, const QColor& color,
                   Qt::PenStyle style = Qt::SolidLine) {
  QCPGraph* graph = plot->addGraph();
  graph->setName(name);
  QPen pen(color, 2.0);
  pen.setStyle(style);
  graph->setPen(pen);
  return graph;
}

// The user's current q: a vertical grey dashed line from 0 to `top`.
void add_marker(QCustomPlot* plot, double q, double top) {
  QCPGraph* marker =
      add_line(plot, QObject::tr("your q = %1").arg(fmt(q)), QColor(90, 90, 90), Qt::DashLine);
  marker->addData(q, 0.0);
  marker->addData(q, top);
}

}  // namespace

SubsampledTuningView::SubsampledTuningView(QWidget* parent)
    : QWidget(parent), run_fields_(this, 1.0, 2'000) {
  mu_ = new QDoubleSpinBox(this);
  mu_->setRange(1.0, 700.0);
  mu_->setDecimals(1);
  mu_->setValue(10.0);
  fraction_ = new QDoubleSpinBox(this);
  fraction_->setRange(0.01, 1.0);
  fraction_->setDecimals(2);
  fraction_->setSingleStep(0.05);
  fraction_->setValue(0.1);
  auto* form = new QFormLayout;
  run_fields_.addRows(form, tr("lot sampling rate L/n"));
  form->addRow(tr("E[K] = μ (Poisson)"), mu_);
  form->addRow(tr("your tuning fraction q"), fraction_);

  headline_ = new QLabel(this);
  headline_->setWordWrap(true);
  // Until an experiment with "private on a subsample" fills the fields, they hold an example.
  source_ = new QLabel(
      tr("<i>Example settings</i>: edit them here, or choose Release → private on a subsample "
         "in the form to start from your experiment."),
      this);
  source_->setObjectName(QStringLiteral("subsampledSource"));
  source_->setWordWrap(true);
  setTone(source_, Tone::kNote);
  auto* note = new QLabel(
      tr("ε of the WHOLE procedure at the same δ. KK23 (Koskela & Kulkarni 2023): a "
         "Papernot–Steinke search on a Poisson subsample of rate q (each candidate at the same "
         "lot sampling rate on it), then one final run on the full data — or on the rest "
         "(variant 2, dplab's derived bound); both phases charged. PS / LT: the search on the "
         "full data, its best run released (no final run). The learning-rate transfer to the "
         "final run is a heuristic and costs no privacy. Compute is in full-data runs."),
      this);
  note->setWordWrap(true);

  epsilon_chart_ =
      new ChartView(tr("ε of the whole procedure vs q"), "subsampled_tuning_epsilon", this);
  compute_chart_ = new ChartView(tr("Expected compute vs q"), "subsampled_tuning_compute", this);
  for (ChartView* chart : {epsilon_chart_, compute_chart_}) {
    connect(chart, &ChartView::message, this, &SubsampledTuningView::message);
    chart->setCsvProvider([this] {
      CsvTable table;
      table.constantColumns.push_back(
          {QStringLiteral("epsilon_label"),
           QString("eps of the whole procedure at delta = %1 (sigma = %2, rate %3, T "
                   "= %4, Poisson mu = %5); accountant: rdp; kk23 charges both phases")
               .arg(drawn_request_.delta)
               .arg(drawn_request_.run.noise_multiplier)
               .arg(drawn_request_.run.sampling_rate)
               .arg(drawn_request_.run.steps)
               .arg(drawn_request_.mu)});
      table.header << "tuning_fraction"
                   << "eps_kk23"
                   << "eps_kk23_complement"
                   << "eps_ps_full"
                   << "eps_lt_full"
                   << "compute_kk23"
                   << "compute_kk23_complement"
                   << "compute_ps_full"
                   << "compute_lt_full";
      for (const auto& p : points_) {
        table.rows << QStringList{QString::number(p.tuning_fraction, 'g', 17),
                                  QString::number(p.epsilon_kk23, 'g', 17),
                                  QString::number(p.epsilon_kk23_complement, 'g', 17),
                                  QString::number(p.epsilon_ps_full, 'g', 17),
                                  QString::number(p.epsilon_lt_full, 'g', 17),
                                  QString::number(p.compute_kk23, 'g', 17),
                                  QString::number(p.compute_kk23_complement, 'g', 17),
                                  QString::number(p.compute_ps_full, 'g', 17),
                                  QString::number(p.compute_lt_full, 'g', 17)};
      }
      return table;
    });
  }
  // The controls and texts in a column of bounded width, so that the charts get the rest of a
  // 1280-pixel window (their titles and axis labels stay whole).
  auto* left_column = new QWidget;
  auto* left = new QVBoxLayout(left_column);
  left->setContentsMargins(0, 0, 0, 0);
  left->addWidget(source_);
  left->addLayout(form);
  left->addWidget(headline_);
  left->addWidget(note);
  left->addStretch(1);
  QScrollArea* left_scroll = sideScrollArea(left_column, this);
  auto* charts = new SplitOrTabs(Qt::Vertical, this);
  charts->addPanel(epsilon_chart_, tr("ε vs q"), kLeastChartHeight, 3);
  charts->addPanel(compute_chart_, tr("compute vs q"), kLeastChartHeight, 2);
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(left_scroll, 0);
  layout->addWidget(charts, 1);
  fitSideColumn(this, left_scroll, kSideColumnWidth, kLeastSideColumnWidth, kLeastChartColumnWidth);

  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(150);
  connect(debounce_, &QTimer::timeout, this, &SubsampledTuningView::recompute);
  auto schedule = [this] { debounce_->start(); };
  run_fields_.onChanged(this, schedule);
  connect(mu_, &QDoubleSpinBox::valueChanged, this, schedule);
  // q only moves the marker: the series does not depend on it.
  connect(fraction_, &QDoubleSpinBox::valueChanged, this, [this] {
    if (!points_.empty()) draw();
  });
  task_ = std::make_unique<LatestOnlyTask<Request, Series>>(
      this,
      [](const Request& request) {
        privacy::CandidateCountLaw law;
        law.mu = request.mu;
        return Series{request, privacy::epsilon_vs_tuning_fraction(
                                   request.run, law, privacy::SubsetBatching::kSameSamplingRate,
                                   request.delta)};
      },
      [this](int sequence, const Series& series) { onComputed(sequence, series); },
      [this](int sequence, const QString& error) {
        drawn_sequence_ = std::max(drawn_sequence_, sequence);
        headline_->setText(tr("error: %1").arg(error));
        emit message(tr("tuning on a subsample: %1").arg(error), true);
      });
}

SubsampledTuningView::~SubsampledTuningView() = default;  // the task joins its thread

bool SubsampledTuningView::busy() const {
  return task_->busy() || drawn_sequence_ < requested_sequence_;
}

double SubsampledTuningView::currentFraction() const {
  return fraction_->value();
}

void SubsampledTuningView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (completed_ == 0 && !busy()) debounce_->start();
}

void SubsampledTuningView::setSettings(double sigma, double sampling_rate, int steps, double delta,
                                       double mu, double tuning_fraction) {
  const QSignalBlocker b1(mu_), b2(fraction_);
  run_fields_.set(sigma, sampling_rate, steps, delta);
  source_->setText(tr("Your experiment's settings (from the form); edit them here to explore."));
  mu_->setValue(mu);
  fraction_->setValue(tuning_fraction);
  debounce_->start();
}

QString SubsampledTuningView::sourceText() const {
  return source_->text();
}

SubsampledTuningView::Request SubsampledTuningView::currentRequest() const {
  return {run_fields_.run(), run_fields_.delta(), mu_->value()};
}

void SubsampledTuningView::recompute() {
  headline_->setText(tr("computing …"));
  requested_sequence_ = task_->submit(currentRequest());
}

void SubsampledTuningView::onComputed(int sequence, const Series& series) {
  drawn_sequence_ = std::max(drawn_sequence_, sequence);
  drawn_request_ = series.request;
  points_ = series.points;
  draw();
  if (sequence < requested_sequence_) headline_->setText(tr("computing …"));
  ++completed_;
  emit computed();
}

QString SubsampledTuningView::headline() const {
  if (points_.empty()) return {};
  const double q = fraction_->value();
  // The nearest computed q (the series is on a 0.05 grid).
  const auto nearest = std::min_element(points_.begin(), points_.end(), [q](auto& a, auto& b) {
    return std::abs(a.tuning_fraction - q) < std::abs(b.tuning_fraction - q);
  });
  return tr("At q = %1: ε = %2 for KK23 (both phases, final run on the full data), %3 with the "
            "final run on the rest; Papernot–Steinke on the full data: %4; Liu–Talwar: %5 "
            "(accountant: rdp, δ = %6). Compute: %7 vs %8 full-data runs.")
      .arg(fmt(nearest->tuning_fraction))
      .arg(fmt(nearest->epsilon_kk23))
      .arg(fmt(nearest->epsilon_kk23_complement))
      .arg(fmt(nearest->epsilon_ps_full))
      .arg(fmt(nearest->epsilon_lt_full))
      .arg(drawn_request_.delta, 0, 'g', 2)
      .arg(fmt(nearest->compute_kk23))
      .arg(fmt(nearest->compute_ps_full));
}

void SubsampledTuningView::draw() {
  const double q = fraction_->value();
  {
    QCustomPlot* plot = epsilon_chart_->plot();
    plot->clearGraphs();
    QCPGraph* kk = add_line(plot, tr("KK23, final run on full data"), QColor(0x1f, 0x77, 0xb4));
    QCPGraph* kk2 =
        add_line(plot, tr("KK23, final run on the rest"), QColor(0x1f, 0x77, 0xb4), Qt::DotLine);
    QCPGraph* ps = add_line(plot, tr("Papernot–Steinke, full data"), QColor(0xff, 0x7f, 0x0e));
    QCPGraph* lt = add_line(plot, tr("Liu–Talwar, full data (γ = 1/μ)"), QColor(0x2c, 0xa0, 0x2c));
    double top = 0.0;
    for (const auto& p : points_) {
      kk->addData(p.tuning_fraction, p.epsilon_kk23);
      kk2->addData(p.tuning_fraction, p.epsilon_kk23_complement);
      ps->addData(p.tuning_fraction, p.epsilon_ps_full);
      lt->addData(p.tuning_fraction, p.epsilon_lt_full);
      top = std::max(
          {top, p.epsilon_kk23, p.epsilon_kk23_complement, p.epsilon_ps_full, p.epsilon_lt_full});
    }
    top = top > 0 ? top * 1.1 : 1.0;
    add_marker(plot, q, top);
    plot->xAxis->setLabel(tr("tuning fraction q"));
    plot->yAxis->setLabel(tr("ε (whole procedure, δ = %1)").arg(drawn_request_.delta, 0, 'g', 2));
    plot->xAxis->setRange(0.0, 1.02);
    plot->yAxis->setRange(0.0, top);
    plot->legend->setVisible(true);
    plot->replot();
  }
  {
    QCustomPlot* plot = compute_chart_->plot();
    plot->clearGraphs();
    QCPGraph* kk = add_line(plot, tr("KK23, final run on full data"), QColor(0x1f, 0x77, 0xb4));
    QCPGraph* ps = add_line(plot, tr("Papernot–Steinke, full data"), QColor(0xff, 0x7f, 0x0e));
    QCPGraph* lt = add_line(plot, tr("Liu–Talwar, full data"), QColor(0x2c, 0xa0, 0x2c));
    double top = 0.0;
    for (const auto& p : points_) {
      kk->addData(p.tuning_fraction, p.compute_kk23);
      ps->addData(p.tuning_fraction, p.compute_ps_full);
      lt->addData(p.tuning_fraction, p.compute_lt_full);
      top = std::max({top, p.compute_kk23, p.compute_ps_full, p.compute_lt_full});
    }
    top = top > 0 ? top * 1.1 : 1.0;
    add_marker(plot, q, top);
    plot->xAxis->setLabel(tr("tuning fraction q"));
    plot->yAxis->setLabel(tr("compute (full-data runs)"));
    plot->xAxis->setRange(0.0, 1.02);
    plot->yAxis->setRange(0.0, top);
    plot->legend->setVisible(true);
    plot->replot();
  }
  if (!busy()) headline_->setText(headline());
}

}  // namespace dplab::ui
