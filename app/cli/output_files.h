// Output files of the CLI, written atomically (temp file + rename) so an interrupted run never
// leaves a half-written curve.csv or summary.json where a good one stood.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/number_text.h"  // number_text: the numbers of every file the CLI writes
#include "training/trainer.h"

namespace dplab::cli {

// Output paths are checked before any work starts (issue #45 item 10), so no run ends in an
// output error after its training. A folder (--out DIR): core/atomic_file.h's
// require_writable_folder, the one rule (empty: a usage error, exit 2; a file, a symlink loop, no
// permission: an error naming the path and the reason). A file (objpert --out FILE): empty is a
// usage error naming `flag`; an existing folder is refused; a device or FIFO (/dev/stdout) is
// written in place; otherwise the folder it goes in must be writable (require_writable_folder).
void require_output_file(const std::string& path, const std::string& flag);

void write_text_file_atomically(const std::filesystem::path& path, const std::string& text);
void write_json_file(const std::filesystem::path& path, const nlohmann::json& value);

}  // namespace dplab::cli
