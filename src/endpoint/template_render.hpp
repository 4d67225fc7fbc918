// The payload-template language: literal text with {{ expression }} holes, where an expression is
// a variable with attribute/index access and optional filters (tojson). Parsed once, rendered per
// request.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace inferperf::endpoint {

class PayloadTemplate {
 public:
  static core::Result<PayloadTemplate> parse(std::string_view source);
  // Strings render as they are, everything else (and any value through |tojson) as JSON;
  // an unknown variable renders as null.
  std::string render(const nlohmann::json& variables) const;

 private:
  struct Step {
    std::string key;  // attribute name, or "" for an index
    std::size_t index = 0;
  };
  struct Piece {
    std::string literal;     // text before the hole
    std::vector<Step> path;  // empty: no hole (the trailing literal)
    bool tojson = false;
  };
  std::vector<Piece> pieces_;
};

}  // namespace inferperf::endpoint
