// Clipping rules (clipping.h): names as experiment files write them, and their checks.
#include "models/clipping.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_guard.h"
#include "core/validate.h"

namespace dplab::models {

std::string to_string(ClippingMode mode) {
  return mode == ClippingMode::kAutomatic ? "automatic" : "flat";
}

ClippingMode parse_clipping_mode(const std::string& text) {
  if (text == "flat") return ClippingMode::kFlat;
  if (text == "automatic") return ClippingMode::kAutomatic;
  // The text as a bounded excerpt: a file may hold any string there.
  throw InvalidArgument("unknown clipping " + json_excerpt(nlohmann::json(text)) +
                        " (expected \"flat\": g min(1, C/||g||), or \"automatic\": "
                        "g/(||g|| + gamma), Bu et al. 2023)");
}

void check_clipping(const std::string& what, const Clipping& c) {
  if (!(c.clip > 0)) {
    throw InvalidArgument(what + ": clip = " + format_number(c.clip) +
                          " must be > 0 (kNoClipping for no clipping)");
  }
  if (!c.is_automatic()) return;
  if (!std::isfinite(c.clip)) {
    throw InvalidArgument(what + ": automatic clipping needs a finite clip (its sensitivity; 1)");
  }
  if (!(std::isfinite(c.stability) && c.stability > 0)) {
    throw InvalidArgument(what + ": clip_stability = " + format_number(c.stability) +
                          " must be > 0 (the gamma of g/(||g|| + gamma))");
  }
}

}  // namespace dplab::models
