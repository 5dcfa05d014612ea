#include "python/release_object.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/error.h"
#include "python/conversions.h"
#include "release/predictions.h"
#include "release/release_writer.h"

namespace dplab::python {
namespace {

bool parse_integer_cell(const std::string& text, std::int64_t& value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || end != text.c_str() + text.size()) return false;
  value = v;
  return true;
}

// A number as the release's CSVs write it (core/number_text.h): shortest decimal text, "" for
// NaN, "inf" / "-inf".
bool parse_number_cell(const std::string& text, double& value) {
  if (text.empty()) {
    value = NAN;
    return true;
  }
  errno = 0;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && errno != ERANGE;
}

// One column: int64 when every cell is an integer, float64 when every cell is a number (empty =
// NaN), else an object array of str.
py::object column_array(const csv::CsvTable& table, std::size_t column) {
  const std::size_t rows = table.rows.size();
  std::vector<std::int64_t> integers(rows);
  bool all_integers = rows > 0;
  for (std::size_t r = 0; r < rows && all_integers; ++r)
    all_integers = parse_integer_cell(table.rows[r][column], integers[r]);
  if (all_integers) return owning_array(std::move(integers));
  std::vector<double> numbers(rows);
  bool all_numbers = rows > 0;
  for (std::size_t r = 0; r < rows && all_numbers; ++r)
    all_numbers = parse_number_cell(table.rows[r][column], numbers[r]);
  if (all_numbers) return owning_array(std::move(numbers));
  py::list texts;
  for (const auto& row : table.rows) texts.append(py::str(row[column]));
  return py::module_::import("numpy").attr("array")(texts, py::arg("dtype") = "object");
}

py::object pandas_frame(const py::handle& columns, const std::string& what) {
  py::module_ pandas;
  try {
    pandas = py::module_::import("pandas");
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ImportError)) throw;
    throw py::import_error(what +
                           " needs pandas (Debian: apt install python3-pandas); the same "
                           "columns are numpy arrays in .tables / .curve");
  }
  return pandas.attr("DataFrame")(columns);
}

}  // namespace

ReleaseObject release_object(const release::ReleaseFolder& folder) {
  ReleaseObject object;
  object.manifest = to_python(folder.manifest);
  for (const auto& released : folder.tables) {
    py::dict columns;
    for (std::size_t c = 0; c < released.table.header.size(); ++c)
      columns[py::str(released.table.header[c])] = column_array(released.table, c);
    object.tables[py::str(released.file)] = columns;
  }
  for (const char* file : {"curve.csv", "curves.csv", "winners.csv"}) {
    if (object.tables.contains(file)) {
      object.curve_file = file;
      break;
    }
  }
  return object;
}

void attach_models(ReleaseObject& object, const release::Release& release) {
  const nlohmann::json& manifest = release::release_json(release);
  for (const auto& released : release.models) {
    auto loaded = std::make_shared<release::LoadedModel>();
    loaded->exported = *released.model;
    loaded->model = models::import_model(loaded->exported);
    loaded->input = released.input;
    loaded->json = release::model_json(released, manifest["privacy"],
                                       manifest.value("dplab_version", std::string()));
    object.models[released.folder] = std::move(loaded);
  }
}

