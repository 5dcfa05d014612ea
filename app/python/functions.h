// The functions of the `dplab` module, by family; module.cpp declares them.
#pragma once

#include <pybind11/pybind11.h>

namespace dplab::python {

namespace py = pybind11;

// dplab.account, dplab.calibrate, dplab.selection_epsilon, dplab.audit_bound.
void add_accounting_functions(py::module_& module);
// dplab.train, dplab.tune, dplab.load.
void add_run_functions(py::module_& module);

}  // namespace dplab::python
