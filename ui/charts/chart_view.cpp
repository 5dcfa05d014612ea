#include "charts/chart_view.h"

#include <qcustomplot.h>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QMenu>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <vector>

#include "charts/chart_hover.h"
#include "charts/export_dialog.h"
#include "charts/theme.h"

namespace dplab::ui {

namespace {

QString lastExportDir() {
  return QSettings().value(QStringLiteral("export/lastDir"), QDir::homePath()).toString();
}

void rememberExportDir(const QString& file) {
  QSettings().setValue(QStringLiteral("export/lastDir"), QFileInfo(file).absolutePath());
}

}  // namespace

ChartView::ChartView(const QString& title, const QString& file_stem, QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), file_stem_(file_stem), title_text_(title) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  // A fixed small minimum: the plot's own hint is its layout's (the unwrapped title's width), so
  // a long title widened the window; the title wraps to the width the chart gets instead.
  plot_->setMinimumSize(160, 120);
  plot_->setObjectName(file_stem);
  applyChartStyle(plot_);
  plot_->plotLayout()->insertRow(0);
  QFont title_font = font();
  title_font.setPointSizeF(title_font.pointSizeF() + 1.5);
  title_font.setBold(true);
  title_element_ = new QCPTextElement(plot_, title, title_font);
  title_element_->setTextColor(chartInk(plot_));
  plot_->plotLayout()->addElement(0, 0, title_element_);
  // The legend goes below the axes (never over the curves), in columns.
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  const int legend_row = plot_->plotLayout()->rowCount();
  plot_->plotLayout()->addElement(legend_row, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(legend_row, 0.001);
  plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot_->legend->setMargins(QMargins(4, 2, 4, 2));
  plot_->legend->setVisible(false);
  // Explore: drag pans, the wheel zooms, double-click resets; a legend click hides a series.
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  hover_ = new ChartHover(plot_);
  connect(plot_, &QCustomPlot::legendClick, this,
          [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
            auto* entry = qobject_cast<QCPPlottableLegendItem*>(item);
            if (!entry) return;
            QCPAbstractPlottable* p = entry->plottable();
            const bool visible = !p->visible();
            p->setVisible(visible);
            const QVariant group = p->property("dplabGroup");
            if (group.isValid()) {
              for (int i = 0; i < plot_->plottableCount(); ++i) {
                QCPAbstractPlottable* q = plot_->plottable(i);
                if (q->property("dplabGroup") == group || q->property("dplabMode") == group)
                  q->setVisible(visible);
              }
            }
            entry->setTextColor(visible ? chartInk(plot_) : QColor(150, 150, 150));
            plot_->replot(QCustomPlot::rpQueuedReplot);
          });
  connect(plot_, &QCustomPlot::beforeReplot, this, &ChartView::fitAxisLabels);
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) {
    plot_->rescaleAxes(true);
    fitValueRange();
    plot_->replot(QCustomPlot::rpQueuedReplot);
  });

  export_button_ = new QToolButton(this);
  export_button_->setText(tr("Export"));
  export_button_->setToolTip(tr("Save this chart as PNG, PDF or SVG, or its data as CSV"));
  export_button_->setPopupMode(QToolButton::InstantPopup);
  export_button_->setAutoRaise(true);
  auto* menu = new QMenu(export_button_);
  menu->addAction(tr("Image as PNG…"), this, [this] { exportImageInteractive(ImageFormat::kPng); });
  menu->addAction(tr("Image as PDF…"), this, [this] { exportImageInteractive(ImageFormat::kPdf); });
  menu->addAction(tr("Image as SVG…"), this, [this] { exportImageInteractive(ImageFormat::kSvg); });
  menu->addSeparator();
  menu->addAction(tr("Data as CSV…"), this, [this] { exportCsvInteractive(); });
  export_button_->setMenu(menu);
  log_button_ = new QToolButton(this);
  log_button_->setText(tr("log y"));
  log_button_->setCheckable(true);
  log_button_->setAutoRaise(true);
  log_button_->setToolTip(tr("Logarithmic y axis (losses span orders of magnitude)"));
  connect(log_button_, &QToolButton::toggled, this, [this](bool on) {
    setLogY(on);
    fitValueRange();
    plot_->replot(QCustomPlot::rpQueuedReplot);
  });
  plot_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(plot_, &QWidget::customContextMenuRequested, this,
          [this, menu](const QPoint& pos) { menu->popup(plot_->mapToGlobal(pos)); });
}

