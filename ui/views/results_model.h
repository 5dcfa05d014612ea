// ResultsModel: one row per candidate of the shown run — its hyperparameters (engine Candidate),
// final and best validation accuracy and final training loss (mean over its finished repeats, from
// the job curves), and ε: of one run (the accountant at the run's mechanism), and the honest ε of
// selecting within its optimizer's K candidates by MA and by LT (engine tuning/accounting.h).
// Qt::UserRole carries unrounded numbers (sorting and CSV).
#pragma once

#include <QAbstractTableModel>
#include <vector>

namespace dplab::tuning {
struct SearchResults;
}

namespace dplab::ui {

class RunData;

class ResultsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    kIndex,
    kOptimizer,
    kLearningRate,
    kClip,
    kMomentum,
    kBeta1,
    kBeta2,
    kRepeatsDone,
    kStatus,
    kFinalAccuracy,
    kBestAccuracy,
    kFinalTrainLoss,
    kEpsilonRun,
    kEpsilonMa,
    kEpsilonLt,
    kColumns
  };
  explicit ResultsModel(RunData* data, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 public slots:
  void refresh(bool structural);

 private:
  struct Row {
    int candidate = 0;
    QString optimizer;
    double lr = 0, clip = 0, momentum = 0, beta1 = 0, beta2 = 0;
    int repeats_done = 0;
    QString status;
    double final_acc = 0, best_acc = 0, final_loss = 0;
    double eps_run = 0, eps_ma = 0, eps_lt = 0;
  };
  // `accounting`: also recompute the ε columns (on a structural change only: they depend on
  // the run's mechanism and candidates, not on its points, and cost accountant calls).
  void rebuild(bool accounting);
  void accountColumns(const tuning::SearchResults& res);

  RunData* data_;
  std::vector<Row> rows_;
  std::vector<double> eps_ma_, eps_lt_;  // per optimizer
  double eps_run_ = 0;
};

}  // namespace dplab::ui
