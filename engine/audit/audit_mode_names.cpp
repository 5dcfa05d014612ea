// The names of the one-run audit's modes and canary kinds (audit/one_run_audit.h,
// audit/black_box_canaries.h), apart from the audit itself: the flags that spell them need no
// training code.
#include <string>
#include <string_view>

#include "audit/black_box_canaries.h"
#include "audit/one_run_audit.h"
#include "core/error.h"

namespace dplab::audit {

const char* to_string(AuditMode mode) {
  return mode == AuditMode::kBlackBox ? "blackbox" : "whitebox";
}

const char* to_string(WhiteBoxCanaries kind) {
  return kind == WhiteBoxCanaries::kReservedCoordinates ? "reserved" : "random";
}

WhiteBoxCanaries parse_whitebox_canaries(std::string_view text) {
  if (text == "reserved") return WhiteBoxCanaries::kReservedCoordinates;
  if (text == "random") return WhiteBoxCanaries::kRandomDirections;
  throw InvalidArgument("whitebox canaries = '" + std::string(text) +
                        "' must be reserved or random");
}

AuditMode parse_audit_mode(std::string_view text) {
  if (text == "blackbox") return AuditMode::kBlackBox;
  if (text == "whitebox") return AuditMode::kWhiteBox;
  throw InvalidArgument("mode = '" + std::string(text) + "' must be blackbox or whitebox");
}

const char* to_string(BlackBoxCanaries kind) {
  return kind == BlackBoxCanaries::kMislabelled ? "mislabelled" : "crafted";
}

BlackBoxCanaries parse_blackbox_canaries(std::string_view text) {
  if (text == "mislabelled") return BlackBoxCanaries::kMislabelled;
  if (text == "crafted") return BlackBoxCanaries::kCrafted;
  throw InvalidArgument("blackbox canaries = '" + std::string(text) +
                        "' must be mislabelled or crafted");
}

}  // namespace dplab::audit
