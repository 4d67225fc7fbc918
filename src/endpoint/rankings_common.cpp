// Shared by the rerankers: the passages of a turn and the ranking-list decoder.
#include "endpoint/rankings_common.hpp"

#include <simdjson.h>

#include "endpoint/decode_util.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

std::vector<std::string> passages_of(const dataset::Turn& t) {
  return t.passages.empty() ? t.more_texts : t.passages;
}

DecodedEvent decode_rankings(std::string_view payload, std::string_view key, bool top_level_list) {
  DecodedEvent out;
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(payload.data(), payload.size(), true).get(doc) != simdjson::SUCCESS) {
    return error_event("ranking response is not JSON: " + std::string(payload.substr(0, 200)));
  }
  simdjson::dom::array list;
  simdjson::dom::object obj;
  if (top_level_list && doc.get_array().get(list) == simdjson::SUCCESS) {
    // TEI answers with the list itself.
  } else if (doc.get_object().get(obj) != simdjson::SUCCESS) {
    return error_event("ranking response is neither an object nor a list");
  } else if (obj[key].get_array().get(list) != simdjson::SUCCESS) {
    if (auto e = error_message_of(obj)) return error_event(*e);
    return error_event("ranking response without a '" + std::string(key) + "' list");
  } else {
    read_usage(obj, out);
  }
  for (simdjson::dom::element item : list) {
    if (!item.is_object()) return error_event("ranking item is not an object");
    ++out.outputs;
  }
  out.kind = DecodedEvent::Kind::kData;
  return out;
}

}  // namespace inferperf::endpoint
