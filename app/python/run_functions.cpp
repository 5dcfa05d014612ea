// dplab.train(X, y, **settings), dplab.tune(experiment), dplab.load(folder): the engine's run and
// search sessions (release/train_session.h, release/search_session.h) on a worker thread
// (background_run.h: progress callback, Ctrl-C), and the release folder reader
// (release/release_folder.h). Each returns a dplab.Release.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "data/array_dataset.h"
#include "data/prepare_split.h"
#include "data/preset_files.h"
#include "experiment/experiment_config.h"
#include "experiment/run_count_visibility.h"
#include "python/background_run.h"
#include "python/conversions.h"
#include "python/functions.h"
#include "python/release_object.h"
#include "release/release_folder.h"
#include "release/release_writer.h"
#include "release/search_session.h"
#include "release/train_session.h"

namespace dplab::python {
namespace {

// Settings of a run file that do not apply to arrays handed over in memory.
const std::vector<std::string> kDataSourceSettings = {
    "dataset",   "format",    "label-column", "categorical",   "delimiter",
    "na-values", "na-policy", "max-memory",   "feature-bounds"};

// An n x d array of T, read through its strides into the engine's float rows.
template <class T>
Matrix copy_rows(const py::array_t<T>& array) {
  const auto values = array.template unchecked<2>();
  Matrix features(static_cast<Index>(values.shape(0)), static_cast<Index>(values.shape(1)));
  for (Index i = 0; i < features.rows(); ++i)
    for (Index j = 0; j < features.cols(); ++j) features(i, j) = static_cast<float>(values(i, j));
  return features;
}

// X (n x d) as the engine's float rows: one copy for float32 and float64 arrays of any layout
// (the Dataset owns its rows); other dtypes are converted to float64 first.
Matrix feature_matrix(const py::handle& x) {
  const auto array = py::array::ensure(x);
  if (!array) throw Error("X: expected a 2-D numeric array (rows = examples)");
  if (array.ndim() != 2) {
    throw Error("X: expected a 2-D array (rows = examples, columns = features), got " +
                std::to_string(array.ndim()) + " dimension(s)");
  }
  if (py::isinstance<py::array_t<float>>(array)) return copy_rows(py::array_t<float>(array));
  const auto as_double = py::array_t<double, py::array::forcecast>::ensure(array);
  if (!as_double) throw Error("X: expected numbers");
  return copy_rows(as_double);
}

std::vector<double> target_values(const py::handle& y) {
  auto as_double = py::array_t<double, py::array::forcecast>::ensure(y);
  if (!as_double || as_double.ndim() != 1) throw Error("y: expected a 1-D numeric array");
  const auto values = as_double.unchecked<1>();
  std::vector<double> targets(static_cast<std::size_t>(values.shape(0)));
  for (py::ssize_t i = 0; i < values.shape(0); ++i)
    targets[static_cast<std::size_t>(i)] = values(i);
  return targets;
}

py::dict point_dict(const training::CurvePoint& p) {
  py::dict d;
  d["iteration"] = p.iteration;
  d["train_loss"] = p.train_loss;
  d["val_loss"] = p.val_loss;
  d["val_accuracy"] = p.val_accuracy;
  d["val_mse"] = p.val_mse;
  d["epsilon"] = p.epsilon;
  d["step_size"] = p.step_size;
  d["clip"] = p.clip;
  return d;
}

py::object train(const py::handle& x, const py::handle& y, const py::kwargs& kwargs) {
  py::object progress = kwargs.contains("progress") ? py::object(kwargs["progress"]) : py::none();
  if (!progress.is_none() && !PyCallable_Check(progress.ptr()))
    throw py::type_error("progress: expected a callable taking one dict (a curve point)");
  const Settings settings = settings_from_kwargs(kwargs, {"progress"});
  for (const auto& name : kDataSourceSettings) {
    if (settings.has(name)) {
      throw Error(settings.field(name) +
                  " is a setting of a data file; dplab.train takes the data as X and y (give "
                  "public bounds with feature_range=(lo, hi))");
    }
  }
  std::set<std::string> known = experiment::run_setting_names();
  for (const auto& name : kDataSourceSettings) known.erase(name);
  known.insert({"accountant", "pld-precision", "secure", "threads"});
  settings.require_only(known, "dplab.train");
  const release::TrainRequest request = release::read_train_request(settings);
  if (!request.run.out.empty()) require_writable_folder(request.run.out, "out");

  const bool regression = request.run.model == "linear";
  const data::Dataset all = data::dataset_from_arrays(feature_matrix(x), target_values(y),
                                                      regression, request.run.feature_bounds);
  const data::TrainValidationSplit split =
      data::prepare_split(all, request.run.validation_fraction, 0);

  std::mutex mutex;
  std::deque<training::CurvePoint> points;  // from the worker, for the callback
  std::atomic<bool> cancel{false};
  training::TrainingHooks hooks;
  hooks.cancel = &cancel;
  hooks.on_point = [&](const training::CurvePoint& p) {
    std::lock_guard<std::mutex> lock(mutex);
    points.push_back(p);
  };
  std::optional<release::TrainSession> session;
  run_in_background(
      [&] {
        session = release::run_train_session(all, split, request, hooks);
        // A cancelled run keeps its curve so far in `out`, as `dplab-cli train` does.
        if (!request.run.out.empty()) release::write_train_session(*session, request.run.out);
      },
      [&] {
        std::deque<training::CurvePoint> news;
        {
          std::lock_guard<std::mutex> lock(mutex);
          news.swap(points);
        }
        if (progress.is_none()) return;
        for (const auto& p : news) progress(point_dict(p));
      },
      [&] { cancel.store(true); });
  if (session->result.diverged) {
    throw Error("training diverged: " + session->result.divergence +
                " (try a smaller lr, clip or noise_multiplier)");
  }
  ReleaseObject object = release_object(release::release_folder(session->release));
  attach_models(object, session->release);
  object.summary = to_python(session->summary);
  for (const auto& note : split.notes) object.notes.append(note);
  object.notes.append("preprocessing: " + split.preprocessing.description);
  return py::cast(std::move(object));
}

experiment::ExperimentConfig experiment_of(const py::handle& config) {
  if (py::isinstance<py::dict>(config)) {
    const std::string text = py::module_::import("json").attr("dumps")(config).cast<std::string>();
    return experiment::parse_experiment_text(text, "the experiment dict");
  }
  if (py::isinstance<py::str>(config) || py::hasattr(config, "__fspath__")) {
    const std::string path = py::str(py::module_::import("os").attr("fspath")(config));
    return experiment::load_experiment_file(data::resolve_preset_path(path));
  }
  throw py::type_error("tune: expected an experiment as a dict or the path of its JSON file");
}

// The progress a search may show: its counts and throughput, or, for a private LT / PS search
// (experiment::hides_run_count), the elapsed time only (every count reveals K).
py::dict progress_dict(const tuning::Progress& p, bool hide_run_count) {
  py::dict d;
  d["elapsed_seconds"] = p.elapsed_seconds;
  if (hide_run_count) return d;
  d["jobs_done"] = p.jobs_done;
  d["jobs_total"] = p.jobs_total;
  d["steps_done"] = p.steps_done;
  d["steps_total"] = p.steps_total;
  d["steps_per_second"] = p.steps_per_second;
  d["eta_seconds"] = p.eta_seconds;
  return d;
}

py::object tune(const py::handle& config_or_path, const py::object& x, const py::object& y,
                const py::object& progress, int threads, const py::object& out_folder) {
  std::optional<std::string> out;
  if (!out_folder.is_none())
    out = py::str(py::module_::import("os").attr("fspath")(out_folder)).cast<std::string>();
  if (!progress.is_none() && !PyCallable_Check(progress.ptr()))
    throw py::type_error("progress: expected a callable taking one dict");
  if (threads < 0 || threads > 1024)
    throw Error("threads: expected 0..1024, got " + std::to_string(threads));
  const experiment::ExperimentConfig config = experiment_of(config_or_path);
  if (x.is_none() != y.is_none())
    throw Error(x.is_none() ? "tune: y given without X" : "tune: X given without y");
  // Arrays in memory replace the experiment's dataset source; its split, validation fraction
  // and public feature bounds still apply.
  std::optional<data::Dataset> given;
  if (!x.is_none()) {
    given = data::dataset_from_arrays(feature_matrix(x), target_values(y),
                                      config.model.kind == models::ModelKind::kLinearRegression,
                                      config.dataset.feature_bounds);
  }
  if (out) require_writable_folder(*out, "out");
  const bool hide = experiment::hides_run_count(config.release);

  std::mutex mutex;  // guards `runner`: the worker replaces it, the caller reads its progress
  tuning::Runner* runner = nullptr;
  std::atomic<bool> cancel{false};
  release::SearchSessionHooks hooks;
  hooks.cancel = &cancel;
  hooks.on_runner = [&](tuning::Runner* r, bool) {
    std::lock_guard<std::mutex> lock(mutex);
    runner = r;
    if (runner && cancel.load()) runner->cancel();
  };
  tuning::RunOptions options;
  options.threads = threads;
  std::optional<release::SearchSession> session;
  auto last_call = std::chrono::steady_clock::now();
  run_in_background(
      [&] {
        session = release::run_search_session(config, options, hooks, given ? &*given : nullptr);
        if (out) {
          release::write_release(session->release, *out);
          release::write_curator_record(session->release.curator, *out);
        }
      },
      [&] {
        if (progress.is_none()) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_call < std::chrono::milliseconds(hide ? 1000 : 200)) return;
        last_call = now;
        std::optional<tuning::Progress> p;
        {
          std::lock_guard<std::mutex> lock(mutex);
          if (runner) p = runner->progress();
        }
        if (p) progress(progress_dict(*p, hide));
      },
      [&] {
        cancel.store(true);
        std::lock_guard<std::mutex> lock(mutex);
        if (runner) runner->cancel();
      });
  ReleaseObject object = release_object(release::release_folder(session->release));
  attach_models(object, session->release);
  if (given) {
    object.notes.append("data: X and y given in memory (the experiment's dataset source '" +
                        config.dataset.source + "' was not read)");
  }
  for (const auto& note : session->notes) object.notes.append(note);
  return py::cast(std::move(object));
}

py::object load(const py::handle& folder) {
  const std::string path = py::str(py::module_::import("os").attr("fspath")(folder));
  ReleaseObject object = release_object(release::read_release_folder(path));
  attach_models(object, path);
  return py::cast(std::move(object));
}

}  // namespace

