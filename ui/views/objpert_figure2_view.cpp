#include "views/objpert_figure2_view.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

#include "charts/chart_view.h"
#include "core/error.h"
#include "core/number_list.h"
#include "objective_perturbation/comparison_preset.h"
#include "views/figure_run_panel.h"

namespace dplab::ui {
namespace {

struct MethodStyle {
  const char* name;
  QColor color;
  QCPScatterStyle::ScatterShape shape;
};
// Order of the graphs: dishonest, Algorithm 1, honest (the paper's legend order).
const MethodStyle kStyles[3] = {
    {"dishonest DP-SGD (one run's ε)", QColor(0xff, 0x7f, 0x0e), QCPScatterStyle::ssTriangle},
    {"Algorithm 1 (objective perturbation)", QColor(0x1f, 0x77, 0xb4), QCPScatterStyle::ssCircle},
    {"honest DP-SGD (Papernot–Steinke)", QColor(0x2c, 0xa0, 0x2c), QCPScatterStyle::ssSquare},
};
const char* kMethodKeys[3] = {"dishonest", "algorithm1", "honest"};

const objpert::MethodSummary& method(const objpert::ComparisonRow& row, int m) {
  return m == 0 ? row.dishonest : m == 1 ? row.algorithm1 : row.honest;
}

QString joinAccuracies(const std::vector<double>& values) {
  QStringList parts;
  for (double v : values) parts << formatNumber(v);
  return parts.join(';');
}

}  // namespace

ObjpertFigure2View::Settings ObjpertFigure2View::paperSettings() {
  Settings s;
  s.dataset = "adult";
  s.config.epsilons = {0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0};
  s.config.delta = 1e-5;
  s.config.trials = 10;
  return s;
}

ObjpertFigure2View::ObjpertFigure2View(QWidget* parent)
    : FigureView(tr("Run comparison"), tr("objective perturbation comparison"), 380, parent) {
  dataset_ = new QComboBox(this);
  dataset_->addItem(tr("Adult (built in)"), QStringLiteral("adult"));
  dataset_->addItem(tr("Synthetic-L (n 10,000, d 20)"), QStringLiteral("synthetic-l"));
  dataset_->addItem(tr("Synthetic-H (n 10,000, d 2,000)"), QStringLiteral("synthetic-h"));
  epsilons_ = new QLineEdit(this);
  epsilons_->setObjectName(QStringLiteral("epsilons"));
  epsilons_->setToolTip(tr("Comma-separated target ε values (each > 0)"));
  delta_ = new QLineEdit(this);
  trials_ = new QSpinBox(this);
  trials_->setRange(1, 100);
  trials_->setToolTip(tr("Independent trials per ε (the paper: 10); bars are 1.96·SE"));
  epochs_ = new QDoubleSpinBox(this);
  epochs_->setRange(0.01, 1000);
  epochs_->setDecimals(2);
  epochs_->setToolTip(tr("DP-SGD epochs per run (the paper: 60); T = epochs·n/256"));
  grid_size_ = new QSpinBox(this);
  grid_size_->setRange(1, 100);
  grid_size_->setToolTip(
      tr("s: dishonest DP-SGD tries s learning rates; honest DP-SGD draws K ~ Poisson(μ) runs "
         "with P[K > s] = 0.9"));
  auto* form = new QFormLayout;
  form->addRow(tr("data set"), dataset_);
  form->addRow(tr("ε values"), epsilons_);
  form->addRow(tr("δ"), delta_);
  form->addRow(tr("trials"), trials_);
  form->addRow(tr("DP-SGD epochs"), epochs_);
  form->addRow(tr("learning-rate grid s"), grid_size_);

  panel()->addSettings(form);
  panel()->addNote(
      tr("Dishonest DP-SGD reports the best of s runs but certifies one run's ε (the selection is "
         "not paid for). Honest DP-SGD calibrates its noise so that the whole Papernot–Steinke "
         "search (K ~ Poisson(μ) runs, RDP) meets ε. Algorithm 1 certifies its single release by "
         "Theorem 4.1 (σ = %1·σ_G, smallest λ, τ = %2, σ_out = %3). Selection uses test "
         "accuracy, as the paper's figure does.")
          .arg(formatReadable(objpert::ComparisonConfig{}.noise_factor))
          .arg(formatReadable(objpert::ComparisonConfig{}.tau))
          .arg(formatReadable(objpert::ComparisonConfig{}.output_noise_std)));
  summary_ = panel()->addSelectableNote();

  chart_ = new ChartView(tr("Test accuracy vs ε: Algorithm 1 vs honest and dishonest DP-SGD"),
                         QStringLiteral("objpert_figure2"), this);
  connect(chart_, &ChartView::message, this, &ObjpertFigure2View::message);
  chart_->setCsvProvider([this] {
    CsvTable table;
    table.header = {"epsilon",
                    "delta",
                    "method",
                    "mean_test_accuracy",
                    "half_width_1.96se",
                    "trials",
                    "certified_epsilon",
                    "epsilon_covers",
                    "noise_multiplier",
                    "regularization",
                    "runs_per_trial",
                    "test_accuracy_per_trial"};
    if (!result_) return table;
    for (const auto& row : result_->rows) {
      for (int m = 0; m < 3; ++m) {
        const auto& s = method(row, m);
        QStringList runs;
        for (int r : s.runs) runs << QString::number(r);
        table.rows.append({formatNumber(row.epsilon), formatNumber(shown_delta_), kMethodKeys[m],
                           formatNumber(s.mean), formatNumber(s.half_width),
                           QString::number(s.accuracy.size()), formatNumber(s.epsilon),
                           QString::fromStdString(s.accounting), formatNumber(s.noise_multiplier),
                           m == 1 ? formatNumber(s.regularization) : QString(), runs.join(';'),
                           joinAccuracies(s.accuracy)});
      }
    }
    return table;
  });

  placeResults(chart_);

  setSettings(paperSettings());
  draw();
}

ObjpertFigure2View::~ObjpertFigure2View() = default;

void ObjpertFigure2View::setSettings(const Settings& settings) {
  const int index = dataset_->findData(QString::fromStdString(settings.dataset));
  if (index >= 0) dataset_->setCurrentIndex(index);
  QStringList eps;
  for (double e : settings.config.epsilons) eps << QString::number(e, 'g', 6);
  epsilons_->setText(eps.join(", "));
  delta_->setText(QString::number(settings.config.delta, 'g', 6));
  trials_->setValue(settings.config.trials);
  epochs_->setValue(settings.config.epochs);
  grid_size_->setValue(settings.config.grid_size);
}

std::optional<ObjpertFigure2View::Settings> ObjpertFigure2View::settingsFromFields(
    QString* error) const {
  Settings s;
  s.dataset = dataset_->currentData().toString().toStdString();
  try {
    s.config.epsilons = parse_positive_list(epsilons_->text().toStdString(), "ε values");
  } catch (const Error& e) {
    *error = QString::fromStdString(e.what());
    return std::nullopt;
  }
  bool ok = false;
  s.config.delta = delta_->text().trimmed().toDouble(&ok);
  if (!ok || !(s.config.delta > 0 && s.config.delta < 1)) {
    *error = tr("δ: \"%1\" is not a number in (0, 1)").arg(delta_->text().trimmed());
    return std::nullopt;
  }
  s.config.trials = trials_->value();
  s.config.epochs = epochs_->value();
  s.config.grid_size = grid_size_->value();
  return s;
}

bool ObjpertFigure2View::run() {
  if (busy()) return false;
  QString error;
  const auto settings = settingsFromFields(&error);
  if (!settings) {
    panel()->reject(error);
    return false;
  }
  pending_ = std::make_shared<objpert::ComparisonResult>();
  auto out = pending_;
  const Settings s = *settings;
  shown_delta_ = s.config.delta;
  return panel()->start([s, out](const std::atomic<bool>& cancel,
                                 const BackgroundTask::ProgressFn& report) {
    report("loading " + s.dataset, 0.0);
    const data::Dataset all = objpert::load_comparison_dataset(s.dataset, "", s.config.split_seed);
    *out = objpert::run_comparison(all, s.config, report, &cancel);
  });
}

void ObjpertFigure2View::runEnded(bool ok) {
  if (ok) {
    result_ = std::move(*pending_);
    panel()->setStatus(tr("done in %1").arg(formatSeconds(result_->wall_seconds)));
    draw();
  }
  pending_.reset();
}

void ObjpertFigure2View::draw() {
  QCustomPlot* plot = chart_->plot();
  plot->clearPlottables();
  setLogAxis(plot->xAxis);
  plot->xAxis->setLabel(tr("ε (δ = %1)").arg(formatReadable(shown_delta_)));
  plot->yAxis->setLabel(tr("test accuracy (%), mean ± 1.96·SE"));
  if (!result_ || result_->rows.empty()) {
    plot->legend->setVisible(false);
    plot->xAxis->setRange(0.02, 10);
    plot->yAxis->setRange(0, 100);
    plot->replot();
    summary_->clear();
    return;
  }
  double low = 100, high = 0;
  for (int m = 0; m < 3; ++m) {
    QCPGraph* graph = plot->addGraph();
    graph->setName(tr(kStyles[m].name));
    graph->setPen(QPen(kStyles[m].color, 1.6));
    graph->setScatterStyle(QCPScatterStyle(kStyles[m].shape, kStyles[m].color, 7));
    auto* bars = new QCPErrorBars(plot->xAxis, plot->yAxis);
    bars->removeFromLegend();
    bars->setPen(QPen(kStyles[m].color, 1.2));
    bars->setDataPlottable(graph);
    QVector<double> keys, values, errors;
    for (const auto& row : result_->rows) {
      const auto& s = method(row, m);
      if (s.accuracy.empty()) continue;
      keys << row.epsilon;
      values << 100 * s.mean;
      errors << 100 * s.half_width;
      low = std::min(low, 100 * (s.mean - s.half_width));
      high = std::max(high, 100 * (s.mean + s.half_width));
    }
    graph->setData(keys, values, true);
    bars->setData(errors);
  }
  const double x0 = result_->rows.front().epsilon, x1 = result_->rows.back().epsilon;
  plot->xAxis->setRange(x0 / 1.5, x1 * 1.5);
  const double pad = std::max(0.5, 0.05 * (high - low));
  plot->yAxis->setRange(std::max(0.0, low - pad), std::min(100.0, high + pad));
  plot->legend->setVisible(true);
  chart_->layoutLegend(chart_->width());
  plot->replot();

  QString text = tr("n_train %1, n_test %2, d %3; DP-SGD T = %4 steps per run; honest μ = %5; "
                    "wall %6.")
                     .arg(result_->train_size)
                     .arg(result_->test_size)
                     .arg(result_->dim)
                     .arg(result_->dpsgd_steps)
                     .arg(formatReadable(result_->poisson_mean, 4))
                     .arg(formatSeconds(result_->wall_seconds));
  const auto& last = result_->rows.back();
  text += tr("\nAt ε = %1: dishonest %2%, Algorithm 1 %3%, honest %4% (mean of %5 trials).")
              .arg(formatReadable(last.epsilon))
              .arg(100 * last.dishonest.mean, 0, 'f', 2)
              .arg(100 * last.algorithm1.mean, 0, 'f', 2)
              .arg(100 * last.honest.mean, 0, 'f', 2)
              .arg(last.algorithm1.accuracy.size());
  summary_->setText(text);
}

}  // namespace dplab::ui
