// Parsing of AIPerf-style "key:value" lists (--extra-inputs, --header) and value coercion.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace inferperf::config {

// true/false -> bool, none/null -> null, integer literal without leading zero -> int,
// one-dot decimal -> float, anything else -> string.
nlohmann::json coerce_value(std::string_view text);

// One flag value: a JSON object ("{...}") or comma-separated "key:value" items split on the first
// colon. `flag` names the option in error messages.
core::Result<std::vector<std::pair<std::string, nlohmann::json>>> parse_key_values(
    std::string_view item, std::string_view flag, bool coerce);

}  // namespace inferperf::config
