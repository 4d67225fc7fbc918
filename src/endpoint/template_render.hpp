// The payload-template language: literal text with {{ expression }} holes, where an expression is
// a variable with attribute/index access and optional filters (tojson). Parsed once, rendered per
// request.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "endpoint/endpoint.hpp"

namespace inferperf::endpoint {

// One step of a field path: an attribute name or a list index.
struct PathStep {
  std::string key;
  std::size_t index = 0;
  bool is_index = false;
};
// "a.b[0]['c']" as steps; nullopt when it cannot be read (wildcards, bad indices, empty).
std::optional<std::vector<PathStep>> parse_field_path(std::string_view path);

// template and raw: a response decoded through `response_field` (a field path) when it selects a
// value, else by its shape: embeddings, rankings, then text fields and the OpenAI choices; a body
// that is not JSON is the text.
DecodedEvent decode_detected(std::string_view payload, const std::vector<PathStep>& response_field);
// --extra-inputs response_field as a field path (empty when not given).
core::Result<std::vector<PathStep>> response_field_path(std::string_view response_field);

class PayloadTemplate {
 public:
  static core::Result<PayloadTemplate> parse(std::string_view source);
  // Strings render as they are, everything else (and any value through |tojson) as JSON;
  // an unknown variable renders as null.
  std::string render(const nlohmann::json& variables) const;
  // The top-level variable names the template uses.
  std::vector<std::string> variables() const;

 private:
  struct Piece {
    std::string literal;         // text before the hole
    std::vector<PathStep> path;  // empty: no hole (the trailing literal)
    bool tojson = false;
  };
  std::vector<Piece> pieces_;
};

}  // namespace inferperf::endpoint
