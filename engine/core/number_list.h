// A list of positive numbers typed as text ("0.5, 4, 8"), read by one rule for every field that
// takes one (the GUI's ε lists). Errors name the field and the entry that is wrong.
#pragma once

#include <string_view>
#include <vector>

namespace dplab {

// The comma-separated numbers of `text`, each finite and > 0, sorted ascending with duplicates
// removed. Throws InvalidArgument "<field>: \"abc\" is not a number > 0" for a bad entry and
// "<field>: give at least one number > 0" for an empty list. Blank entries ("1,,2") are skipped.
std::vector<double> parse_positive_list(std::string_view text, std::string_view field);

}  // namespace dplab
