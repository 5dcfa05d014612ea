// Issue #44 (export, scored 2 of 5): every chart of a finished run, as a report exports it at
// both paper presets (single column 3.5 x 2.6 in, double column 7 x 3.5 in), draws all of its
// text inside the page and no text over other text. The text is read back from the recorded
// picture by a paint engine that keeps each drawn string's box (rotated labels included), so the
// test sees what a PNG, PDF or SVG gets. Before: titles cut at both sides (the screen's room for
// the buttons kept in the file, a two-line title never wrapped), a colour scale's ticks on top of
// each other, a y label longer than its squeezed axis over the title, "n/a" over the lowest
// value of parallel coordinates. The report itself: charts of hidden tabs computed on a worker
// are waited for (they were written empty), and a chart with nothing plotted is left out.
// DPLAB_TEST_SCREENSHOTS=<dir>: a PNG of every chart at both presets (export-<W>in-<stem>.png).
#include <QDir>
#include <QFile>
#include <QPaintEngine>
#include <QPaintEngineState>
#include <QPainter>
#include <QPicture>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/chart_export.h"
#include "charts/chart_view.h"
#include "form/experiment_form.h"
#include "shell/main_window.h"
#include "support/test_registry.h"
#include "ui_test_support.h"

using namespace dplab;
using namespace dplab::ui;

namespace {

struct DrawnText {
  QString text;
  QRectF box;  // page coordinates
};

// Keeps the box of every string drawn on it; everything else is ignored.
class TextRecorderEngine : public QPaintEngine {
 public:
  TextRecorderEngine() : QPaintEngine(QPaintEngine::AllFeatures) {}
  bool begin(QPaintDevice*) override { return true; }
  bool end() override { return true; }
  void updateState(const QPaintEngineState& state) override {
    if (state.state() & QPaintEngine::DirtyTransform) transform_ = state.transform();
  }
  // Shapes are not text (QPaintEngine's defaults call each other in a circle).
  void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
  void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override {}
  void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
  void drawPolygon(const QPoint*, int, PolygonDrawMode) override {}
  void drawPath(const QPainterPath&) override {}
  void drawLines(const QLineF*, int) override {}
  void drawLines(const QLine*, int) override {}
  void drawRects(const QRectF*, int) override {}
  void drawRects(const QRect*, int) override {}
  void drawEllipse(const QRectF&) override {}
  void drawPoints(const QPointF*, int) override {}
  void drawPoints(const QPoint*, int) override {}
  void drawTextItem(const QPointF& p, const QTextItem& item) override {
    const QRectF local(p.x(), p.y() - item.ascent(), item.width(), item.ascent() + item.descent());
    if (!item.text().trimmed().isEmpty()) texts.push_back({item.text(), transform_.mapRect(local)});
  }
  Type type() const override { return QPaintEngine::User; }
  std::vector<DrawnText> texts;

 private:
  QTransform transform_;
};

class TextRecorder : public QPaintDevice {
 public:
  explicit TextRecorder(QSize size) : size_(size) {}
  QPaintEngine* paintEngine() const override { return &engine_; }
  std::vector<DrawnText>& texts() { return engine_.texts; }

 protected:
  int metric(PaintDeviceMetric m) const override {
    switch (m) {
      case PdmWidth:
        return size_.width();
      case PdmHeight:
        return size_.height();
      case PdmDpiX:
      case PdmDpiY:
      case PdmPhysicalDpiX:
      case PdmPhysicalDpiY:
        return 96;
      case PdmDepth:
        return 32;
      case PdmDevicePixelRatio:
        return 1;
      case PdmDevicePixelRatioScaled:
        return static_cast<int>(QPaintDevice::devicePixelRatioFScale());
      default:
        return QPaintDevice::metric(m);
    }
  }

 private:
  QSize size_;
  mutable TextRecorderEngine engine_;
};

std::vector<DrawnText> textsOf(const QPicture& picture, QSize page) {
  TextRecorder device(page);
  QPainter painter(&device);
  painter.drawPicture(0, 0, picture);
  painter.end();
  return device.texts();
}

ImageExportOptions preset(double width_in, double height_in) {
  ImageExportOptions o;
  o.width_in = width_in;
  o.height_in = height_in;
  o.dpi = 200;
  o.title = true;
  return o;
}

}  // namespace

