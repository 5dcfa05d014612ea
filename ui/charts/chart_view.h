// ChartView: one QCustomPlot with its title drawn inside the plot (so exported images carry it),
// its legend outside the axes (below, wrapped into columns: it never covers data; click an entry
// to hide/show its series — and every plottable sharing its "dplabGroup" property, or whose
// "dplabMode" property equals that group), drag to pan, wheel to zoom, double-click to reset,
// hover tooltips with exact values (charts/chart_hover.h), a "log y" toggle,
// and an "Export" button (also the right-click menu) that writes the chart as PNG, PDF or SVG at a
// chosen size/DPI and the chart's numbers as CSV. What the numbers are is up to the owner: by
// default every graph's data points (plotDataTable), or a provider set with setCsvProvider.
// Export errors are reported through message(), never by a dialog per event.
#pragma once

#include <QWidget>
#include <functional>
#include <map>
#include <utility>

#include "charts/chart_export.h"

class QCustomPlot;
class QCPAxis;
class QCPColorGradient;
class QCPTextElement;
class QToolButton;

namespace dplab::ui {

class ChartHover;

class ChartView : public QWidget {
  Q_OBJECT
 public:
  // file_stem names exported files ("accuracy_curves" -> accuracy_curves.png ...).
  ChartView(const QString& title, const QString& file_stem, QWidget* parent = nullptr);

  QCustomPlot* plot() const { return plot_; }
  ChartHover* hover() const { return hover_; }
  // The title as set; on screen it is wrapped to the room left of the buttons.
  void setTitle(const QString& title);
  QString title() const;
  QCPTextElement* titleElement() const { return title_element_; }
  // Where the "log y" and "Export" buttons sit over the plot (widget coordinates).
  QRect buttonsRect() const;
  // The buttons' font (by default the widget's): the Playground's projector font keeps them at
  // the normal size, which leaves a narrow chart's title its room.
  void setButtonFont(const QFont& font);
  QString fileStem() const { return file_stem_; }

  void setCsvProvider(std::function<CsvTable()> provider) { csv_provider_ = std::move(provider); }
  // Constant columns for the CSV export (charts whose numbers depend on a search: its ε label).
  void setCsvConstantColumns(std::function<QList<CsvConstantColumn>()> columns) {
    csv_columns_ = std::move(columns);
  }
  CsvTable csvData() const;
  // Called before the chart is read for an export or a CSV (csvData, recordImage): the owner
  // brings a chart it left stale while hidden up to date (views/shown_refresh.h).
  void setBeforeRead(std::function<void()> before_read) { before_read_ = std::move(before_read); }
  // Whether the chart's numbers are still being computed off the GUI thread (a view whose
  // engine computation was started by the read above): a report waits until it is not.
  void setPendingQuery(std::function<bool()> pending) { pending_ = std::move(pending); }
  // Brings the chart up to date (the owner's before-read) and says whether it is still pending.
  bool prepareRead();
  // Nothing plotted (no item, no plottable with a data point): a report leaves such a chart out (a
  // run without adaptive clipping has no clipping-threshold curves).
  bool isEmpty() const;

  // The y axis: logarithmic (powers of ten) or linear; the "log y" button toggles it.
  void setLogY(bool log);
  bool logY() const;
  // y range = everything drawn on the visible graphs (plus 5% room); x is the owner's.
  void fitValueRange();
  // The legend sits below the axes, in as many columns as fit `width` logical pixels.
  void layoutLegend(int width);

  // The chart laid out for an export (title per options, legend columns for its width),
  // recorded for writePicture (chart_export.h) — cheap, so a report can record on the GUI
  // thread and write on a worker.
  QPicture recordImage(ImageFormat format, const ImageExportOptions& options);
  bool exportImage(const QString& path, const ImageExportOptions& options, QString* error);
  bool exportCsv(const QString& path, QString* error) const;

 signals:
  void message(const QString& text, bool is_error);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  // A theme switch (View → Theme) restyles the chart in the new palette (charts/theme.h).
  void changeEvent(QEvent* event) override;

 private:
  void exportImageInteractive(ImageFormat format);
  void exportCsvInteractive();
  void placeButtons();
  void wrapTitle();
  void fitAxisLabels();
  // The label of `axis` as its owner set it: the one shown, unless the owner has set another
  // since the last layout (then that one, remembered).
  const QString& labelAsSet(QCPAxis* axis);

  QCustomPlot* plot_;
  QCPTextElement* title_element_;
  QToolButton* export_button_;
  QToolButton* log_button_;
  ChartHover* hover_;
  QString file_stem_;
  QString title_text_;
  std::map<QCPAxis*, std::pair<QString, QString>> axis_labels_;  // as set, as shown
  std::function<CsvTable()> csv_provider_;
  std::function<QList<CsvConstantColumn>()> csv_columns_;
  std::function<void()> before_read_;
  std::function<bool()> pending_;
};

// Shared look: fonts, grid, legend; applied to every plot so that charts read alike.
void applyChartStyle(QCustomPlot* plot);
// A linear or logarithmic (powers of ten) axis, its ticks labelled by formatTick
// (charts/chart_export.h) as every chart's are; the tick count is kept.
void setLinearAxis(QCPAxis* axis);
void setLogAxis(QCPAxis* axis);
// Viridis (dark purple -> yellow): perceptually even, readable in grey, no end in the white
// background. Used for every colour scale (heatmap, parallel coordinates).
QCPColorGradient viridisGradient();
// A fixed colour per optimizer name (DPSGD blue, DPAdam red, ...), stable across charts.
QColor optimizerColor(const QString& optimizer);

}  // namespace dplab::ui
