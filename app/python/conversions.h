// The conversions between Python and the engine that every function of the module shares:
//   - keyword arguments -> the engine's named settings (core/settings.h), spelled as Python
//     keywords in every message ("noise_multiplier" for the setting "noise-multiplier");
//   - the engine's JSON answers -> Python dicts, lists and numbers;
//   - std::vector -> numpy arrays that own the vector's buffer (no copy).
#pragma once

#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <nlohmann/json.hpp>

#include "core/settings.h"

namespace dplab::python {

namespace py = pybind11;

// One keyword's value as the text a command-line flag would carry: a bool is a switch (True sets
// it, False leaves it out), None leaves it out, an int or float its exact decimal text (floats:
// the shortest text that reads back as the same double), a str or a path itself; a pair (a, b) is
// "a:b" for the settings written LO:HI / A:B, any other list or tuple its items joined by commas.
// Returns false when the setting is left out; TypeError naming the keyword for anything else.
bool setting_text(const std::string& keyword, const py::handle& value, std::string& text,
                  bool& is_switch);

// Every keyword of `kwargs` into a Settings spelled as keywords; `skip` are the keywords the
// caller reads itself (progress, ...).
Settings settings_from_kwargs(const py::kwargs& kwargs, const std::vector<std::string>& skip = {});

// The setting name of a keyword: "noise_multiplier" -> "noise-multiplier".
std::string setting_name(const std::string& keyword);

py::object to_python(const nlohmann::json& value);

// A numpy array that owns `values` (moved into a capsule: no copy).
template <class T>
py::array_t<T> owning_array(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({static_cast<py::ssize_t>(owned->size())}, {sizeof(T)}, owned->data(),
                        free_when_done);
}

}  // namespace dplab::python