class TestExportTextLayout : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QVERIFY(dir_.isValid());
    window_ = new MainWindow;
    window_->resize(1280, 720);
    window_->show();
    QSignalSpy finished(window_, &MainWindow::runFinished);
    window_->form()->setConfig(test::tinyExperiment());
    QTRY_VERIFY_WITH_TIMEOUT(window_->runAction()->isEnabled(), 30000);
    window_->runAction()->trigger();
    QVERIFY(finished.wait(60000));
  }
  void cleanupTestCase() { delete window_; }

  void everyChartsTextFitsItsPage_data() {
    QTest::addColumn<double>("width_in");
    QTest::addColumn<double>("height_in");
    QTest::newRow("single column 3.5 in") << 3.5 << 2.6;
    QTest::newRow("double column 7 in") << 7.0 << 3.5;
  }
  void everyChartsTextFitsItsPage() {
    QFETCH(double, width_in);
    QFETCH(double, height_in);
    const ImageExportOptions o = preset(width_in, height_in);
    const QRectF page(0, 0, o.logicalWidth(), o.logicalHeight());
    int checked = 0;
    for (ChartView* chart : window_->charts()) {
      QTRY_VERIFY2_WITH_TIMEOUT(!chart->prepareRead(), qPrintable(chart->fileStem()), 30000);
      if (chart->isEmpty()) continue;
      ++checked;
      const QString title = chart->title();
      if (const QString dir = qEnvironmentVariable("DPLAB_TEST_SCREENSHOTS"); !dir.isEmpty()) {
        QString error;
        const QString name = QStringLiteral("%1/export-%2in-%3.png")
                                 .arg(dir, QString::number(width_in), chart->fileStem());
        QVERIFY2(writePicture(chart->recordImage(ImageFormat::kPng, o), name, ImageFormat::kPng, o,
                              &error),
                 qPrintable(error));
      }
      const std::vector<DrawnText> texts =
          textsOf(chart->recordImage(ImageFormat::kSvg, o), page.size().toSize());
      QVERIFY2(!texts.empty(), qPrintable(chart->fileStem()));
      for (const DrawnText& t : texts) {
        QVERIFY2(page.adjusted(-1, -1, 1, 1).contains(t.box),
                 qPrintable(QStringLiteral("%1: \"%2\" at %3,%4 %5x%6 leaves the %7x%8 page")
                                .arg(chart->fileStem(), t.text)
                                .arg(t.box.x())
                                .arg(t.box.y())
                                .arg(t.box.width())
                                .arg(t.box.height())
                                .arg(page.width())
                                .arg(page.height())));
      }
      // Two strings overlap when their boxes share more than 3 px in both directions (a box
      // runs from the font's ascent to its descent, ~3 px under the baseline that digits and
      // most letters never reach).
      for (std::size_t i = 0; i < texts.size(); ++i) {
        for (std::size_t j = i + 1; j < texts.size(); ++j) {
          const QRectF both = texts[i].box.intersected(texts[j].box);
          QVERIFY2(both.width() <= 3 || both.height() <= 3,
                   qPrintable(QStringLiteral("%1: \"%2\" and \"%3\" overlap by %4x%5 px")
                                  .arg(chart->fileStem(), texts[i].text, texts[j].text)
                                  .arg(both.width())
                                  .arg(both.height())));
        }
      }
      QCOMPARE(chart->title(), title);  // the screen's chart is given back
    }
    QVERIFY2(checked >= 8, qPrintable(QString::number(checked)));
  }

  void reportWaitsForHiddenViewsAndLeavesEmptyChartsOut() {
    QString error;
    const QString dir = dir_.filePath(QStringLiteral("report"));
    QVERIFY2(test::exportReportAndWait(window_, dir, &error), qPrintable(error));
    // Computed on workers when read, never shown in this test: written with their numbers.
    for (const char* stem : {"parallel_coordinates", "privacy_utility"}) {
      QFile csv(QDir(dir).filePath(QString::fromLatin1(stem) + ".csv"));
      QVERIFY2(csv.open(QIODevice::ReadOnly), stem);
      QVERIFY2(csv.readAll().count('\n') >= 3, stem);  // header and the candidates' rows
      QVERIFY(QFile::exists(QDir(dir).filePath(QString::fromLatin1(stem) + ".png")));
    }
    // No adaptive clipping in this run: no empty clipping-threshold figure.
    QVERIFY(!QFile::exists(QDir(dir).filePath(QStringLiteral("clip_threshold_curves.png"))));
    QVERIFY(QFile::exists(QDir(dir).filePath(QStringLiteral("accuracy_curves.png"))));
  }

 private:
  QTemporaryDir dir_;
  MainWindow* window_ = nullptr;
};

DPLAB_TEST_MAIN(TestExportTextLayout)
#include "test_export_text_layout.moc"
