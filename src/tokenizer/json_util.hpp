// Small accessors for tokenizer.json objects read with simdjson's DOM API.
#pragma once
#include <simdjson.h>

#include <optional>
#include <string>
#include <string_view>

namespace inferperf::tokenizer {

inline std::string str_field(simdjson::dom::element e, std::string_view key,
                             std::string fallback = "") {
  std::string_view v;
  if (e[key].get_string().get(v) == simdjson::SUCCESS) return std::string(v);
  return fallback;
}

inline bool bool_field(simdjson::dom::element e, std::string_view key, bool fallback) {
  bool v = false;
  if (e[key].get_bool().get(v) == simdjson::SUCCESS) return v;
  return fallback;
}

inline std::optional<std::int64_t> int_field(simdjson::dom::element e, std::string_view key) {
  std::int64_t v = 0;
  if (e[key].get_int64().get(v) == simdjson::SUCCESS) return v;
  return std::nullopt;
}

inline bool is_null_or_missing(simdjson::dom::element e) {
  return e.is_null();
}

// The "pattern" of Split/Replace: {"String": s} (literal) or {"Regex": r}. Returns a regex source,
// or nothing when the field is missing or neither form. Takes the lookup's result (`c["pattern"]`)
// so a missing field is not converted to an element, which would throw.
std::optional<std::string> pattern_source(
    simdjson::simdjson_result<simdjson::dom::element> pattern);

}  // namespace inferperf::tokenizer
