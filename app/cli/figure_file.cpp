#include "cli/figure_file.h"

#include <string>

#include "cli/output_files.h"
#include "core/error.h"

namespace dplab::cli {

bool is_figure_file_name(const std::filesystem::path& file) {
  const auto extension = file.extension();
  return extension == ".svg" || extension == ".pdf" || extension == ".png";
}

void write_figure(const figures::Plot& plot, const std::filesystem::path& file) {
  std::string bytes;
  try {
    const auto extension = file.extension();
    bytes = extension == ".svg"   ? figures::to_svg(plot)
            : extension == ".pdf" ? figures::to_pdf(plot)
                                  : figures::to_png(plot);
  } catch (const Error& e) {
    throw IoError(file.string() + ": " + e.what());
  }
  write_text_file_atomically(file, bytes);
}

}  // namespace dplab::cli
