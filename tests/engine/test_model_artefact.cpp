// The trained model as a released artefact (release/model_artefact.h, models/model_export.h,
// data/npz_file.h):
//   - every built-in model kind (logistic binary / two-class softmax / multiclass, linear, TLNN,
//     cnn, conv-autoencoder, wide-cnn, a custom network with every layer type) exports a graph
//     whose tensors concatenated are its parameters, and import_model of a written-then-read folder
//     computes exactly the original's logits (same parameters, same kernels);
//   - model.npz is NumPy's format byte for byte in its NPY headers (64-byte aligned data);
//   - a CSV-trained model applied to its own file through the stored encoding (columns in another
//     order, label column absent) gives exactly the trained model's outputs on the loaded rows;
//   - a folder whose arrays, layers or encoding do not fit is refused, naming the array or key;
//   - what model.json writes is classed by the field table (encoding and fitted scaling: not
//     covered) and release.json lists the not-covered keys.
#include <QTest>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "data/csv_loader.h"
#include "data/dataset_catalog.h"
#include "data/file_reader.h"
#include "data/npz_file.h"
#include "data/prepare_split.h"
#include "models/model_export.h"
#include "models/network_description.h"
#include "optim/optimizer.h"
#include "release/model_artefact.h"
#include "release/predictions.h"
#include "release/release_writer.h"
#include "release/train_release.h"
#include "support/expect_error.h"
#include "support/temp_files.h"
#include "support/test_registry.h"
#include "training/trainer.h"

using namespace dplab;
namespace fs = std::filesystem;

namespace {

Matrix random_rows(Index rows, Index cols, std::uint64_t seed) {
  Rng rng(seed);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  Matrix x(rows, cols);
  for (Index i = 0; i < x.size(); ++i) x.data()[i] = u(rng);
  return x;
}

// A release folder holding only `model` (as train --out writes it), read back.
release::LoadedModel write_and_read(const models::ExportedModel& exported, const std::string& dir) {
  release::Release r;
  r.experiment = "model test";
  r.mode = "train";
  r.privacy = {{"epsilon_label", "eps <= 1 (test)"}};
  r.csv_label = "eps <= 1 (test)";
  r.released = {{"status", "finished"}};
  release::ReleasedModel m;
  m.model = std::make_shared<const models::ExportedModel>(exported);
  r.models.push_back(m);
  release::write_release(r, dir);
  return release::read_model_folder(dir);
}

struct Kind {
  const char* name;
  models::ModelSpec spec;
  Index input_dim;
  int classes;
};

std::vector<Kind> kinds() {
  std::vector<Kind> k;
  models::ModelSpec logistic;
  k.push_back({"logistic binary", logistic, 7, 2});
  models::ModelSpec softmax2 = logistic;
  softmax2.binary_output = models::BinaryOutput::kTwoClassSoftmax;
  k.push_back({"logistic two-class softmax", softmax2, 5, 2});
  k.push_back({"logistic multiclass", logistic, 6, 4});
  models::ModelSpec linear;
  linear.kind = models::ModelKind::kLinearRegression;
  k.push_back({"linear", linear, 4, 0});
  models::ModelSpec tlnn;
  tlnn.kind = models::ModelKind::kTwoLayerNetwork;
  tlnn.hidden_units = 9;
  k.push_back({"tlnn binary", tlnn, 8, 2});
  k.push_back({"tlnn multiclass", tlnn, 8, 3});
  models::ModelSpec cnn;
  cnn.kind = models::ModelKind::kCnn;
  k.push_back({"cnn", cnn, 28 * 28, 10});
  models::ModelSpec autoencoder;
  autoencoder.kind = models::ModelKind::kConvAutoencoder;
  k.push_back({"conv-autoencoder", autoencoder, 28 * 28, 10});
  models::ModelSpec wide;
  wide.kind = models::ModelKind::kWideCnn;
  k.push_back({"wide-cnn", wide, 28 * 28, 10});
  models::ModelSpec custom;
  custom.kind = models::ModelKind::kCustom;
  custom.network = R"({"name": "every-layer", "input": [9, 9, 2], "loss": "cross_entropy",
    "layers": [{"type": "conv", "channels": 3, "kernel": 3, "stride": 2, "padding": 1},
               {"type": "leaky_relu"}, {"type": "conv_transpose", "channels": 2, "kernel": 3,
               "stride": 2, "padding": 1}, {"type": "tanh"},
               {"type": "avg_pool", "kernel": 2, "stride": 1}, {"type": "sigmoid"},
               {"type": "max_pool", "kernel": 2, "stride": 2}, {"type": "relu"},
               {"type": "dense", "units": 3}]})";
  k.push_back({"custom", custom, 9 * 9 * 2, 3});
  return k;
}

