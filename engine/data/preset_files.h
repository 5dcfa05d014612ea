// The presets that ship with dplab (resources/presets/, installed as share/dplab/presets/): the
// folder that holds them, and the one rule by which every command that takes an experiment or
// preset file (tune --config, slurm, oso-protocol --preset, objpert --compare, reproduce, the
// GUI's --open, Python's dplab.tune) accepts a preset's name in place of a path.
#pragma once

#include <string>

namespace dplab::data {

// $DPLAB_PRESETS_DIR when it is set (any folder); else the first of `presets` (an installed
// tree: share/dplab/presets) and `resources/presets` (the source tree) next to a folder that
// find_shipped_datasets_dir searches, in its order (data/shipped_datasets.h), that holds dplab's
// presets. Throws IoError listing where it looked.
std::string find_presets_dir();

// The file a command reads for `name_or_path`: the path as given when it names something that
// exists and is not a folder, or whenever it has a folder part ("./x.json", "runs/x.json": the
// reader then says what is wrong with it); else a preset's name, with or without ".json"
// ("quick-demo", "quick-demo.json"), in find_presets_dir(). Throws IoError for a name that is no
// preset, listing the presets there and where it looked.
std::string resolve_preset_path(const std::string& name_or_path);

}  // namespace dplab::data
