#include "python/conversions.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace dplab::python {
namespace {

// The settings written as a pair LO:HI or A:B on the command line.
bool is_pair_setting(const std::string& name) {
  return name == "feature-range" || name == "sweep-candidates";
}

std::string double_text(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return std::string(buffer, end);
}

// A scalar (no sequence) as text; false when it is not a bool, number or str.
bool scalar_text(const py::handle& value, std::string& text) {
  if (py::isinstance<py::str>(value)) {
    text = value.cast<std::string>();
    return true;
  }
  if (py::hasattr(value, "__fspath__")) {  // a pathlib.Path (out=...)
    text = py::str(py::module_::import("os").attr("fspath")(value));
    return true;
  }
  if (py::isinstance<py::bool_>(value)) return false;  // only a whole keyword can be a switch
  // Python ints and numpy integers (anything with __index__): their exact decimal text.
  if (PyLong_Check(value.ptr()) || (!PyFloat_Check(value.ptr()) && PyIndex_Check(value.ptr()))) {
    text = py::str(py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr())));
    return true;
  }
  if (PyFloat_Check(value.ptr()) || py::hasattr(value, "__float__")) {
    text = double_text(py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>());
    return true;
  }
  return false;
}

}  // namespace

std::string setting_name(const std::string& keyword) {
  std::string name = keyword;
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

bool setting_text(const std::string& keyword, const py::handle& value, std::string& text,
                  bool& is_switch) {
  is_switch = false;
  if (value.is_none()) return false;
  if (py::isinstance<py::bool_>(value) ||
      py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>() == "bool_") {
    is_switch = true;
    return py::bool_(py::reinterpret_borrow<py::object>(value)).cast<bool>();
  }
  if (scalar_text(value, text)) return true;
  if (py::isinstance<py::sequence>(value) || py::hasattr(value, "tolist")) {
    py::object items = py::hasattr(value, "tolist") ? value.attr("tolist")()
                                                    : py::reinterpret_borrow<py::object>(value);
    if (py::isinstance<py::sequence>(items) && !py::isinstance<py::str>(items)) {
      const std::string separator =
          is_pair_setting(setting_name(keyword)) && py::len(items) == 2 ? ":" : ",";
      text.clear();
      for (const auto& item : items) {
        std::string part;
        if (!scalar_text(item, part)) {
          throw py::type_error(keyword + ": expected numbers or strings in the list, got " +
                               std::string(py::str(py::type::handle_of(item).attr("__name__"))));
        }
        text += (text.empty() ? "" : separator) + part;
      }
      return true;
    }
  }
  throw py::type_error(keyword + ": expected a number, a string, a bool or None, got " +
                       std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

Settings settings_from_kwargs(const py::kwargs& kwargs, const std::vector<std::string>& skip) {
  Settings settings(SettingSpelling::kKeyword);
  for (const auto& [key, value] : kwargs) {
    const std::string keyword = py::str(key);
    if (std::find(skip.begin(), skip.end(), keyword) != skip.end()) continue;
    std::string text;
    bool is_switch = false;
    if (!setting_text(keyword, value, text, is_switch)) continue;
    if (is_switch) {
      settings.set_switch(setting_name(keyword));
    } else {
      settings.set(setting_name(keyword), text);
    }
  }
  return settings;
}

py::object to_python(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return py::none();
    case nlohmann::json::value_t::boolean:
      return py::bool_(value.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return py::int_(value.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return py::int_(value.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float:
      return py::float_(value.get<double>());
    case nlohmann::json::value_t::string:
      return py::str(value.get<std::string>());
    case nlohmann::json::value_t::array: {
      py::list list;
      for (const auto& item : value) list.append(to_python(item));
      return list;
    }
    case nlohmann::json::value_t::object: {
      py::dict dict;
      for (const auto& [key, item] : value.items()) dict[py::str(key)] = to_python(item);
      return dict;
    }
    default:
      return py::none();
  }
}

}  // namespace dplab::python
