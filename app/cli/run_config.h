// The settings of one training run for `dplab-cli train`, audit and label-canary: the engine's
// RunSettings (experiment/run_settings.h, shared with the Python module's dplab.train), from flags
// and/or a JSON file (`--config FILE`, keys = the flag names with '_' for '-'; flags override the
// file). Every problem names the flag or key (exit status 2).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "experiment/run_settings.h"

namespace dplab::cli {

using RunConfig = experiment::RunSettings;
using RunConfigFlag = experiment::RunSettingInfo;

// --max-memory for commands whose settings are not a RunConfig (tune): declares the flag, and
// sets the process's memory budget from it (UsageError naming the flag for a bad size).
// --config FILE and every run_config_flag_list() flag: the settings of one training run, for
// the commands that train one (train, label-canary, audit).
void add_run_config_flags(CLI::App& command, Arguments& args);
void add_max_memory_flag(CLI::App& command, Arguments& args);
void apply_max_memory_flag(const Arguments& args);
// --delimiter, --na-values, --na-policy for commands that read an experiment file (tune, slurm):
// declared with train's help lines; applied over the file's dataset section (the same rules as
// its "delimiter", "na_values", "na_policy" keys; UsageError naming the flag).
void add_csv_reading_flags(CLI::App& command, Arguments& args);
void apply_csv_reading_flags(const Arguments& args, data::CsvReading& csv);
// The names of those flags, for forwarding and for refusing them where they cannot apply.
const std::vector<std::string>& csv_reading_flags();
// "4G", "512M", "2GiB", bytes; UsageError "--max-memory = X must be a size ..." otherwise.
double parse_max_memory(const std::string& text);

// The flags `train` accepts (and the JSON keys, with '_' for '-'), with their --help lines.
const std::vector<RunConfigFlag>& run_config_flag_list();
const std::set<std::string>& run_config_flags();

// The run's settings from --config (if any) with every other flag given on top (a flag wins over
// the file's key), as the engine reads them (experiment::parse_run_settings, train's request).
Settings run_config_settings(const Arguments& args);

// Reads --config (if any), then applies the flags; checks every value and names the flag.
RunConfig parse_run_config(const Arguments& args);

}  // namespace dplab::cli