void write_text(const std::string& path, const std::string& text) {
  testing::write_file(path, text);
}

}  // namespace

class TestModelArtefact : public QObject {
  Q_OBJECT
 private slots:
  void everyKindRoundTripsExactly_data() {
    QTest::addColumn<int>("index");
    const auto all = kinds();
    for (std::size_t i = 0; i < all.size(); ++i) QTest::newRow(all[i].name) << static_cast<int>(i);
  }
  void everyKindRoundTripsExactly() {
    QFETCH(int, index);
    const Kind kind = kinds()[static_cast<std::size_t>(index)];
    auto model = models::make_model(kind.spec, kind.input_dim, kind.classes);
    model->initialize(11);
    // Non-zero parameters everywhere (linear models start at zero).
    Rng rng(5);
    std::normal_distribution<float> noise(0.f, 0.3f);
    for (Index j = 0; j < model->num_params(); ++j) model->params()[j] += noise(rng);
    const models::ExportedModel exported = models::export_model(*model, kind.spec, kind.classes);

    // The tensors, concatenated in order, are the flat parameter vector.
    Vector concatenated(model->num_params());
    Index offset = 0;
    for (const auto& t : exported.graph.tensors) {
      for (float v : t.values) concatenated[offset++] = v;
    }
    QCOMPARE(offset, model->num_params());
    QVERIFY(concatenated == model->params());

    testing::TempFiles temp;
    const release::LoadedModel loaded = write_and_read(exported, temp.path("release"));
    QCOMPARE(loaded.exported.graph.ops.size(), exported.graph.ops.size());
    QVERIFY(loaded.model->params() == model->params());
    const Matrix x = random_rows(6, kind.input_dim, 3);
    Matrix original, reloaded;
    model->logits(x, original);
    loaded.model->logits(x, reloaded);
    QVERIFY(original == reloaded);  // the same parameters through the same kernels
    // The outputs are probabilities for a classifier.
    const Matrix p = models::predict_outputs(*loaded.model, loaded.exported.graph.output, x);
    if (loaded.exported.graph.output != models::OutputKind::kIdentity) {
      for (Index i = 0; i < p.rows(); ++i) QVERIFY(std::abs(p.row(i).sum() - 1.f) < 1e-5f);
    }
  }

