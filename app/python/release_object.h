// dplab.Release: what one door of dplab hands over, as Python objects - the same object for
// dplab.train, dplab.tune and dplab.load(folder) (engine/release/release_folder.h):
//   privacy      the privacy card (dict): unit, adjacency, sampler, sigma, T, accountant, epsilon,
//                delta, what is not covered;
//   released     what the mode releases (dict: a train run's final metrics, a private search's
//                winners and score, ...);
//   tables       every released CSV as {file: {column: numpy array}} (numbers as float64 or
//                int64, text as object arrays; epsilon_label on every row);
//   curve        the learning-curve table (curve.csv of a run, curves.csv of an explore search,
//                winners.csv of a private one) and curve_frame() / table(file) as pandas frames;
//   manifest     release.json as a dict (schema, mode, not_covered, files, ...);
//   summary      train only: summary.json (the curator's view, with the not-covered training
//                losses labelled); notes: what loading the data changed;
//   model        the released trained model (dplab.Model: predict(X), predict_file(path),
//                arrays, json), None when the release holds none; models: {folder: Model}.
// Nothing of the CuratorRecord (K of a private LT / PS search, its wall time) is in it.
#pragma once

#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include <map>
#include <memory>

#include "release/model_artefact.h"
#include "release/release.h"
#include "release/release_folder.h"

namespace dplab::python {

namespace py = pybind11;

struct ReleaseObject {
  py::dict manifest;
  py::dict tables;  // file -> {column -> numpy array}
  py::object summary = py::none();
  py::list notes;
  std::string curve_file;  // the curve table's file, "" when there is none
  std::map<std::string, std::shared_ptr<const release::LoadedModel>> models;  // folder -> model
};

ReleaseObject release_object(const release::ReleaseFolder& folder);
// The models of a release built in memory (dplab.train, dplab.tune) / of a folder on disk.
void attach_models(ReleaseObject& object, const release::Release& release);
void attach_models(ReleaseObject& object, const std::string& directory);

// Declares dplab.Release.
void add_release_class(py::module_& module);

}  // namespace dplab::python
