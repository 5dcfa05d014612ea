// ChartHover: hover tooltips with exact values on a QCustomPlot. On every mouse move it finds the
// data point nearest to the pointer (within kRadiusPx pixels) among the visible graphs and curves
// and shows its series name and exact coordinates (6 significant digits, the axes' labels), or
// the owner's text (setFormatter) — e.g. a candidate's hyperparameters in parallel coordinates.
// Points that coincide (within 1.5 px) are all listed, topmost first (at most kMaxListed).
// The search is linear in the points drawn (a few ms for 10^5 points).
#pragma once

#include <QObject>
#include <QPoint>
#include <QString>
#include <functional>

class QCustomPlot;
class QCPAbstractPlottable;
class QMouseEvent;

namespace dplab::ui {

class ChartHover : public QObject {
  Q_OBJECT
 public:
  static constexpr double kRadiusPx = 12;
  static constexpr int kMaxListed = 6;  // points listed when several coincide
  // Text for data point `index` (in the plottable's data order) at (key, value).
  using Formatter =
      std::function<QString(QCPAbstractPlottable* plottable, int index, double key, double value)>;

  explicit ChartHover(QCustomPlot* plot);
  void setFormatter(Formatter formatter) { formatter_ = std::move(formatter); }
  // The tooltip for a pointer at `pos` (plot widget coordinates); empty when no point is near.
  QString textAt(const QPoint& pos) const;
  QString lastText() const { return last_text_; }

 private:
  void onMouseMove(QMouseEvent* event);

  QCustomPlot* plot_;
  Formatter formatter_;
  QString last_text_;
};

}  // namespace dplab::ui
