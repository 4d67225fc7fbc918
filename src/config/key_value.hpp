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
// colon. `flag` names the option in error messages. Errors: invalid JSON (with the parser's
// reason), a JSON value that is not an object, an item without a colon, an empty key or an empty
// value. With `hide_values` an error never shows more of an item than its first word (header
// values are often credentials).
core::Result<std::vector<std::pair<std::string, nlohmann::json>>> parse_key_values(
    std::string_view item, std::string_view flag, bool coerce, bool hide_values = false);

// The problem with sending this HTTP header, or "" when there is none: the name must be an RFC 9110
// token (letters, digits and !#$%&'*+-.^_`|~), the value must not hold CR, LF, NUL or another
// control character (a tab is allowed), so no value can start a header or a request of its own.
// Neither is echoed: the message names the header at most.
std::string header_problem(std::string_view name, std::string_view value);

}  // namespace inferperf::config
