// C_t / rho_t chart (see clip_chart.h): draws the engine's curves, computes nothing itself.
#include "views/clip_chart.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "chart_series/clip_curves.h"
#include "charts/chart_view.h"
#include "form/optimizer_editor.h"

namespace dplab::ui {
namespace {

// Legend names short enough for a half-width chart (one entry per optimizer and series).
QString shortName(optim::OptimizerKind kind) {
  return kind == optim::OptimizerKind::kOsoDpSgd ? QStringLiteral("OSO-DPSGD")
                                                 : QStringLiteral("FixedQuantile");
}

}  // namespace

bool hasAdaptiveClipping(const tuning::SearchResults& results) {
  return std::any_of(results.config.optimizers.begin(), results.config.optimizers.end(),
                     [](const auto& o) { return tuning::adapts_clip(o.kind); });
}

int drawClipCurves(ChartView* chart, const tuning::SearchResults& results, bool structural) {
  QCustomPlot* plot = chart->plot();
  plot->clearGraphs();
  plot->xAxis->setLabel(QObject::tr("iteration (noisy-gradient queries)"));
  plot->yAxis->setLabel(QObject::tr("clipping threshold C_t (solid)"));
  plot->yAxis2->setLabel(QObject::tr("OSO-DPSGD learning rate ρ_t (dashed)"));
  if (structural) {
    chart->setLogY(true);  // C_t moves multiplicatively (exp(±ρ_c) per step)
    setLogAxis(plot->yAxis2);
  }
  const std::vector<tuning::ClipCurve> curves = tuning::adaptive_clip_curves(results);
  std::set<QString> in_legend;
  double rate_lo = 1e300, rate_hi = -1e300, xmax = 1;
  bool any_rate = false;
  int shade = 0;
  for (const auto& curve : curves) {
    const QString name = OptimizerEditor::displayName(curve.kind);
    QColor color = optimizerColor(name);
    // Candidates of one optimizer: the same hue, lighter for later candidates.
    color = color.lighter(100 + 12 * (shade++ % 6));
    const QString label = QString::fromStdString(curve.label);
    QCPGraph* clip = plot->addGraph(plot->xAxis, plot->yAxis);
    clip->setName(QObject::tr("C_t %1").arg(label));
    clip->setPen(QPen(color, 2));
    QCPGraph* rate = nullptr;
    if (curve.kind == optim::OptimizerKind::kOsoDpSgd) {
      rate = plot->addGraph(plot->xAxis, plot->yAxis2);
      rate->setName(QObject::tr("ρ_t %1").arg(label));
      rate->setPen(QPen(color, 1.4, Qt::DashLine));
    }
    for (std::size_t k = 0; k < curve.iterations.size(); ++k) {
      const double x = static_cast<double>(curve.iterations[k]);
      xmax = std::max(xmax, x);
      clip->addData(x, curve.clip[k]);
      if (rate && std::isfinite(curve.learning_rate[k])) {
        rate->addData(x, curve.learning_rate[k]);
        rate_lo = std::min(rate_lo, curve.learning_rate[k]);
        rate_hi = std::max(rate_hi, curve.learning_rate[k]);
        any_rate = true;
      }
    }
    // One legend entry per optimizer and series (a grid has many candidates); every graph keeps
    // its full name for the CSV export.
    if (!in_legend.insert(QStringLiteral("C") + name).second) {
      clip->removeFromLegend();
    } else {
      clip->setName(QObject::tr("%1 C_t").arg(shortName(curve.kind)));
    }
    if (rate) {
      if (!in_legend.insert(QStringLiteral("r") + name).second) {
        rate->removeFromLegend();
      } else {
        rate->setName(QObject::tr("%1 ρ_t (right axis)").arg(shortName(curve.kind)));
      }
    }
  }
  plot->yAxis2->setVisible(any_rate);
  if (any_rate) {
    const double f = rate_hi > rate_lo ? std::pow(rate_hi / rate_lo, 0.05) : 1.5;
    plot->yAxis2->setRange(rate_lo / f, rate_hi * f);
  }
  plot->xAxis->setRange(
      0, std::max<double>(xmax, static_cast<double>(results.config.privacy.steps)) * 1.02);
  if (!curves.empty()) {
    chart->fitValueRange();
  } else {
    plot->yAxis->setRange(0.01, 10);
  }
  plot->legend->setVisible(plot->graphCount() > 0);
  plot->replot(QCustomPlot::rpQueuedReplot);
  return static_cast<int>(curves.size());
}

}  // namespace dplab::ui
