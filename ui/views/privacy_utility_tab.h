// PrivacyUtilityTab: the privacy–utility trade-off of the shown search — per optimizer, the
// accuracy a release publishes against the ε it costs, for every release mode (engine:
// tuning::privacy_utility, whose ε come from tuning/release_cost). Filled markers: what this
// search did (explore: every run trained is released; the black star is the whole search).
// Hollow markers and the dashed line are PLANS, labelled so: the ε IF one selected privately
// among the same candidates (MA, Liu–Talwar at γ = 1/K, Papernot–Steinke Poisson, and LT with γ
// varied) and the expected accuracy of the released winner, computed from this search's scores.
// Computed off the GUI thread (LatestOnlyTask) when the set of finished jobs changes.
#pragma once

#include <QWidget>
#include <map>
#include <vector>

#include "async/latest_only_task.h"
#include "chart_series/privacy_utility.h"
#include "tuning/results.h"

class QLabel;
class QCPAbstractPlottable;

namespace dplab::ui {

class ChartView;
class RunData;

class PrivacyUtilityTab : public QWidget {
  Q_OBJECT
 public:
  PrivacyUtilityTab(RunData* data, QWidget* parent = nullptr);
  ChartView* chart() const { return chart_; }
  // The engine numbers drawn last (empty before a run).
  const tuning::PrivacyUtility& shown() const { return shown_; }
  QString noteText() const;

 public slots:
  void refresh(bool structural);

 signals:
  void message(const QString& text, bool is_error);
  void computed();

 private:
  void draw(const tuning::PrivacyUtility& pu, const QStringList& names, const QString& error);
  QString tooltip(QCPAbstractPlottable* plottable, int index) const;

  RunData* data_;
  ChartView* chart_;
  QLabel* note_;
  QStringList pending_names_;  // of the newest query
  int latest_ = 0;             // its sequence number
  int delivered_ = 0;          // sequence number of the last result delivered (drawn or not)
  LatestOnlyTask<tuning::SearchResults, tuning::PrivacyUtility> task_;
  int finished_seen_ = -1;
  tuning::PrivacyUtility shown_;
  QStringList names_;
  std::map<const QCPAbstractPlottable*, std::vector<tuning::PrivacyUtilityPoint>> drawn_;
};

}  // namespace dplab::ui
