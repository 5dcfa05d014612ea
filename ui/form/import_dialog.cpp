#include "form/import_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <map>

#include "charts/theme.h"
#include "core/error.h"
#include "data/dataset_catalog.h"
#include "data/file_reader.h"

namespace dplab::ui {

namespace {
constexpr int kPreviewLines = 15;
}

ImportDialog::ImportDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Import data set"));
  resize(720, 520);
  auto* form = new QFormLayout(this);
  auto* row = new QHBoxLayout;
  path_ = new QLineEdit(this);
  path_->setToolTip(
      tr("The data file: IDX images (labels file found by name), CSV with a header "
         "row, or LIBSVM 'label index:value …' lines; .gz is read directly."));
  auto* browse_button = new QPushButton(tr("Browse…"), this);
  row->addWidget(path_, 1);
  row->addWidget(browse_button);
  form->addRow(tr("File"), row);
  format_ = new QComboBox(this);
  format_->addItems({"auto", "idx", "csv", "libsvm"});
  format_->setToolTip(tr("File format; auto decides by the file name, then by its first bytes."));
  form->addRow(tr("Format"), format_);
  label_ = new QComboBox(this);
  label_->setEditable(true);
  label_->setToolTip(tr("CSV: the column holding the class label (empty = the last column)."));
  form->addRow(tr("Label column"), label_);
  preview_ = new QPlainTextEdit(this);
  preview_->setReadOnly(true);
  preview_->setLineWrapMode(QPlainTextEdit::NoWrap);
  preview_->setToolTip(tr("The first lines of the file, as stored."));
  form->addRow(tr("First rows"), preview_);
  check_ = new QLabel(tr("Choose a file."), this);
  check_->setWordWrap(true);
  check_->setToolTip(
      tr("Result of loading the file with dplab's loader: rows n, features d and "
         "the class balance (count per class)."));
  form->addRow(tr("Loaded"), check_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  ok_button_ = buttons->button(QDialogButtonBox::Ok);
  ok_button_->setEnabled(false);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(browse_button, &QPushButton::clicked, this, &ImportDialog::browse);
  connect(path_, &QLineEdit::editingFinished, this, [this] {
    showPreview();
    startCheck();
  });
  connect(format_, &QComboBox::currentTextChanged, this, &ImportDialog::startCheck);
  connect(label_, &QComboBox::currentTextChanged, this, &ImportDialog::startCheck);
}

ImportDialog::~ImportDialog() {
  check_task_.cancel();  // a check in progress ends in the background; its result is dropped
}

QString ImportDialog::path() const {
  return path_->text().trimmed();
}
QString ImportDialog::format() const {
  return format_->currentText();
}
QString ImportDialog::labelColumn() const {
  return label_->currentText().trimmed();
}

void ImportDialog::browse() {
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("import/lastDir")).toString();
  const QString file = QFileDialog::getOpenFileName(
      this, tr("Import data set"), dir,
      tr("Data files (*.csv *.svm *.libsvm *.svmlight *.txt *ubyte *.idx *.gz);;All files (*)"));
  if (file.isEmpty()) return;
  settings.setValue(QStringLiteral("import/lastDir"), QFileInfo(file).absolutePath());
  path_->setText(file);
  showPreview();
  startCheck();
}

void ImportDialog::showPreview() {
  // The first 64 KiB through the one reader: regular files only (a FIFO or /dev/zero would
  // block the GUI thread), and a gzip file's first decompressed bytes, so a .csv.gz previews too.
  QByteArray head;
  try {
    const std::vector<std::uint8_t> bytes = data::read_file_prefix(path().toStdString(), 64 * 1024);
    head = QByteArray(reinterpret_cast<const char*>(bytes.data()),
                      static_cast<qsizetype>(bytes.size()));
  } catch (const Error& e) {
    preview_->setPlainText(tr("cannot read: %1").arg(QString::fromUtf8(e.what())));
    return;
  }
  if (head.contains('\0')) {
    preview_->setPlainText(
        tr("(binary file, %1 bytes: see the loaded summary below)").arg(QFileInfo(path()).size()));
    return;
  }
  const QList<QByteArray> lines = head.split('\n').mid(0, kPreviewLines);
  QStringList text;
  for (const QByteArray& l : lines) text << QString::fromUtf8(l);
  preview_->setPlainText(text.join(QLatin1Char('\n')));
  const QString first = text.value(0);
  if (first.contains(QLatin1Char(',')) && label_->count() == 0) {
    QSignalBlocker block(label_);
    label_->addItem(QString());
    for (const QString& col : first.split(QLatin1Char(','))) label_->addItem(col.trimmed());
  }
}

void ImportDialog::startCheck() {
  if (path().isEmpty()) return;
  ok_button_->setEnabled(false);
  check_->setText(tr("loading …"));
  check_task_.cancel();  // a previous check's result is dropped (generation) when it arrives
  const int generation = ++generation_;
  data::DatasetSource source;
  source.path = path().toStdString();
  source.label_column = labelColumn().toStdString();
  try {
    source.format = data::parse_data_format(format().toStdString());
  } catch (const std::exception& e) {
    onChecked(generation, QString::fromStdString(e.what()), false);
    return;
  }
  struct Checked {
    QString summary;
    bool ok = false;
  };
  check_task_ = async::startInBackground(
      this,
      [source](async::TaskControl&) {
        QString summary;
        bool ok = false;
        try {
          const data::Dataset d = data::load_dataset(source);
          summary = tr("n = %1 rows, d = %2 features, ").arg(d.size()).arg(d.dim());
          if (d.is_regression()) {
            summary += tr("regression target");
          } else {
            const std::vector<Index> counts = data::class_counts(d);
            QStringList parts;
            for (int c = 0; c < static_cast<int>(counts.size()); ++c) {
              const Index k = counts[static_cast<std::size_t>(c)];
              const QString name = c < static_cast<int>(d.class_names.size())
                                       ? QString::fromStdString(d.class_names[c])
                                       : QString::number(c);
              parts << QStringLiteral("%1: %2 (%3%)")
                           .arg(name)
                           .arg(k)
                           .arg(100.0 * k / d.size(), 0, 'f', 1);
            }
            summary += tr("%1 classes — balance %2")
                           .arg(d.num_classes)
                           .arg(parts.join(QStringLiteral(", ")));
          }
          ok = true;
        } catch (const std::exception& e) {
          summary = QString::fromStdString(e.what());
        }
        return Checked{summary, ok};
      },
      [this, generation](const Checked& checked) {
        onChecked(generation, checked.summary, checked.ok);
      },
      [this, generation](const async::Failure& failure) {
        onChecked(generation, failure.message, false);
      });
}

void ImportDialog::onChecked(int generation, const QString& summary, bool ok) {
  if (generation != generation_) return;
  check_->setText(ok ? summary
                     : QStringLiteral("<span style='color:%1'>%2</span>")
                           .arg(toneHex(Tone::kError), summary.toHtmlEscaped()));
  ok_button_->setEnabled(ok);
}

}  // namespace dplab::ui
