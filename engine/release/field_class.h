// The privacy class of every field a release writes (docs/privacy-model.md "Output fields"), in
// one table that the release writers consult for each column and key they write:
//
//   charged       covered by the release's ε: a function of the DP-trained models (and of data
//                 assumed public, e.g. the validation set when validation is public);
//   public        a setting or a count fixed before the run (n, σ, q, T, δ, the candidate grid);
//   not covered   computed from the private data without noise (the lot losses, the training
//                 loss, preprocessing fitted on the data): written only with its label, in the
//                 release's "not_covered" list;
//   curator only  never in a released file (K of an LT / PS search, its wall time, the hard-stop
//                 flag): written only by write_curator_record.
//
// field_class(file, field) looks a field up; a field without a row is an Error, so a new
// column cannot be released unclassified. tests/engine/test_release_fields.cpp checks the table
// against docs/privacy-model.md. Pure; thread-safe.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace dplab::release {

enum class FieldClass { kCharged, kPublic, kNotCovered, kCuratorOnly };

// "charged" | "public" | "not covered" | "curator-only" (the words of docs/privacy-model.md).
std::string to_string(FieldClass klass);

struct FieldRule {
  std::string_view file;   // "curves.csv", "winners.csv", "release.json", ...
  std::string_view field;  // CSV column, or a JSON key as a dotted path from the top
  FieldClass klass;
  std::string_view reason;  // for not covered: why no ε covers it (the label's text)
};

// Every rule, in the order of the doc's table.
std::span<const FieldRule> field_rules();

// The rule of (file, field); throws Error naming both when the table has none.
const FieldRule& field_rule(std::string_view file, std::string_view field);

}  // namespace dplab::release
