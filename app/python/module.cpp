// `import dplab`: the engine from Python (docs/guide/python.md). Every number comes from the
// engine's functions, the same ones dplab-cli and the GUI call; this module only converts
// arguments and results. Engine errors (dplab::Error, naming the keyword or file) are raised as
// dplab.Error, a ValueError.
#include <pybind11/pybind11.h>

#include "core/error.h"
#include "python/functions.h"
#include "python/release_object.h"

#ifndef DPLAB_VERSION
#error "DPLAB_VERSION is set for this file by app/python/CMakeLists.txt"
#endif

PYBIND11_MODULE(dplab, m) {
  namespace py = pybind11;
  m.doc() =
      "dplab: differentially private training, honest hyperparameter search and privacy "
      "accounting (the engine of dplab-cli and the dplab GUI)";
  m.attr("__version__") = DPLAB_VERSION;
  py::register_exception<dplab::Error>(m, "Error", PyExc_ValueError);
  dplab::python::add_release_class(m);
  dplab::python::add_accounting_functions(m);
  dplab::python::add_run_functions(m);
}