void ChartView::setTitle(const QString& title) {
  title_text_ = title;
  wrapTitle();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString ChartView::title() const {
  return title_text_;
}

CsvTable ChartView::csvData() const {
  if (before_read_) before_read_();
  CsvTable table = csv_provider_ ? csv_provider_() : plotDataTable(plot_);
  if (csv_columns_) table.constantColumns = csv_columns_() + table.constantColumns;
  return table;
}

namespace {
// Takes the title row out of the layout for an export without title (and puts it back after).
class TitleRemoved {
 public:
  TitleRemoved(QCustomPlot* plot, QCPTextElement* title, bool remove)
      : plot_(plot), title_(remove ? title : nullptr) {
    if (!title_) return;
    plot_->plotLayout()->take(title_);
    plot_->plotLayout()->simplify();
    title_->setVisible(false);  // a taken element is still drawn by its layer
  }
  ~TitleRemoved() {
    if (!title_) return;
    title_->setVisible(true);
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, title_);
  }

 private:
  QCustomPlot* plot_;
  QCPTextElement* title_;
};

// Breaks each line of `text` at spaces into lines no wider than `width` pixels in `font` (a word
// longer than the width gets a line of its own). A title given as two lines ("… over
// candidates\nmax (solid) …") has each line wrapped (it was kept whole, and cut at both sides).
QString wrapToWidth(const QString& text, const QFont& font, int width) {
  const QFontMetrics metrics(font);
  QStringList lines;
  for (const QString& given : text.split(QLatin1Char('\n'))) {
    if (metrics.horizontalAdvance(given) <= width) {
      lines << given;
      continue;
    }
    QString line;
    for (const QString& word : given.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
      const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
      if (!line.isEmpty() && metrics.horizontalAdvance(candidate) > width) {
        lines << line;
        line = word;
      } else {
        line = candidate;
      }
    }
    if (!line.isEmpty()) lines << line;
  }
  return lines.join(QLatin1Char('\n'));
}

// The chart laid out for a figure of the export's logical size, restored afterwards: the title
// and the axis labels wrap onto more lines where they do not fit (a 3.5 in single column is 336
// logical pixels wide), the legend is re-flowed into as many columns as fit, and tick counts
// follow the axes' lengths. Then the layout is computed at the figure's size (QCustomPlot's own
// layout phases on a viewport of that size): each y label (and a colour scale's) is wrapped to
// the length its axis really got, and where a long legend leaves the axes less than
// kMinPlotShare of the height, the legend's font steps down (to kMinLegendPoints) until they
// get it — a 3.5 in figure whose six-entry legend took the plot's room.
class ExportLayout {
 public:
  // `full_title`: the title unwrapped (on screen it may be wrapped to the room left of the
  // buttons); the shown text comes back afterwards.
  ExportLayout(QCustomPlot* plot, QCPTextElement* title, const QString& full_title,
               const ImageExportOptions& o)
      : plot_(plot),
        title_(title),
        title_text_(full_title),
        shown_title_(title->text()),
        title_margins_(title->margins()),
        viewport_(plot->viewport()),
        legend_font_(plot->legend->font()),
        legend_icon_(plot->legend->iconSize()),
        legend_padding_(plot->legend->iconTextPadding()),
        legend_row_spacing_(plot->legend->rowSpacing()),
        untitled_(plot, title, !o.title) {
    const int width = o.logicalWidth(), height = o.logicalHeight();
    // The title spans the figure; the screen's room for the buttons is not kept in a file.
    const QMargins m = title_->margins();
    title_->setMargins(QMargins(m.left(), m.top(), m.left(), m.bottom()));
    title_->setText(wrapToWidth(title_text_, title_->font(), width - 2 * m.left() - 8));
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
      const bool vertical = axis == plot_->yAxis;
      keep(axis);
      const int room = vertical ? height - 60 : width - 80;
      // A first wrap for the layout; both labels and tick counts are refit to the axes' laid-out
      // lengths below.
      axis->setLabel(wrapToWidth(axis->label(), axis->labelFont(), std::max(80, room)));
    }
    for (QCPLayoutElement* element : plot_->plotLayout()->elements(true)) {
      if (auto* scale = qobject_cast<QCPColorScale*>(element)) scales_ << scale;
    }
    for (QCPColorScale* scale : scales_) keep(scale->axis());
    flowLegend(plot_->legend, width);
    // The layout at the figure's size; labels wrapped to their axes' real lengths.
    plot_->setViewport(QRect(0, 0, width, height));
    layOut();
    QCPLegend* legend = plot_->legend;
    const auto cramped = [&] {
      return plot_->axisRect()->rect().height() < kMinPlotShare * height && legend->visible() &&
             legend->itemCount() > 0;
    };
    if (cramped()) {  // first the legend's icons and gaps, then its font
      legend->setIconSize(kCompactIcon);
      legend->setIconTextPadding(3);
      legend->setRowSpacing(0);
      flowLegend(legend, width);
      layOut();
    }
    while (cramped() && legend->font().pointSizeF() - 0.5 >= kMinLegendPoints) {
      QFont smaller = legend->font();
      smaller.setPointSizeF(smaller.pointSizeF() - 0.5);
      legend->setFont(smaller);
      flowLegend(legend, width);
      layOut();
    }
    // Each label wrapped to its axis as laid out, and about one tick label per 110 px of the x
    // axis and 30 px of the y axis, never more than the chart asked for: labels never overlap.
    const QRect laid_out = plot_->axisRect()->rect();
    fitToAxis(plot_->xAxis, kept_.value(0).label);
    fitToAxis(plot_->yAxis, kept_.value(1).label);
    plot_->xAxis->ticker()->setTickCount(
        std::clamp(laid_out.width() / 110, 2, std::max(2, kept_.value(0).ticks)));
    plot_->yAxis->ticker()->setTickCount(
        std::clamp(laid_out.height() / 30, 2, std::max(2, kept_.value(1).ticks)));
    for (QCPColorScale* scale : scales_) {
      QCPAxis* axis = scale->axis();
      const int length = axis->axisRect()->rect().height();
      axis->ticker()->setTickCount(std::clamp(length / 30, 2, axis->ticker()->tickCount()));
      // At most about two lines beside a short scale (each line widens the scale's column).
      const int advance = QFontMetrics(axis->labelFont()).horizontalAdvance(axis->label());
      fitToAxis(axis, axis->label(), advance / 2 + 16);
    }
    layOut();
  }
  ~ExportLayout() {
    for (const Kept& k : kept_) {
      k.axis->setLabel(k.label);
      k.axis->ticker()->setTickCount(k.ticks);
    }
    title_->setText(shown_title_);
    title_->setMargins(title_margins_);
    plot_->legend->setFont(legend_font_);
    plot_->legend->setIconSize(legend_icon_);
    plot_->legend->setIconTextPadding(legend_padding_);
    plot_->legend->setRowSpacing(legend_row_spacing_);
    plot_->setViewport(viewport_);
    plot_->replot(QCustomPlot::rpQueuedReplot);  // the on-screen layout again
  }
  ExportLayout(const ExportLayout&) = delete;
  ExportLayout& operator=(const ExportLayout&) = delete;

  // As many columns as fit `width`, re-arranged (a fixed column width cut long entries ("plan:
  // MA, best of K r…") in a narrow export). Entries fill rows first, so with c columns entry i
  // sits in column i mod c, and a column is as wide as its widest entry (icon, padding and text
  // at the legend's font): the widest count c whose columns and gaps fit is taken. A uniform
  // column of the widest entry gave one column of six rows where two columns fit. Then the
  // fewest columns that keep its rows, if they fit: four entries as 2 + 2, not 3 + 1.
  static void flowLegend(QCPLegend* legend, int width) {
    std::vector<int> entry;  // each entry's width, at least 40 px
    for (int i = 0; i < legend->itemCount(); ++i) {
      if (QCPAbstractLegendItem* item = legend->item(i))
        entry.push_back(std::max(40, item->minimumOuterSizeHint().width()));
    }
    const QMargins m = legend->margins();
    const int room = width - m.left() - m.right() - 8;  // the legend's own border and padding
    auto fits = [&](int c) {
      std::vector<int> widest(static_cast<std::size_t>(c), 0);
      for (std::size_t i = 0; i < entry.size(); ++i) {
        int& column = widest[i % widest.size()];
        column = std::max(column, entry[i]);
      }
      int need = (c - 1) * legend->columnSpacing();
      for (int w : widest) need += w;
      return need <= room;
    };
    const int n = static_cast<int>(entry.size());
    int columns = 1;
    for (int c = n; c > 1; --c) {
      if (fits(c)) {
        columns = c;
        break;
      }
    }
    if (n > 0) {
      const int rows = (n + columns - 1) / columns;
      const int balanced = (n + rows - 1) / rows;
      if (balanced < columns && fits(balanced)) columns = balanced;
    }
    legend->setWrap(columns);
    legend->setFillOrder(legend->fillOrder(), true);
  }

 private:
  static constexpr double kMinPlotShare = 0.4;
  static constexpr double kMinLegendPoints = 6.5;
  static constexpr QSize kCompactIcon{22, 10};
  struct Kept {
    QCPAxis* axis;
    QString label;
    int ticks;
  };
  void keep(QCPAxis* axis) { kept_.push_back({axis, axis->label(), axis->ticker()->tickCount()}); }
  void layOut() {
    for (auto phase :
         {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
      plot_->plotLayout()->update(phase);
  }
  // The label as set, wrapped to the length `axis` has in the figure (or to `at_least`).
  static void fitToAxis(QCPAxis* axis, const QString& label, int at_least = 40) {
    const QRect rect = axis->axisRect()->rect();
    const bool vertical = axis->orientation() == Qt::Vertical;
    const int length = vertical ? rect.height() : rect.width();
    axis->setLabel(wrapToWidth(label, axis->labelFont(), std::max(at_least, length)));
  }

  QCustomPlot* plot_;
  QCPTextElement* title_;
  QString title_text_;
  QString shown_title_;
  QMargins title_margins_;
  QRect viewport_;
  QFont legend_font_;
  QSize legend_icon_;
  int legend_padding_;
  int legend_row_spacing_;
  QList<Kept> kept_;  // x, y, then the colour scales' axes
  QList<QCPColorScale*> scales_;
  TitleRemoved untitled_;
};
}  // namespace

void ChartView::setLogY(bool log) {
  if (log) {
    setLogAxis(plot_->yAxis);
  } else {
    setLinearAxis(plot_->yAxis);
  }
  QSignalBlocker block(log_button_);
  log_button_->setChecked(log);
}

bool ChartView::logY() const {
  return plot_->yAxis->scaleType() == QCPAxis::stLogarithmic;
}

void ChartView::fitValueRange() {
  const bool log = logY();
  bool any = false;
  QCPRange range;
  for (int i = 0; i < plot_->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot_->plottable(i);
    if (!p->visible() || p->valueAxis() != plot_->yAxis) continue;
    bool found = false;
    const QCPRange r = p->getValueRange(found, log ? QCP::sdPositive : QCP::sdBoth);
    if (!found) continue;
    range = any ? QCPRange(std::min(range.lower, r.lower), std::max(range.upper, r.upper)) : r;
    any = true;
  }
  if (!any) return;
  if (log) {
    const double lo = range.lower, hi = range.upper;
    const double f = hi > lo ? std::pow(hi / lo, 0.05) : 2.0;
    plot_->yAxis->setRange(lo / f, hi * f);
  } else {
    const double pad =
        range.size() > 0 ? 0.05 * range.size() : std::max(0.05, std::abs(range.lower) * 0.05);
    plot_->yAxis->setRange(range.lower - pad, range.upper + pad);
  }
}

void ChartView::layoutLegend(int width) {
  ExportLayout::flowLegend(plot_->legend, width);
}

void ChartView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) {
    applyChartColors(plot_, palette());
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
}

