#include "tuning/search_warnings.h"

namespace dplab::tuning {

std::string first_warning(const SearchResults& results) {
  for (const auto& job : results.jobs)
    if (!job.warnings.empty()) return job.warnings.front();
  return "";
}

std::string private_warning_line(const std::string& first) {
  if (first.empty()) return "";
  return "warning (curator only, not for release): at least one run of the search warned; the "
         "first: " +
         first;
}

std::vector<std::string> search_warning_lines(const SearchResults& results) {
  if (results.config.release.mode == experiment::ReleaseMode::kPrivate) {
    const std::string line = private_warning_line(first_warning(results));
    if (line.empty()) return {};
    return {line};
  }
  std::vector<std::string> lines;
  for (const auto& job : results.jobs)
    for (const auto& warning : job.warnings)
      lines.push_back("warning: candidate " + std::to_string(job.candidate) + ", repeat " +
                      std::to_string(job.repeat) + ": " + warning);
  return lines;
}

}  // namespace dplab::tuning
