// The import dialog's preview of the chosen file (issue #45): the first 64 KiB come through the
// engine's one reader, so a FIFO or a directory is refused at once with the reason (QFile::read
// used to block the GUI thread on a FIFO for ever), and a gzip-compressed CSV previews its
// decompressed first rows and offers its header's columns as label choices.
#include <sys/stat.h>
#include <zlib.h>

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QtTest>

#include "form/import_dialog.h"
#include "support/test_registry.h"

using namespace dplab::ui;

class TestImportDialog : public QObject {
  Q_OBJECT

  // Types `path` into the dialog's file field as a user does (editing finished) and returns what
  // the preview then shows.
  static QString previewOf(ImportDialog& dialog, const QString& path) {
    auto* field = dialog.findChild<QLineEdit*>();
    field->setText(path);
    emit field->editingFinished();
    return dialog.findChild<QPlainTextEdit*>()->toPlainText();
  }

 private slots:
  void hostilePathsAreRefusedWithTheReason() {
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("pipe.csv"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    ImportDialog dialog;
    const QString on_fifo = previewOf(dialog, fifo);
    QVERIFY2(on_fifo.startsWith(QStringLiteral("cannot read")) &&
                 on_fifo.contains(QStringLiteral("FIFO")),
             qPrintable(on_fifo));
    const QString on_dir = previewOf(dialog, dir.path());
    QVERIFY2(on_dir.contains(QStringLiteral("directory")), qPrintable(on_dir));
    const QString missing = previewOf(dialog, dir.filePath(QStringLiteral("nope.csv")));
    QVERIFY2(missing.startsWith(QStringLiteral("cannot read")), qPrintable(missing));
  }

  void gzipCsvPreviewsItsRows() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("data.csv.gz"));
    const QByteArray csv = "age,income,label\n39,1.5,0\n50,2.25,1\n";
    gzFile gz = gzopen(QFile::encodeName(path).constData(), "wb");
    QVERIFY(gz != nullptr);
    QCOMPARE(gzwrite(gz, csv.constData(), static_cast<unsigned>(csv.size())),
             static_cast<int>(csv.size()));
    QCOMPARE(gzclose(gz), Z_OK);
    ImportDialog dialog;
    const QString shown = previewOf(dialog, path);
    QCOMPARE(shown, QStringLiteral("age,income,label\n39,1.5,0\n50,2.25,1\n"));
    auto* label = dialog.findChild<QComboBox*>(QString(), Qt::FindDirectChildrenOnly);
    QStringList columns;
    for (auto* box : dialog.findChildren<QComboBox*>())
      for (int i = 0; i < box->count(); ++i) columns << box->itemText(i);
    QVERIFY(label != nullptr);
    QVERIFY2(columns.contains(QStringLiteral("income")), qPrintable(columns.join(',')));
  }

  void binaryFileIsNotShownAsText() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("images-idx3-ubyte"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray("\0\0\x08\x03", 4) + QByteArray(60, '\0'));
    f.close();
    ImportDialog dialog;
    const QString shown = previewOf(dialog, path);
    QVERIFY2(shown.contains(QStringLiteral("binary file, 64 bytes")), qPrintable(shown));
  }
};

DPLAB_TEST_MAIN(TestImportDialog)
#include "test_import_dialog.moc"
