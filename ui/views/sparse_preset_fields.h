// SparsePresetFields: the shared settings of the sparse-DP reproduction views (Figure 1 loss
// curves, canary audit): corpus file, vocabulary, embedding size, training/test tokens, epochs,
// seed, on top of experiment::sparse_paper_preset (the paper's Table 1 hyperparameters, scaled
// as docs/guide/methods.md, "Sparse DP", says). The default corpus is the King James Bible written
// by scripts/make-kjv-corpus.sh into the shipped data folder (datasets/kjv/kjv.txt).
#pragma once

#include <QWidget>
#include <optional>

#include "reproduction/sparse_reproduction.h"

class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;

namespace dplab::ui {

class SparsePresetFields : public QWidget {
  Q_OBJECT
 public:
  explicit SparsePresetFields(QWidget* parent = nullptr);

  void setPreset(const experiment::SparsePreset& preset);
  // The preset with the fields applied; nullopt and *error naming the field when invalid.
  std::optional<experiment::SparsePreset> preset(QString* error) const;
  QFormLayout* form() const { return form_; }  // owners add their own rows

  // <shipped data folder>/kjv/kjv.txt, or "" when no data folder is found.
  static QString defaultCorpus();

 private:
  experiment::SparsePreset base_;
  QFormLayout* form_;
  QLineEdit* corpus_;
  QSpinBox* vocabulary_;
  QSpinBox* dim_;
  QSpinBox* train_tokens_;
  QSpinBox* test_tokens_;
  QDoubleSpinBox* epochs_;
  QSpinBox* eval_points_;
  QSpinBox* seed_;
};

}  // namespace dplab::ui