void attach_models(ReleaseObject& object, const std::string& directory) {
  for (const auto& file : object.manifest["files"]) {
    const std::string name = py::str(file);
    const std::string suffix = "/model.json";
    if (name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    const std::string folder = name.substr(0, name.size() - suffix.size());
    object.models[folder] = std::make_shared<const release::LoadedModel>(
        release::read_model_folder(directory + "/" + folder));
  }
}

namespace {

// Model.predict(X): X's rows are raw features as given to dplab.train (the model's scaling is
// applied, as in training); the outputs as float64 (probabilities, or the values).
py::array_t<double> predict_rows(const release::LoadedModel& model, const py::array& x) {
  const py::array_t<double, py::array::c_style | py::array::forcecast> rows(x);
  if (rows.ndim() != 2 || rows.shape(1) != model.exported.input_dim) {
    throw Error("predict: X must have shape (n, " + std::to_string(model.exported.input_dim) + ")");
  }
  data::Dataset input;
  input.features.resize(rows.shape(0), rows.shape(1));
  for (py::ssize_t i = 0; i < rows.shape(0); ++i)
    for (py::ssize_t j = 0; j < rows.shape(1); ++j)
      input.features(i, j) = static_cast<float>(rows.at(i, j));
  input.targets = Vector::Zero(rows.shape(0));
  model.input.feature_map.apply(input.features);
  const Matrix out = release::model_outputs(model, input);
  std::vector<double> values(out.data(), out.data() + out.size());
  return owning_array(std::move(values)).reshape({out.rows(), out.cols()});
}

}  // namespace

void add_release_class(py::module_& module) {
  py::class_<release::LoadedModel, std::shared_ptr<release::LoadedModel>>(
      module, "Model",
      "A released trained model (model.npz + model.json): its parameters, architecture and "
      "input encoding; predictions are covered by the release's epsilon")
      .def(
          "predict",
          [](const release::LoadedModel& m, const py::array& x) { return predict_rows(m, x); },
          py::arg("X"),
          "class probabilities (one column per class) or values for the rows of X (raw "
          "features, scaled as in training)")
      .def(
          "predict_file",
          [](const release::LoadedModel& m, const std::string& path) {
            const data::Dataset input = release::load_model_input(m, path);
            const Matrix out = release::model_outputs(m, input);
            std::vector<double> values(out.data(), out.data() + out.size());
            return owning_array(std::move(values)).reshape({out.rows(), out.cols()});
          },
          py::arg("path"),
          "predictions for a file encoded with the model's own encoding (CSV columns by name)")
      .def_property_readonly(
          "arrays",
          [](const release::LoadedModel& m) {
            py::dict arrays;
            for (const auto& t : m.exported.graph.tensors) {
              std::vector<float> v = t.values;
              std::vector<py::ssize_t> shape(t.shape.begin(), t.shape.end());
              arrays[py::str(t.name)] = owning_array(std::move(v)).reshape(shape);
            }
            return arrays;
          },
          "the parameter tensors {name: float32 array} (model.npz)")
      .def_property_readonly(
          "json", [](const release::LoadedModel& m) { return to_python(m.json); },
          "model.json as a dict")
      .def_property_readonly(
          "classes", [](const release::LoadedModel& m) { return m.input.class_names; },
          "the class labels, in the order of predict's columns")
      .def("__repr__", [](const release::LoadedModel& m) {
        return "<dplab.Model " + m.exported.graph.description + ">";
      });

  py::class_<ReleaseObject>(module, "Release",
                            "What one door of dplab releases (dplab.train, dplab.tune, "
                            "dplab.load): the privacy card, the released results and tables.")
      .def_property_readonly(
          "privacy", [](const ReleaseObject& r) { return r.manifest["privacy"]; },
          "the privacy card (dict): what epsilon covers, about whom, under which accountant")
      .def_property_readonly(
          "epsilon",
          [](const ReleaseObject& r) -> py::object {
            py::dict privacy = r.manifest["privacy"];
            return privacy.contains("epsilon") ? py::object(privacy["epsilon"]) : py::none();
          },
          "the released epsilon (privacy['epsilon']; None when nothing private was released)")
      .def_property_readonly(
          "released", [](const ReleaseObject& r) { return r.manifest["released"]; },
          "what the release mode releases (dict)")
      .def_property_readonly(
          "mode", [](const ReleaseObject& r) { return r.manifest["mode"]; }, "release mode")
      .def_property_readonly("experiment",
                             [](const ReleaseObject& r) { return r.manifest["experiment"]; })
      .def_property_readonly("cancelled",
                             [](const ReleaseObject& r) { return r.manifest["cancelled"]; })
      .def_property_readonly(
          "not_covered", [](const ReleaseObject& r) { return r.manifest["not_covered"]; },
          "the released fields no epsilon covers, each with its reason")
      .def_readonly("manifest", &ReleaseObject::manifest, "release.json as a dict")
      .def_readonly("tables", &ReleaseObject::tables,
                    "every released CSV: {file: {column: numpy array}}")
      .def_readonly("summary", &ReleaseObject::summary,
                    "dplab.train: summary.json (curator's view); None otherwise")
      .def_readonly("notes", &ReleaseObject::notes, "what loading the data changed")
      .def_property_readonly(
          "model",
          [](const ReleaseObject& r) -> py::object {
            if (r.models.empty()) return py::none();
            return py::cast(
                std::const_pointer_cast<release::LoadedModel>(r.models.begin()->second));
          },
          "the released trained model (dplab.Model), None when the release holds none")
      .def_property_readonly(
          "models",
          [](const ReleaseObject& r) {
            py::dict all;
            for (const auto& [folder, model] : r.models)
              all[py::str(folder)] = py::cast(std::const_pointer_cast<release::LoadedModel>(model));
            return all;
          },
          "every released model by folder ('model', 'models/replicate-2', ...)")
      .def_property_readonly(
          "curve",
          [](const ReleaseObject& r) -> py::object {
            if (r.curve_file.empty()) return py::dict();
            return r.tables[py::str(r.curve_file)];
          },
          "the learning curve(s) as {column: numpy array} (curve.csv, curves.csv or "
          "winners.csv)")
      .def(
          "curve_frame",
          [](const ReleaseObject& r) {
            return pandas_frame(
                r.curve_file.empty() ? py::dict() : py::dict(r.tables[py::str(r.curve_file)]),
                "curve_frame()");
          },
          "the curve as a pandas DataFrame")
      .def(
          "table",
          [](const ReleaseObject& r, const std::string& file) {
            if (!r.tables.contains(file)) {
              std::string files;
              for (const auto& item : r.tables)
                files += (files.empty() ? "" : ", ") + std::string(py::str(item.first));
              throw py::key_error(file + " is not a table of this release (tables: " +
                                  (files.empty() ? "none" : files) + ")");
            }
            return pandas_frame(r.tables[py::str(file)], "table()");
          },
          py::arg("file"), "a released CSV (e.g. 'curve.csv') as a pandas DataFrame")
      .def("__repr__", [](const ReleaseObject& r) {
        py::dict privacy = r.manifest["privacy"];
        std::string epsilon = privacy.contains("epsilon") && !privacy["epsilon"].is_none()
                                  ? std::string(py::str(privacy["epsilon"]))
                                  : "none";
        return "<dplab.Release mode=" + std::string(py::str(r.manifest["mode"])) +
               " epsilon=" + epsilon + " tables=" + std::to_string(py::len(r.tables)) + ">";
      });
}

}  // namespace dplab::python
