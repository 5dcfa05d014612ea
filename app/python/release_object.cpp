#include "python/release_object.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "python/conversions.h"

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

void add_release_class(py::module_& module) {
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