bool ChartView::prepareRead() {
  if (before_read_) before_read_();
  return pending_ && pending_();
}

bool ChartView::isEmpty() const {
  if (plot_->itemCount() > 0) return false;  // drawn as items (the α–C grid's cells)
  for (int i = 0; i < plot_->plottableCount(); ++i) {
    bool found = false;
    plot_->plottable(i)->getKeyRange(found);
    if (found) return false;
  }
  return true;
}

QPicture ChartView::recordImage(ImageFormat format, const ImageExportOptions& options) {
  if (before_read_) before_read_();
  // A figure is drawn as on paper, whatever the window's theme; the screen's colours come back
  // after the recording.
  const bool dark = isDark(palette());
  if (dark) applyChartColors(plot_, lightPalette());
  struct RestoreColours {
    ChartView* view;
    bool dark;
    ~RestoreColours() {
      if (dark) applyChartColors(view->plot_, view->palette());
    }
  } restore_colours{this, dark};
  // The export wraps the labels for its own size: it starts from the labels as set.
  // A label its owner set since the last screen layout (a hidden view drawn for this export) is
  // the label as set.
  for (auto& entry : axis_labels_) entry.first->setLabel(labelAsSet(entry.first));
  const ExportLayout layout(plot_, title_element_, title_text_, options);
  struct RestoreLegend {
    ChartView* view;
    ~RestoreLegend() { view->layoutLegend(view->width()); }
  } restore{this};
  return recordPlot(plot_, format, options);
}

