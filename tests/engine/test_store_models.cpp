// Schema v6 (store/store.h): a private search's trained models and its input encoding are kept in
// the run history, so that a run read back (history export, history merge, the GUI's report)
// releases the same model files as the run itself:
//   - a private search stored through StoreWriter loads back with every job's model equal to the
//     trained one (same parameters, same graph) and the same input encoding;
//   - an explore search stores no model (its history export releases none);
//   - the release written from the loaded results equals, byte for byte, the one written from
//     the run's own results.
#include <QTest>
#include <filesystem>

#include "data/file_reader.h"
#include "models/model_parameters.h"
#include "release/release_writer.h"
#include "release/search_release.h"
#include "store/store.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/private_search.h"
#include "tuning/runner.h"

using namespace dplab;

namespace {

tuning::SearchResults run_and_store(const experiment::ExperimentConfig& config, store::Store& db,
                                    std::int64_t* id, tuning::PrivatePlan* plan) {
  tuning::RunOptions options;
  options.threads = 2;
  options.keep_models = true;
  if (config.release.mode == experiment::ReleaseMode::kPrivate) {
    *plan = tuning::draw_private_plan(
        config, static_cast<int>(experiment::expand_candidates(config).size()), config.seed);
    options.plan = plan->jobs;
  }
  tuning::Runner runner(config, tuning::load_experiment_data(config), options);
  store::StoreWriter writer(db);
  runner.add_listener(&writer);
  tuning::SearchResults results = runner.run();
  *id = writer.experiment_id();
  return results;
}

std::string file_text(const std::string& path) {
  return data::read_file_text(path);
}

}  // namespace

class TestStoreModels : public QObject {
  Q_OBJECT
 private slots:
  void aPrivateSearchKeepsItsModels() {
    testing::TempFiles temp;
    store::Store db(temp.path("h.sqlite"));
    auto config = testing::tiny_experiment(30, 1);
    config.release.mode = experiment::ReleaseMode::kPrivate;
    config.release.selection = experiment::PrivateSelection::kMa;
    std::int64_t id = 0;
    tuning::PrivatePlan plan;
    const tuning::SearchResults ran = run_and_store(config, db, &id, &plan);
    const tuning::SearchResults loaded = db.load_results(id);
    QCOMPARE(loaded.jobs.size(), ran.jobs.size());
    int models = 0;
    for (std::size_t i = 0; i < ran.jobs.size(); ++i) {
      QVERIFY(ran.jobs[i].model);
      QVERIFY2(loaded.jobs[i].model, "a stored job's model is loaded");
      QCOMPARE(models::flat_parameters(*loaded.jobs[i].model),
               models::flat_parameters(*ran.jobs[i].model));
      QCOMPARE(loaded.jobs[i].model->graph.ops.size(), ran.jobs[i].model->graph.ops.size());
      ++models;
    }
    QVERIFY(models > 0);
    QCOMPARE(loaded.input.feature_names, ran.input.feature_names);

    // The release from the history equals the run's own, model files included.
    const auto winners =
        tuning::select_private_winners(ran, plan, tuning::score_noise_seed(config.seed));
    const std::string a = temp.path("from-run"), b = temp.path("from-history");
    release::write_release(release::private_release(ran, winners, false), a);
    release::write_release(release::private_release(loaded, winners, false), b);
    for (const char* file :
         {"release.json", "winners.csv", "model/model.json", "model/model.npz"}) {
      QVERIFY2(std::filesystem::exists(std::string(a) + "/" + file), file);
      QVERIFY2(file_text(a + "/" + file) == file_text(b + "/" + file), file);
    }
  }

  void anExploreSearchStoresNoModel() {
    testing::TempFiles temp;
    store::Store db(temp.path("h.sqlite"));
    std::int64_t id = 0;
    tuning::PrivatePlan unused;
    run_and_store(testing::tiny_experiment(20, 1), db, &id, &unused);
    for (const auto& job : db.load_results(id).jobs) QVERIFY(!job.model);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestStoreModels)
#include "test_store_models.moc"
