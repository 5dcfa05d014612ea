// Text the GUI reads by path: a file the user chose, or a resource compiled into the program
// (":/presets/...", ":/lessons/...", ":/oso-presets/..."). A user's file goes through the engine's
// one reader (data/file_reader.h: regular files only, so a FIFO cannot block the GUI thread; the
// rules' size cap; UTF-8 with the byte offset of the first bad byte); only ":/" resources, which
// are not user input, are read with QFile.
#pragma once

#include <QString>
#include <string>

#include "data/file_reader.h"

namespace dplab::ui {

// Throws IoError / ParseError (dplab::Error) naming the file and the reason.
std::string readResourceOrFile(const QString& path, const data::FileRules& rules);

}  // namespace dplab::ui
