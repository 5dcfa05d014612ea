#include "views/sparse_preset_fields.h"

#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>

#include "data/shipped_datasets.h"

namespace dplab::ui {

QString SparsePresetFields::defaultCorpus() {
  try {
    return QString::fromStdString(data::find_shipped_datasets_dir()) + "/kjv/kjv.txt";
  } catch (const std::exception&) {
    return {};
  }
}

SparsePresetFields::SparsePresetFields(QWidget* parent) : QWidget(parent) {
  corpus_ = new QLineEdit(this);
  corpus_->setToolTip(
      tr("Any plain-text file; the default is the King James Bible written by "
         "scripts/make-kjv-corpus.sh"));
  auto* browse = new QToolButton(this);
  browse->setText(tr("…"));
  connect(browse, &QToolButton::clicked, this, [this] {
    const QString file = QFileDialog::getOpenFileName(this, tr("Text corpus"),
                                                      QFileInfo(corpus_->text()).absolutePath());
    if (!file.isEmpty()) corpus_->setText(file);
  });
  auto* corpus_row = new QHBoxLayout;
  corpus_row->addWidget(corpus_, 1);
  corpus_row->addWidget(browse);
  auto spin = [this](int low, int high, const QString& tip) {
    auto* box = new QSpinBox(this);
    box->setRange(low, high);
    box->setToolTip(tip);
    return box;
  };
  vocabulary_ = spin(2, 100000, tr("Words kept after dropping stop words (the paper: 1,000)"));
  dim_ = spin(1, 1000, tr("Embedding size (the paper: 100)"));
  train_tokens_ = spin(10, 100000000, tr("Training tokens, 8 window pairs each"));
  test_tokens_ = spin(10, 100000000, tr("Test tokens"));
  epochs_ = new QDoubleSpinBox(this);
  epochs_->setRange(0.001, 1000);
  epochs_->setDecimals(3);
  epochs_->setToolTip(tr("Passes over the training pairs (the paper: 20; dplab's preset 8)"));
  eval_points_ = spin(1, 1000, tr("Loss evaluations per run"));
  seed_ = spin(0, 1000000000, tr("Seed of data, canaries, initialisation and runs"));
  form_ = new QFormLayout(this);
  form_->setContentsMargins(0, 0, 0, 0);
  form_->addRow(tr("corpus"), corpus_row);
  form_->addRow(tr("vocabulary |V|"), vocabulary_);
  form_->addRow(tr("embedding size"), dim_);
  form_->addRow(tr("training tokens"), train_tokens_);
  form_->addRow(tr("test tokens"), test_tokens_);
  form_->addRow(tr("epochs"), epochs_);
  form_->addRow(tr("loss evaluations"), eval_points_);
  form_->addRow(tr("seed"), seed_);
  setPreset(experiment::sparse_paper_preset(defaultCorpus().toStdString()));
}

void SparsePresetFields::setPreset(const experiment::SparsePreset& preset) {
  base_ = preset;
  corpus_->setText(QString::fromStdString(preset.corpus_path));
  vocabulary_->setValue(preset.vocabulary_size);
  dim_->setValue(preset.embedding_dim);
  train_tokens_->setValue(static_cast<int>(preset.train_tokens));
  test_tokens_->setValue(static_cast<int>(preset.test_tokens));
  epochs_->setValue(preset.epochs);
  eval_points_->setValue(static_cast<int>(preset.eval_points));
  seed_->setValue(static_cast<int>(preset.seed));
}

std::optional<experiment::SparsePreset> SparsePresetFields::preset(QString* error) const {
  experiment::SparsePreset p = base_;
  p.corpus_path = corpus_->text().trimmed().toStdString();
  if (p.corpus_path.empty() || !QFileInfo(corpus_->text().trimmed()).isFile()) {
    *error = tr("corpus: \"%1\" is not a file (run scripts/make-kjv-corpus.sh or choose a text "
                "file)")
                 .arg(corpus_->text().trimmed());
    return std::nullopt;
  }
  p.vocabulary_size = vocabulary_->value();
  p.embedding_dim = dim_->value();
  p.train_tokens = train_tokens_->value();
  p.test_tokens = test_tokens_->value();
  p.epochs = epochs_->value();
  p.eval_points = eval_points_->value();
  p.seed = static_cast<std::uint64_t>(seed_->value());
  return p;
}

}  // namespace dplab::ui