  void npyHeadersAreNumpysFormat() {
    data::NpyArray a{"layer0.weight", {2, 3}, {1, 2, 3, 4, 5, 6}};
    const std::string bytes = data::npy_bytes(a);
    QCOMPARE(bytes.substr(0, 6), std::string("\x93NUMPY", 6));
    QCOMPARE(int(bytes[6]), 1);
    const std::size_t header =
        static_cast<unsigned char>(bytes[8]) |
        (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    QCOMPARE((10 + header) % 64, std::size_t{0});  // data aligned to 64 bytes
    QVERIFY(bytes.find("'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }") !=
            std::string::npos);
    QCOMPARE(bytes.size(), 10 + header + 6 * sizeof(float));
    QVERIFY(data::npy_bytes({"b", {4}, {1, 2, 3, 4}}).find("'shape': (4,), }") !=
            std::string::npos);
    const data::NpyArray back = data::parse_npy(bytes, "w", "test");
    QCOMPARE(back.shape, (std::vector<std::int64_t>{2, 3}));
    QCOMPARE(back.values, a.values);

    testing::TempFiles temp;
    const std::string path = temp.path("m.npz");
    data::write_npz(path, {a, {"layer0.bias", {3}, {0.5f, -1.f, 2.f}}});
    const auto arrays = data::read_npz(path);
    QCOMPARE(arrays.size(), std::size_t{2});
    QCOMPARE(arrays[1].name, std::string("layer0.bias"));
    QCOMPARE(arrays[1].values, (std::vector<float>{0.5f, -1.f, 2.f}));
    // Not float32: refused naming the member.
    std::string f8 = bytes;
    f8.replace(f8.find("<f4"), 3, "<f8");
    const QString message =
        testing::error_of<ParseError>([&] { data::parse_npy(f8, "w", "x.npz member 'w.npy'"); });
    QVERIFY2(message.contains("w.npy") && message.contains("float32"), qPrintable(message));
    write_text(temp.path("junk.npz"), "not a zip");
    const QString junk =
        testing::error_of<ParseError>([&] { data::read_npz(temp.path("junk.npz")); });
    QVERIFY2(junk.contains("junk.npz"), qPrintable(junk));
  }

  void aCsvModelPredictsItsOwnRowsExactly() {
    testing::TempFiles temp;
    // A numeric column, a categorical one, a label; min-max ranges fitted (no public bounds).
    std::string text = "age,colour,income,label\n";
    Rng rng(9);
    std::uniform_int_distribution<int> age(18, 80), colour(0, 2), income(1000, 90000);
    const char* colours[] = {"red", "green", "blue"};
    for (int i = 0; i < 200; ++i) {
      const int a = age(rng), c = colour(rng), m = income(rng);
      text += std::to_string(a) + "," + colours[c] + "," + std::to_string(m) + "," +
              ((a > 45) != (c == 1) ? "yes" : "no") + "\n";
    }
    const std::string train_csv = temp.path("train.csv");
    write_text(train_csv, text);
    data::DatasetSource source;
    source.path = train_csv;
    source.min_max_scale = false;  // the ranges are fitted on the training part (prepare_split)
    const data::Dataset all = data::load_dataset(source);
    const data::TrainValidationSplit split = data::prepare_split(all, 0.2, 4);
    QVERIFY(split.train.feature_map.kind == data::FeatureMap::Kind::kMinMax);
    training::TrainingConfig config;
    config.model.kind = models::ModelKind::kTwoLayerNetwork;
    config.model.hidden_units = 6;
    config.optimizer = optim::default_spec(optim::OptimizerKind::kDpSgd);
    config.optimizer.learning_rate = 0.5;
    config.dp = {1.0, 1.0, 20.0};
    config.steps = 40;
    config.eval_every = 20;
    config.seed = 3;
    const training::TrainingResult result = training::train(split, config);
    QVERIFY(result.model);

    release::TrainRun run;
    run.name = "train.csv";
    run.status = "finished";
    run.accountant = "rdp";
    run.epsilon = 1.5;
    run.epsilon_label = "eps <= 1.5 at delta = 1e-5 (test)";
    run.curve = &result.curve;
    run.model = result.model;
    run.input = data::input_encoding(split);
    const std::string out = temp.path("run");
    release::write_release(release::train_release(run), out);
    QVERIFY(fs::exists(out + "/model/model.npz"));

    // The same rows with the columns in another order and no label column.
    std::string shuffled = "income,colour,age\n";
    std::vector<std::string> lines;
    {
      std::istringstream in(text);
      std::string line;
      std::getline(in, line);
      while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::istringstream row(line);
        std::string cell;
        while (std::getline(row, cell, ',')) cells.push_back(cell);
        shuffled += cells[2] + "," + cells[1] + "," + cells[0] + "\n";
      }
    }
    const std::string new_csv = temp.path("new.csv");
    write_text(new_csv, shuffled);
    const release::LoadedModel loaded = release::read_model_folder(out);  // the release folder
    std::vector<long> line_numbers;
    const data::Dataset input = release::load_model_input(loaded, new_csv, &line_numbers);
    QCOMPARE(input.size(), Index{200});
    QCOMPARE(line_numbers.front(), 2L);
    const Matrix predicted = release::model_outputs(loaded, input);

    // The trained model on the loaded file's rows, scaled by the training part's map.
    Matrix features = all.features;
    split.train.feature_map.apply(features);
    QVERIFY(features == input.features);  // the stored encoding and map reproduce the features
    const auto trained = models::import_model(*result.model);
    const Matrix expected = models::predict_outputs(*trained, result.model->graph.output, features);
    QVERIFY(expected == predicted);

    // Its validation rows: the run's own validation predictions.
    Matrix validation_features = split.validation.features;
    const Matrix own =
        models::predict_outputs(*trained, result.model->graph.output, validation_features);
    const auto table = release::predictions_table(loaded, predicted, line_numbers);
    QCOMPARE(table.header.front(), std::string("row"));
    QCOMPARE(table.header[1], std::string("predicted"));
    QCOMPARE(table.header[2], std::string("p_no"));
    QCOMPARE(table.constant_columns.front().value, run.epsilon_label);
    QCOMPARE(own.cols(), predicted.cols());

    // model.json: the encoding and the fitted scaling are under their not-covered keys.
    const auto release_json = nlohmann::json::parse(data::read_file_text(out + "/release.json"));
    std::set<std::string> not_covered;
    for (const auto& item : release_json["not_covered"]) {
      if (item["file"] == "model/model.json") not_covered.insert(item["field"].get<std::string>());
    }
    QCOMPARE(not_covered, (std::set<std::string>{"input.encoding", "input.fitted_scaling"}));

    // A file without a column the encoding needs: refused, naming it.
    write_text(temp.path("missing.csv"), "income,age\n100,30\n");
    const QString message = testing::error_of<InvalidArgument>(
        [&] { release::load_model_input(loaded, temp.path("missing.csv")); });
    QVERIFY2(message.contains("'colour'"), qPrintable(message));
    // A missing value under the training's policy (drop): the row gets no prediction, and the
    // lines say which rows were predicted.
    write_text(temp.path("na.csv"), "income,colour,age\n100,red,30\n200,?,40\n");
    std::vector<long> na_lines;
    const data::Dataset kept = release::load_model_input(loaded, temp.path("na.csv"), &na_lines);
    QCOMPARE(kept.size(), Index{1});
    QCOMPARE(na_lines, std::vector<long>{2});
    QVERIFY(!kept.notes.empty() &&
            kept.notes.front().find("1 of 2 rows dropped for missing values") != std::string::npos);
  }

