#include "core/json_text.h"

#include <nlohmann/json.hpp>

namespace dplab {

std::string json_text(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace dplab
