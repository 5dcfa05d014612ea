// The built-in experiment presets: resources/presets/*.json, compiled into the program (Qt
// resource ":/presets") and installed under share/dplab/presets. The window starts from one of
// them — default-fashion-mnist.json when Fashion-MNIST is installed (engine
// data::find_fashion_mnist), else default-synthetic.json — so the starting experiment is a file
// anyone can read, open and edit, not code.
#pragma once

#include <QString>
#include <QStringList>
#include <string>

#include "experiment/experiment_config.h"

namespace dplab::ui {

// ":/presets/<name>.json" for every built-in preset, sorted by name.
QStringList presetPaths();
// ":/oso-presets/<name>.json": the OSO protocol presets (resources/presets/oso-*.json, schema
// tuning/oso_protocol.h, not experiment files), sorted by name.
QStringList osoProtocolPresetPaths();
// The text of a built-in (":/…") or disk file; throws IoError naming the path.
std::string readPresetText(const QString& path);
// The preset the window starts from (see above).
QString defaultPresetPath();
// Reads and parses a preset or experiment file (":/…" resources too). Throws dplab::Error (or
// ParseError naming the file and key) on failure.
experiment::ExperimentConfig loadExperimentFile(const QString& path);
// loadExperimentFile(defaultPresetPath()).
experiment::ExperimentConfig defaultExperiment();

}  // namespace dplab::ui