void add_run_functions(py::module_& m) {
  m.def("train", &train, py::arg("X"), py::arg("y"),
        R"(Train one model with a DP optimizer on arrays, as `dplab-cli train` does on a file.

X: n x d features; y: class indices 0..C-1 (or real values with model="linear"). Keywords are
train's flags with '_' for '-': model, hidden_units, optimizer, lr, clip, noise_multiplier, lot_size,
steps, momentum, beta1, beta2, target_quantile, eval_every, seed, delta, validation_fraction,
feature_range=(lo, hi) (public bounds: the scaling is then covered), accountant, pld_precision,
threads (1..8: each lot split over that many threads, the same model for every value), secure=True, out (also write curve.csv, release.json, summary.json there); progress: a callable
given each curve point as a dict. Ctrl-C (or an exception in progress) stops the run within one
step and raises. Returns a dplab.Release (privacy card, curve, summary).)");
  m.def("tune", &tune, py::arg("experiment"), py::arg("X") = py::none(), py::arg("y") = py::none(),
        py::kw_only(), py::arg("progress") = py::none(), py::arg("threads") = 0,
        py::arg("out") = py::none(),
        R"(Run a search from an experiment (a dict, or the path of an experiment file), as
`dplab-cli tune --config FILE` does, and return its dplab.Release: explore (every run, epsilon = all
runs composed) or private (only the winners; the number of runs of an LT / PS search is never
shown: progress then gets the elapsed time only). X, y: arrays in memory (as for dplab.train) in
place of the experiment's dataset source; its split, validation_fraction and feature_bounds /
feature_range (public bounds: the scaling is then covered) still apply. progress: a callable given a dict now and then;
threads: worker threads (0 = all cores); out: also write the release (and curator-only.json)
there. Ctrl-C stops the search within one step and raises KeyboardInterrupt.)");
  m.def("load", &load, py::arg("folder"),
        R"(Read a release folder (release.json and its CSVs, written by tune --out, train --out,
history export or dplab.train(out=...)) into a dplab.Release.)");
}

}  // namespace dplab::python
