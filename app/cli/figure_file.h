// A figure written as the file its name asks for: .svg, .pdf or .png (figures/plot.h, Cairo).
#pragma once

#include <filesystem>

#include "figures/plot.h"

namespace dplab::cli {

// True for the names write_figure writes (.svg, .pdf, .png).
bool is_figure_file_name(const std::filesystem::path& file);

// Writes `plot` atomically in the format its file name ends with (anything else: .png). Every
// error names the file: the writer's ("...png: cannot write: No space left on device") already
// does, a drawing or encoding error gets the file put in front.
void write_figure(const figures::Plot& plot, const std::filesystem::path& file);

}  // namespace dplab::cli