bool ChartView::exportImage(const QString& path, const ImageExportOptions& options,
                            QString* error) {
  const auto format = formatForSuffix(path);
  if (!format) {
    if (error)
      *error = tr("unknown image format '%1' (use .png, .pdf or .svg)")
                   .arg(QFileInfo(path).suffix().toLower());
    return false;
  }
  return writePicture(recordImage(*format, options), path, *format, options, error);
}

bool ChartView::exportCsv(const QString& path, QString* error) const {
  return writeCsv(csvData(), path, error);
}

void ChartView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  placeButtons();
  layoutLegend(width());
}

void ChartView::setButtonFont(const QFont& font) {
  for (QToolButton* button : {export_button_, log_button_}) button->setFont(font);
  placeButtons();
}

void ChartView::placeButtons() {
  export_button_->adjustSize();
  export_button_->move(width() - export_button_->width() - 4, 2);
  export_button_->raise();
  log_button_->adjustSize();
  log_button_->move(export_button_->x() - log_button_->width() - 2, 2);
  log_button_->raise();
  // The title is centred in the room left of the buttons, never under them (narrow charts).
  const int covered = width() - log_button_->x() + 4;
  const QMargins m = title_element_->margins();
  if (m.right() != covered) {
    title_element_->setMargins(QMargins(m.left(), m.top(), covered, m.bottom()));
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
  wrapTitle();
}

void ChartView::wrapTitle() {
  // Wrapped onto more lines where it is wider than that room (it ran under the buttons).
  const QMargins m = title_element_->margins();
  const int room = width() - m.left() - m.right() - 4;
  QString shown = room > 40 ? wrapToWidth(title_text_, title_element_->font(), room) : title_text_;
  if (room > 40) {  // a word wider than the room is elided, never drawn under the buttons
    const QFontMetrics metrics(title_element_->font());
    QStringList lines = shown.split(QLatin1Char('\n'));
    for (QString& line : lines) line = metrics.elidedText(line, Qt::ElideRight, room);
    shown = lines.join(QLatin1Char('\n'));
  }
  if (shown != title_element_->text()) {
    title_element_->setText(shown);
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
}

const QString& ChartView::labelAsSet(QCPAxis* axis) {
  std::pair<QString, QString>& label = axis_labels_[axis];
  if (axis->label() != label.second) label.first = axis->label();  // set anew by the owner
  return label.first;
}

void ChartView::fitAxisLabels() {
  wrapTitle();  // at the width the chart has now (a tab shown after a change was resized since)
  // Each axis label wrapped to the length of its axis (a long y label on a short plot was cut
  // at the widget's edges); the label as its owner set it is kept for exports.
  const QRect axes = plot_->axisRect()->rect();
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    const bool vertical = axis == plot_->yAxis;
    std::pair<QString, QString>& label = axis_labels_[axis];
    labelAsSet(axis);
    int room = vertical ? axes.height() : axes.width();
    if (room <= 0) room = vertical ? plot_->height() - 60 : plot_->width() - 80;
    label.second = room > 40 ? wrapToWidth(label.first, axis->labelFont(), room) : label.first;
    if (label.second != axis->label()) axis->setLabel(label.second);
  }
}

QRect ChartView::buttonsRect() const {
  return log_button_->geometry().united(export_button_->geometry());
}

void ChartView::exportImageInteractive(ImageFormat format) {
  ExportImageDialog dialog(this);
  if (dialog.exec() != QDialog::Accepted) return;
  const char* suffix = format == ImageFormat::kPng   ? "png"
                       : format == ImageFormat::kPdf ? "pdf"
                                                     : "svg";
  const QString filter =
      QStringLiteral("%1 (*.%2)")
          .arg(QString::fromLatin1(suffix).toUpper(), QString::fromLatin1(suffix));
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export chart"), QDir(lastExportDir()).filePath(file_stem_ + "." + suffix), filter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + QString::fromLatin1(suffix);
  rememberExportDir(path);
  QString error;
  if (writePicture(recordImage(format, dialog.options()), path, format, dialog.options(), &error)) {
    emit message(tr("Saved %1").arg(QDir::toNativeSeparators(path)), false);
  } else {
    emit message(error, true);
  }
}

void ChartView::exportCsvInteractive() {
  QString path = QFileDialog::getSaveFileName(this, tr("Export chart data"),
                                              QDir(lastExportDir()).filePath(file_stem_ + ".csv"),
                                              tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".csv");
  rememberExportDir(path);
  QString error;
  if (exportCsv(path, &error)) {
    emit message(tr("Saved %1").arg(QDir::toNativeSeparators(path)), false);
  } else {
    emit message(error, true);
  }
}

void applyChartStyle(QCustomPlot* plot) {
  plot->setNoAntialiasingOnDrag(true);
  plot->setAntialiasedElements(QCP::aePlottables);
  QFont label_font = plot->font();
  label_font.setPointSizeF(std::max(9.0, label_font.pointSizeF()));
  QFont tick_font = label_font;
  tick_font.setPointSizeF(label_font.pointSizeF() - 1);
  for (QCPAxis* axis : {plot->xAxis, plot->yAxis, plot->xAxis2, plot->yAxis2}) {
    axis->setLabelFont(label_font);
    axis->setTickLabelFont(tick_font);
    axis->grid()->setPen(QPen(QColor(220, 220, 220), 0, Qt::DotLine));
    setLinearAxis(axis);
  }
  plot->legend->setFont(tick_font);
  applyChartColors(plot, plot->palette());  // the grid's, legend's and axes' colours
}

namespace {
// Every axis's labels come from formatTick (charts/chart_export.h): QCustomPlot's own "gb" format
// wrote 300000 in full, its "eb" format "1.3·10⁰" on a log axis.
class ReadableTicker : public QCPAxisTicker {
 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override {
    return formatTick(tick);
  }
};

// Over less than 1.6 decades QCustomPlot's log ticker falls back to linear ticks: 5, 10, 15, 20,
// 25 crowded at the top of a log axis (a short export axis drew them over each other). There the
// ticks are 1-2-5 (or 1-3, or 1) times the powers of ten instead — evenly spread on the log
// scale — as many as the tick count allows, with the other integer mantissas as sub ticks; the
// linear fallback stays for a range with fewer than two such ticks.
class ReadableLogTicker : public QCPAxisTickerLog {
 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override {
    return formatTick(tick);
  }
  QVector<double> createTickVector(double tick_step, const QCPRange& range) override {
    mantissas_ = false;
    if (range.lower <= 0 || range.upper <= range.lower ||
        std::log10(range.upper / range.lower) >= 1.6)
      return QCPAxisTickerLog::createTickVector(tick_step, range);
    const int first = static_cast<int>(std::floor(std::log10(range.lower)));
    const int last = static_cast<int>(std::ceil(std::log10(range.upper)));
    const std::vector<std::vector<int>> series = {{1, 2, 5}, {1, 3}, {1}};
    for (const std::vector<int>& mantissas : series) {
      QVector<double> ticks;
      for (int k = first; k <= last; ++k) {
        for (int m : mantissas) {
          const double v = m * std::pow(10.0, k);
          if (v >= range.lower && v <= range.upper) ticks << v;
        }
      }
      if (ticks.size() >= 2 && ticks.size() <= std::max(tickCount(), 2) + 1) {
        mantissas_ = true;
        return ticks;
      }
    }
    return QCPAxisTicker::createTickVector(tick_step, range);
  }
  QVector<double> createSubTickVector(int sub_tick_count, const QVector<double>& ticks) override {
    if (!mantissas_ || ticks.size() < 2)
      return QCPAxisTickerLog::createSubTickVector(sub_tick_count, ticks);
    QVector<double> sub;
    const int first = static_cast<int>(std::floor(std::log10(ticks.first())));
    const int last = static_cast<int>(std::ceil(std::log10(ticks.last())));
    for (int k = first; k <= last; ++k) {
      for (int m = 1; m <= 9; ++m) {
        const double v = m * std::pow(10.0, k);
        const bool major = std::any_of(ticks.begin(), ticks.end(),
                                       [&](double t) { return std::abs(t - v) <= 1e-9 * v; });
        if (!major && v > ticks.first() && v < ticks.last()) sub << v;
      }
    }
    return sub;
  }

 private:
  bool mantissas_ = false;  // the last tick vector was 1-2-5 style
};

// The new ticker keeps the old one's tick count (the Playground's projector font asks for 3).
void replaceTicker(QCPAxis* axis, QSharedPointer<QCPAxisTicker> ticker) {
  if (axis->ticker()) ticker->setTickCount(axis->ticker()->tickCount());
  axis->setTicker(ticker);
}
}  // namespace

void setLinearAxis(QCPAxis* axis) {
  axis->setScaleType(QCPAxis::stLinear);
  replaceTicker(axis, QSharedPointer<QCPAxisTicker>(new ReadableTicker));
}

void setLogAxis(QCPAxis* axis) {
  axis->setScaleType(QCPAxis::stLogarithmic);
  QSharedPointer<QCPAxisTickerLog> ticker(new ReadableLogTicker);
  ticker->setLogBase(10);
  ticker->setSubTickCount(8);
  replaceTicker(axis, ticker);
}

QCPColorGradient viridisGradient() {
  QCPColorGradient g;
  g.clearColorStops();
  g.setColorStopAt(0.00, QColor(0x44, 0x01, 0x54));
  g.setColorStopAt(0.25, QColor(0x3b, 0x52, 0x8b));
  g.setColorStopAt(0.50, QColor(0x21, 0x91, 0x8c));
  g.setColorStopAt(0.75, QColor(0x5e, 0xc9, 0x62));
  g.setColorStopAt(1.00, QColor(0xfd, 0xe7, 0x25));
  g.setColorInterpolation(QCPColorGradient::ciRGB);
  return g;
}

namespace {
QColor kindColor(const QString& key) {
  if (key.contains(QLatin1String("oso"))) return QColor(0x17, 0xbe, 0xcf);       // cyan
  if (key.contains(QLatin1String("quantile"))) return QColor(0x8c, 0x56, 0x4b);  // brown
  if (key.contains(QLatin1String("wosm"))) return QColor(0x2c, 0xa0, 0x2c);      // green
  if (key.contains(QLatin1String("adadp"))) return QColor(0x94, 0x67, 0xbd);     // purple
  if (key.contains(QLatin1String("adambc")) || key.contains(QLatin1String("adam-bc")))
    return QColor(0xe3, 0x77, 0xc2);                                             // pink
  if (key.contains(QLatin1String("adam"))) return QColor(0xd6, 0x27, 0x28);      // red
  if (key.contains(QLatin1String("momentum"))) return QColor(0xff, 0x7f, 0x0e);  // orange
  if (key.contains(QLatin1String("sgd"))) return QColor(0x1f, 0x77, 0xb4);       // blue
  return QColor(0x55, 0x55, 0x55);
}
}  // namespace

QColor optimizerColor(const QString& optimizer) {
  const QString key = optimizer.toLower();
  // Automatic clipping ("DPSGD · auto clip", "dpsgd (auto-clip)"): the kind's colour, darker.
  const bool automatic =
      key.contains(QLatin1String("auto clip")) || key.contains(QLatin1String("auto-clip"));
  const QColor colour = kindColor(key);
  return automatic ? colour.darker(160) : colour;
}

}  // namespace dplab::ui