  void aFolderThatDoesNotFitIsRefused() {
    models::ModelSpec spec;
    spec.kind = models::ModelKind::kTwoLayerNetwork;
    spec.hidden_units = 4;
    auto model = models::make_model(spec, 3, 3);
    model->initialize(1);
    testing::TempFiles temp;
    const std::string dir = temp.path("r");
    write_and_read(models::export_model(*model, spec, 3), dir);
    const std::string json_path = dir + "/model/model.json";
    const auto original = nlohmann::json::parse(data::read_file_text(json_path));

    auto wrong_shape = original;
    wrong_shape["model"]["spec"]["hidden_units"] = 5;
    write_text(json_path, wrong_shape.dump());
    QString message = testing::error_of<Error>([&] { release::read_model_folder(dir); });
    QVERIFY2(message.contains("hidden.weight") || message.contains("op 0"), qPrintable(message));

    auto unknown_array = original;
    unknown_array["layers"][0]["weight"] = "nope.weight";
    write_text(json_path, unknown_array.dump());
    message = testing::error_of<ParseError>([&] { release::read_model_folder(dir); });
    QVERIFY2(message.contains("nope.weight") && message.contains("layers[0].weight"),
             qPrintable(message));

    auto unknown_key = original;
    unknown_key["input"]["colour"] = 1;
    write_text(json_path, unknown_key.dump());
    message = testing::error_of<ParseError>([&] { release::read_model_folder(dir); });
    QVERIFY2(message.contains("input.colour") || message.contains("colour"), qPrintable(message));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestModelArtefact)
#include "test_model_artefact.moc"
